import fs from 'node:fs';
import path from 'node:path';
import { WEB_DIR } from '../lib/paths.js';
import { buildServer, buildWeb } from '../lib/server.js';

/** Written instead of the SPA when it does not build; the suites that need the SPA fail with its message. */
export const WEB_BUILD_FAILED = path.join(WEB_DIR, 'BUILD-FAILED.txt');

/**
 * Builds the server and the SPA once, into bench/.cache/build, before any suite starts a server. A broken SPA
 * build does not stop the suites that only need the API.
 */
export default function setup() {
  const t = Date.now();
  buildServer();
  fs.rmSync(WEB_DIR, { recursive: true, force: true });
  try {
    buildWeb();
  } catch (err) {
    fs.mkdirSync(WEB_DIR, { recursive: true });
    fs.writeFileSync(WEB_BUILD_FAILED, String((err as Error).message));
    process.stdout.write('  [reliability] the SPA did not build: the stored-XSS suite will fail\n');
  }
  process.stdout.write(`  [reliability] built the server and the SPA in ${((Date.now() - t) / 1000).toFixed(0)} s\n`);
}
