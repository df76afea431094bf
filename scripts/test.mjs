#!/usr/bin/env node
// `npm test`: unit + server integration tests on SQLite, beside them the server suite on PostgreSQL (when
// TEST_DATABASE_URL is set) and on Node 24 (the current LTS); then the Playwright e2e suite and the reliability
// suites against the built server. Ends with one summary line: "N passed, N failed, N skipped".
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import pg from 'pg';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-test-report-'));
const totals = { passed: 0, failed: 0, skipped: 0 };
const failures = [];
/** How long each run took (printed at the end: where CI's time goes). */
const timings = [];
/** Vitest's unhandled-error reports, repeated at the end: a CI log often shows only its last lines. */
const unhandled = [];

/**
 * Runs a command with its output passed through (and kept, to find unhandled errors); resolves to success.
 * `buffered`: the output is held back and printed in one piece when the command ends (for runs side by side).
 */
function run(label, cmd, args, env = process.env, { buffered = false } = {}) {
  console.log(`\n=== ${label}${buffered ? ' (started; its output follows when it ends)' : ''}\n`);
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: [buffered ? 'ignore' : 'inherit', 'pipe', 'pipe'], env });
    let out = '';
    const held = [];
    const keep = (stream, chunk) => {
      if (buffered) held.push(chunk);
      else stream.write(chunk);
      out = (out + chunk.toString()).slice(-2_000_000);
    };
    child.stdout.on('data', (c) => keep(process.stdout, c));
    child.stderr.on('data', (c) => keep(process.stderr, c));
    child.on('close', (code, signal) => {
      if (buffered) {
        console.log(`\n=== ${label}: output\n`);
        process.stdout.write(Buffer.concat(held));
      }
      if (code !== 0) console.log(`\n=== ${label}: exited with ${signal ? `signal ${signal}` : `code ${code}`}`);
      timings.push(`${label}: ${Math.round((Date.now() - started) / 1000)} s`);
      const plain = stripVTControlCharacters(out);
      const start = plain.search(/⎯+ Unhandled (Error|Rejection)/);
      if (start >= 0) {
        const end = plain.indexOf(' Test Files ', start);
        unhandled.push(`${label}:\n${plain.slice(start, end > start ? end : undefined).trim()}`);
      }
      resolve(code === 0);
    });
  });
}

function countVitest(file) {
  if (!fs.existsSync(file)) return false;
  const j = JSON.parse(fs.readFileSync(file, 'utf8'));
  totals.passed += j.numPassedTests;
  totals.failed += j.numFailedTests;
  totals.skipped += j.numPendingTests + (j.numTodoTests ?? 0);
  return true;
}

const pgUrl = process.env.TEST_DATABASE_URL;
const withoutPg = { ...process.env };
delete withoutPg.TEST_DATABASE_URL;

