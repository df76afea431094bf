import fs from 'node:fs';
import path from 'node:path';
import { BUILD, ROOT, WEB_DIR } from '../lib/paths.js';
import { buildServer, buildWeb } from '../lib/server.js';

/** Written instead of the SPA when it does not build; the suites that need the SPA fail with its message. */
export const WEB_BUILD_FAILED = path.join(WEB_DIR, 'BUILD-FAILED.txt');

/**
 * Builds the server and the SPA once, into bench/.cache/build, before any suite starts a server. A broken SPA
 * build does not stop the suites that only need the API. `npm test` runs these suites right after the e2e run has
 * built both (`npm run build`: dist-server/ and dist/, the same compilers and options): with
 * FOLIO_RELIABILITY_PREBUILT=1 those are copied instead of built again.
 */
export default function setup() {
  const t = Date.now();
  const server = path.join(ROOT, 'dist-server');
  const web = path.join(ROOT, 'dist');
  const prebuilt =
    process.env.FOLIO_RELIABILITY_PREBUILT === '1' &&
    fs.existsSync(path.join(server, 'server/main.js')) &&
    fs.existsSync(path.join(web, 'index.html'));
  if (prebuilt) {
    fs.rmSync(path.join(BUILD, 'server'), { recursive: true, force: true });
    fs.rmSync(WEB_DIR, { recursive: true, force: true });
    fs.cpSync(server, path.join(BUILD, 'server'), { recursive: true });
    fs.cpSync(web, WEB_DIR, { recursive: true });
    process.stdout.write('  [reliability] copied the server and the SPA that `npm run build` made\n');
    return;
  }
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
