import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** Generated databases and private builds (gitignored). */
export const CACHE = path.join(ROOT, 'bench/.cache');
/** The server and SPA built for benchmarks and the reliability suite, apart from dist/ (others rebuild that). */
export const BUILD = path.join(CACHE, 'build');
export const SERVER_ENTRY = path.join(BUILD, 'server/server/main.js');
export const WEB_DIR = path.join(BUILD, 'web');
export const RESULTS = path.join(ROOT, 'bench/results');

/** Admin password of every generated dataset and every server the suites start. */
export const ADMIN_PASSWORD = 'bench-admin-password';
export const ADMIN_BASIC = `Basic ${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64')}`;

/** `Authorization` header value for HTTP Basic. */
export function basic(username: string, password: string): string {
  return `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
}