// 1. Three runs side by side: everything on SQLite, the server suite again on PostgreSQL, and the server suite on
// Node 24 with SQLite. Vitest runs one test file at a time on a 2-core machine (its default is cores - 1 workers),
// and the PostgreSQL run mostly waits on its database, so together they take little longer than the first alone.
// scripts/node24.mjs fetches Node 24 from the npm registry into node_modules/.cache the first time.
async function sqliteRun() {
  const report = path.join(tmp, 'vitest-sqlite.json');
  const ok = await run(
    'unit and server tests (SQLite)',
    'npx',
    ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`],
    withoutPg,
  );
  if (!countVitest(report) || !ok) failures.push('unit and server tests (SQLite)');
}
const serverSuite = (report) => [
  'run',
  '--project',
  'server',
  // One worker each: the three runs share the machine.
  '--maxWorkers=1',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${report}`,
];
async function postgresRun() {
  if (!pgUrl) {
    if (process.env.CI === 'true') {
      console.log(
        '\nPostgreSQL: TEST_DATABASE_URL is not set and no server answered at 127.0.0.1:5432 — the PostgreSQL run was NOT done.',
      );
      failures.push('PostgreSQL run missing');
    }
    return;
  }
  try {
    await sweepStaleTestDatabases(pgUrl);
  } catch (err) {
    console.log(`\nPostgreSQL at ${redact(pgUrl)} did not answer (${err.message}) — the PostgreSQL run was NOT done.`);
    failures.push('PostgreSQL unreachable');
    return;
  }
  const pgReport = path.join(tmp, 'vitest-pg.json');
  const ok = await run('server tests on PostgreSQL', 'npx', ['vitest', ...serverSuite(pgReport)], process.env, {
    buffered: true,
  });
  if (!countVitest(pgReport) || !ok) failures.push('server tests (PostgreSQL)');
}
async function node24Run() {
  const report = path.join(tmp, 'vitest-node24.json');
  const ok = await run(
    'server tests on Node 24 (SQLite)',
    process.execPath,
    ['scripts/node24.mjs', 'node_modules/vitest/vitest.mjs', ...serverSuite(report)],
    withoutPg,
    { buffered: true },
  );
  if (!countVitest(report) || !ok) failures.push('server tests (Node 24)');
}
await Promise.all([sqliteRun(), postgresRun(), node24Run()]);

// 2. e2e in Chromium against the built server.
const e2eReport = path.join(tmp, 'playwright.json');
const e2eOk = await run('e2e (Playwright, Chromium)', 'npm', ['run', 'test:e2e', '--', '--reporter=list,json'], {
  ...process.env,
  PLAYWRIGHT_JSON_OUTPUT_NAME: e2eReport,
});
if (fs.existsSync(e2eReport)) {
  const report = JSON.parse(fs.readFileSync(e2eReport, 'utf8'));
  const s = report.stats ?? {};
  // Errors outside any test (global setup, the web server) fail the run without failing a test: say which.
  for (const e of report.errors ?? []) unhandled.push(`e2e: ${String(e.message ?? e.value ?? '').slice(0, 2000)}`);
  totals.passed += (s.expected ?? 0) + (s.flaky ?? 0);
  totals.failed += s.unexpected ?? 0;
  totals.skipped += s.skipped ?? 0;
}
if (!e2eOk) failures.push('e2e');

// 3. The reliability suites (bad input, crash safety, lost updates, access, uploads, stored XSS) against the
// built server, one file at a time; their figures go to the report directory, not bench/results.
const reliabilityReport = path.join(tmp, 'vitest-reliability.json');
{
  const ok = await run(
    'reliability suites',
    'npx',
    [
      'vitest',
      'run',
      '--config',
      'bench/reliability/vitest.config.ts',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${reliabilityReport}`,
    ],
    {
      ...withoutPg,
      FOLIO_RELIABILITY_RESULTS_DIR: tmp,
      // The node-failover suite runs two nodes on one PostgreSQL database; every other suite runs on SQLite.
      ...(pgUrl ? { FOLIO_RELIABILITY_PG_URL: pgUrl } : {}),
      ...(e2eOk ? { FOLIO_RELIABILITY_PREBUILT: '1' } : {}),
    },
  );
  if (!countVitest(reliabilityReport) || !ok) failures.push('reliability suites');
}

fs.rmSync(tmp, { recursive: true, force: true });
console.log('');
for (const report of unhandled) console.log(`${report.split('\n').slice(0, 60).join('\n')}\n`);
console.log(`Time taken: ${timings.join('; ')}`);
if (failures.length) console.log(`Failed: ${failures.join(', ')}`);
console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(failures.length ? 1 : 0);

/**
 * Drops what interrupted earlier runs left: each test file makes and drops its own schema `t_<random>_<time>`,
 * each multi-node test its own database `folio_mn_<time>_<random>` (times in base-36 ms). Only ones older
 * than STALE_MS go, so runs of other people on the same server are left alone; unnamed-time schemas `t_<12 hex>`
 * are from an older harness.
 */
async function sweepStaleTestDatabases(url) {
  const STALE_MS = 2 * 3600_000;
  const stale = (base36) => Date.now() - parseInt(base36, 36) > STALE_MS;
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    const schemas = await client.query(
      `select schema_name as name from information_schema.schemata where schema_name like 't\\_%'`,
    );
    for (const { name } of schemas.rows) {
      const m = /^t_[0-9a-f]{8}_([0-9a-z]+)$/.exec(name);
      if ((m && stale(m[1])) || /^t_[0-9a-f]{12}$/.test(name)) await client.query(`drop schema "${name}" cascade`);
    }
    const dbs = await client.query(`select datname as name from pg_database where datname like 'folio\\_mn\\_%'`);
    for (const { name } of dbs.rows) {
      const m = /^folio_mn_([0-9a-z]+)_[0-9a-f]+$/.exec(name);
      if (m && stale(m[1])) await client.query(`drop database "${name}" with (force)`);
    }
  } finally {
    await client.end();
  }
}

function redact(url) {
  return url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');
}
