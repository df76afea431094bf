#!/usr/bin/env node
// Starts the BUILT server (dist-server/server/main.js) for the e2e run on a fresh data directory, and removes that
// directory again when Playwright stops the server. The directory is named after the port, so leftovers of a run
// that was killed are deleted by the next one.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const port = process.env.PORT ?? '18080';
const dataDir = path.join(os.tmpdir(), `folio-e2e-${port}`);
const entry = path.join(root, 'dist-server/server/main.js');

for (const [file, hint] of [
  [entry, 'npx tsc -p tsconfig.server.json'],
  [path.join(root, 'dist/index.html'), 'npx vite build'],
]) {
  if (!fs.existsSync(file)) {
    console.error(`e2e: ${path.relative(root, file)} is missing; build first (npm run build, or ${hint}).`);
    process.exit(1);
  }
}

fs.rmSync(dataDir, { recursive: true, force: true });
fs.mkdirSync(dataDir, { recursive: true });

// The node flags of `npm run serve` (package.json), so e2e runs the server as shipped.
const serveScript = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).scripts.serve;
const nodeFlags = /^node((?:\s+--\S+)*)\s/.exec(serveScript)?.[1]?.trim().split(/\s+/).filter(Boolean) ?? [];

const child = spawn(process.execPath, [...nodeFlags, entry], {
  cwd: root,
  stdio: 'inherit',
  env: {
    ...process.env,
    PORT: port,
    HOST: '127.0.0.1',
    CMS_DATA_DIR: dataDir,
    CMS_WEB_DIR: path.join(root, 'dist'),
    CMS_SEED: 'true',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
  },
});

const cleanUp = () => fs.rmSync(dataDir, { recursive: true, force: true });
for (const signal of ['SIGTERM', 'SIGINT']) {
  process.on(signal, () => child.kill(signal));
}
child.on('exit', (code, signal) => {
  cleanUp();
  process.exit(code ?? (signal ? 1 : 0));
});
