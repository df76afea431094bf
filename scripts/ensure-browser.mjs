#!/usr/bin/env node
// Makes sure Playwright has a Chromium to drive: Debian's /usr/bin/chromium when it exists (the project's machines,
// where Playwright's download cannot work), otherwise Playwright's own build, installed on demand.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

const SYSTEM_CHROMIUM = '/usr/bin/chromium';

if (fs.existsSync(SYSTEM_CHROMIUM)) {
  console.log(`e2e browser: ${SYSTEM_CHROMIUM}`);
  process.exit(0);
}

console.log(
  `e2e browser: ${SYSTEM_CHROMIUM} not found; installing Playwright's Chromium (npx playwright install chromium)…`,
);
const result = spawnSync('npx', ['playwright', 'install', 'chromium'], { stdio: 'inherit' });
if (result.status !== 0) {
  console.error(
    [
      '',
      'Could not install a browser for the e2e tests.',
      `  - On Debian/Ubuntu: sudo apt-get install -y chromium   (then ${SYSTEM_CHROMIUM} is used)`,
      '  - Elsewhere, with internet access: npx playwright install chromium',
      '',
    ].join('\n'),
  );
  process.exit(1);
}
