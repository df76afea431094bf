import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { defineConfig, devices } from '@playwright/test';
import { ADMIN_STORAGE_STATE, E2E_ADMIN_PASSWORD } from './e2e/support/env';

/** Debian's Chromium on the project's machines (Playwright's download cannot work there); Playwright's own elsewhere. */
const SYSTEM_CHROMIUM = '/usr/bin/chromium';

/**
 * A port nothing listens on now, found synchronously (the config cannot await): a child node binds port 0 and
 * prints what the kernel gave it.
 */
function freePort(): number {
  const script =
    "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})";
  return Number(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }));
}

// E2E_PORT when set; otherwise a free port, written back to the environment so that the workers (which load this
// file again, with the environment they were started with) use the same one.
process.env.E2E_PORT ??= String(freePort());
const port = Number(process.env.E2E_PORT);
const baseURL = `http://127.0.0.1:${port}`;
const isCI = process.env.CI === 'true' || process.env.CI === '1';

export default defineConfig({
  testDir: 'e2e',
  fullyParallel: false,
  // One server with one database: keep the flows sequential so they never race each other's data.
  workers: 1,
  forbidOnly: isCI,
  retries: isCI ? 1 : 0,
  timeout: 30_000,
  expect: { timeout: 7_500 },
  reporter: isCI ? [['list'], ['html', { open: 'never' }]] : [['list']],
  use: {
    baseURL,
    trace: 'on-first-retry',
    screenshot: 'only-on-failure',
    viewport: { width: 1280, height: 800 },
    launchOptions: {
      ...(fs.existsSync(SYSTEM_CHROMIUM) ? { executablePath: SYSTEM_CHROMIUM } : {}),
      args: [
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  projects: [
    { name: 'setup', testMatch: /.*\.setup\.ts/ },
    {
      name: 'chromium',
      use: { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 800 }, storageState: ADMIN_STORAGE_STATE },
      dependencies: ['setup'],
    },
  ],
  webServer: {
    // The built server on a fresh temporary data dir (removed again on exit): see e2e/support/serve.mjs.
    command: 'node e2e/support/serve.mjs',
    url: `${baseURL}/healthz`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'pipe',
    stderr: 'pipe',
    gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
    env: {
      PORT: String(port),
      CMS_ADMIN_PASSWORD: E2E_ADMIN_PASSWORD,
      CMS_SEED: 'true',
      // Small enough that the asset library's e2e can drop a file over it without allocating 256 MiB.
      CMS_MAX_UPLOAD_BYTES: String(16 * 1024 * 1024),
      LOG_LEVEL: 'warn',
      // The scheduler looks for due publish and unpublish times every second (5 by default): e2e/scheduling.spec.ts.
      CMS_SCHEDULE_SECONDS: '1',
    },
  },
});
