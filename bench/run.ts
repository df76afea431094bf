/**
 * `npm run bench`: measures Folio against baselines taken in the same run, writes bench/results/<date>.json and
 * prints a table. Every figure is a ratio against its baseline (the machines are shared and noisy).
 *
 *   npm run bench                       everything on SQLite
 *   npm run bench -- --pg               plus the API set on PostgreSQL (127.0.0.1:5432, a database of its own)
 *   npm run bench -- --only api --pg --no-sqlite   the API set on PostgreSQL only
 *   npm run bench -- --only api,spa     some suites: api, scale, upload, thumbnails, spa, ui
 *   npm run bench -- --only ui          the admin app in Chromium: the page editor (50 and 200 widgets) and the
 *                                       asset library on 100k assets (`--ui-sizes 50`: some page sizes only;
 *                                       `--ui-parts library`: the asset library only; `--ui-modes "fresh tab"`:
 *                                       the editor opened one way only; `--ui-runs 3`: runs per page size;
 *                                       `--ui-open-only`: the opening figures only; `--ui-web <dir>`: another
 *                                       build of the SPA, not built then, for before/after pairs;
 *                                       `BENCH_PORTS=8100-8199`: the servers' ports from that range)
 *   npm run bench -- --quick            short rounds (to try the instruments, not for figures)
 *   npm run bench -- --only events      200 live-event streams on one node: memory, write cost, delivery (--pg too)
 *   npm run bench -- --only api --cases put,"get page"   some API cases (by name; not for --merge)
 *   npm run bench -- --only upload --merge   rerun some suites into the latest results file (the others stay)
 *
 * Datasets are generated once through the service layer and cached in bench/.cache/data-v<N>/ (minutes for
 * the 100k-page one); the server runs from its own build in bench/.cache/build/.
 */
import { execSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { copyDataset, ensureDatasets, LISTING_ASSETS, pgDataset, readManifest } from './lib/dataset.js';
import { CACHE, RESULTS, ROOT } from './lib/paths.js';
import { buildServer, buildWeb, startFolio, type RunningProcess } from './lib/server.js';
import { printTable, targetsOf, type BenchResults } from './lib/report.js';
import { apiSuite, UNCACHED_ENV, type AnchorDatabase } from './suites/api.js';
import { scaleSuite } from './suites/scale.js';
import { spaSuite } from './suites/spa.js';
import { thumbnailSuite } from './suites/thumbnails.js';
import { uploadSuite } from './suites/upload.js';
import { uiEditorSuite, type UiEditorMode } from './suites/ui-editor.js';
import { uiLibrarySuite } from './suites/ui-library.js';
import { eventsSuite } from './suites/events.js';

const argv = process.argv.slice(2);
const has = (flag: string) => argv.includes(flag);
const valueOf = (flag: string) => {
  const i = argv.indexOf(flag);
  return i >= 0 ? argv[i + 1] : undefined;
};
const ALL = ['api', 'scale', 'upload', 'thumbnails', 'spa', 'ui', 'events'];
const only = new Set(valueOf('--only')?.split(',') ?? ALL);
const quick = has('--quick');
// `--ui-parts library`: only some parts of the UI suite (editor, library; default both).
const uiParts = new Set((valueOf('--ui-parts') ?? 'editor,library').split(','));
/** `--cases put,"get page"`: only the API cases whose name contains one of these. */
const cases = valueOf('--cases')?.split(',');
const withPg = has('--pg');
/** `--pg --no-sqlite`: the API set on PostgreSQL only. */
const noSqlite = has('--no-sqlite');
const pgUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

const SMALL = 1_000;
const LARGE = 100_000;
const GiB = 1024 ** 3;

const log = (line: string) => process.stdout.write(`${line}\n`);

function gitCommit(): string {
  try {
    return execSync('git rev-parse --short HEAD', { cwd: ROOT, encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}

/** The API suite on a server as shipped and on one with the response cache off; stops both when done. */
async function apiOnBoth(
  database: 'sqlite' | 'postgres',
  folio: RunningProcess,
  uncached: RunningProcess,
  anchor: AnchorDatabase,
) {
  try {
    const seconds = quick ? 3 : 8;
    return await apiSuite(
      folio,
      { database, pages: SMALL, connections: 10, seconds, rounds: quick ? 1 : 3, uncached, cases, anchor },
      log,
    );
  } finally {
    await folio.stop();
    await uncached.stop();
  }
}

async function main() {
  const startedAt = new Date();
  const results: BenchResults = {
    date: startedAt.toISOString(),
    commit: gitCommit(),
    command: `npm run bench${argv.length ? ` -- ${argv.join(' ')}` : ''}`,
    quick,
    machine: {
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model ?? '',
      memoryGiB: Math.round(os.totalmem() / GiB),
      node: process.version,
      platform: `${os.platform()} ${os.release()}`,
      loadBefore: os.loadavg(),
      loadAfter: [],
    },
    suites: {},
    targets: [],
  };
  log(
    `Folio benchmarks — ${results.date}, commit ${results.commit}, load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );

  log('Building the server (bench/.cache/build/server) …');
  buildServer();

  if (only.has('spa')) {
    log('SPA: building (bench/.cache/build/web) …');
    const buildMs = buildWeb();
    results.suites.spa = spaSuite(buildMs, log);
  }

  // `--ui-web <dir>`: the UI suites on another build of the SPA (a before/after pair; no build then).
  const uiWeb = valueOf('--ui-web');
  if (only.has('ui')) {
    if (!only.has('spa') && !uiWeb) {
      log('UI: building the SPA (bench/.cache/build/web) …');
      buildWeb();
    }
    if (uiParts.has('editor')) {
      log('UI: the page editor in Chromium (pages of 50 and 200 widgets)');
      // `--ui-sizes 50`: some page sizes only (widgets per page; default 50,200).
      const sizes = valueOf('--ui-sizes')?.split(',').map(Number);
      // `--ui-modes "fresh tab"`: one way of opening only (fresh tab, first visit; default both).
      const modes = valueOf('--ui-modes')?.split(',') as UiEditorMode[] | undefined;
      const runs = Number(valueOf('--ui-runs') ?? (quick ? 2 : 5));
      // `--ui-open-only`: the opening figures only (no typing, focus, palette), for more runs while iterating.
      const openOnly = has('--ui-open-only');
      results.suites.uiEditor = await uiEditorSuite({ runs, sizes, modes, openOnly, webDir: uiWeb }, log);
    }
  }

  if (only.has('thumbnails')) {
    log('Thumbnails: sharp, 12 MP JPEG');
    results.suites.thumbnails = await thumbnailSuite({ runs: 20 }, log);
  }

  if ((only.has('api') && !noSqlite) || only.has('scale')) {
    const sizes = only.has('scale') ? [SMALL, LARGE] : [SMALL];
    const sets = ensureDatasets(sizes);
    for (const s of sizes) results.suites[`dataset${s}`] = readManifest(sets[s]!);

    if (only.has('api') && !noSqlite) {
      log(`API on SQLite (${SMALL.toLocaleString('en')} pages, ${quick ? 'quick' : 'full'} rounds)`);
      // The server as shipped (response cache on) and one with the cache off, each on its own copy of the data.
      const dataDirs = [copyDataset(sets[SMALL]!), copyDataset(sets[SMALL]!)];
      const folio = await startFolio({ dataDir: dataDirs[0]! });
      const uncached = await startFolio({ dataDir: dataDirs[1]!, env: UNCACHED_ENV });
      try {
        // The anchor's SQLite file sits beside Folio's, on the same disk.
        const anchor = { sqliteFile: path.join(dataDirs[0]!, 'bench-anchor.sqlite') };
        results.suites.api = await apiOnBoth('sqlite', folio, uncached, anchor);
      } finally {
        for (const d of dataDirs) fs.rmSync(d, { recursive: true, force: true });
      }
    }

    if (only.has('scale')) {
      log(
        `Scale: ${SMALL.toLocaleString('en')} vs ${LARGE.toLocaleString('en')} pages (unloaded latency, alternating rounds, response cache off)`,
      );
      const dirs = [copyDataset(sets[SMALL]!), copyDataset(sets[LARGE]!)];
      // The response cache off: every request is computed, so the figures show how the queries scale (with the
      // cache on, repeated URLs are answered from memory whatever the size of the database).
      const servers = await Promise.all(dirs.map((dataDir) => startFolio({ dataDir, env: UNCACHED_ENV })));
      try {
        results.suites.scale = await scaleSuite(
          { server: servers[0]!, pages: SMALL },
          { server: servers[1]!, pages: LARGE },
          { rounds: quick ? 2 : 5, perRound: quick ? 100 : 300, env: UNCACHED_ENV },
          log,
        );
      } finally {
        for (const s of servers) await s.stop();
        for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
      }
    }
  }

  if (withPg && only.has('api')) {
    log(`API on PostgreSQL (${SMALL.toLocaleString('en')} pages, a database of its own)`);
    const admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    const dataset = await pgDataset(admin, pgUrl, SMALL, log);
    try {
      // Two nodes on the one database: as shipped (response cache on), and with the cache off.
      const folio = await startFolio({ dataDir: dataset.dataDir, databaseUrl: dataset.url });
      const uncached = await startFolio({ dataDir: dataset.dataDir, databaseUrl: dataset.url, env: UNCACHED_ENV });
      results.suites.apiPostgres = await apiOnBoth('postgres', folio, uncached, { databaseUrl: dataset.url });
    } finally {
      await dataset.drop();
      await admin.end();
    }
  }

  if (only.has('upload')) {
    const bytes = Number(valueOf('--upload-bytes') ?? (quick ? 256 * 1024 ** 2 : GiB));
    log(`Upload and download of ${(bytes / GiB).toFixed(2)} GiB`);
    results.suites.upload = await uploadSuite({ bytes, rounds: quick ? 1 : 5 }, log);
  }

  if (only.has('events')) {
    // 200 open event streams on one node as shipped (SQLite; with --pg also on PostgreSQL).
    const runs: { databaseUrl?: string; drop?: () => Promise<void> }[] = noSqlite ? [] : [{}];
    if (withPg) {
      const admin = new pg.Client({ connectionString: pgUrl });
      await admin.connect();
      const name = `folio_bench_events_${Date.now().toString(36)}`;
      await admin.query(`create database "${name}"`);
      await admin.end();
      const url = new URL(pgUrl);
      url.pathname = `/${name}`;
      runs.push({
        databaseUrl: url.toString(),
        drop: async () => {
          const c = new pg.Client({ connectionString: pgUrl });
          await c.connect();
          await c.query(`drop database if exists "${name}" with (force)`);
          await c.end();
        },
      });
    }
    results.suites.events = [];
    for (const run of runs) {
      log(`Live events: 200 streams on one node (${run.databaseUrl ? 'PostgreSQL' : 'SQLite'})`);
      try {
        results.suites.events.push(
          await eventsSuite({ streams: 200, writes: quick ? 30 : 100, databaseUrl: run.databaseUrl }, log),
        );
      } finally {
        await run.drop?.();
      }
    }
  }

  if (only.has('ui') && uiParts.has('library')) {
    // The asset library in Chromium against the server as shipped (its default log level; no speed switches).
    const sets = ensureDatasets([SMALL]);
    const dataDir = copyDataset(sets[SMALL]!);
    const folio = await startFolio({ dataDir, env: { LOG_LEVEL: 'info' } });
    try {
      log(`UI: the asset library, ${LISTING_ASSETS.toLocaleString('en')} assets in one folder (Chromium)`);
      results.suites.uiLibrary = await uiLibrarySuite(
        folio,
        {
          assets: LISTING_ASSETS,
          openRuns: quick ? 3 : 7,
          scrollRuns: quick ? 2 : 5,
          scrollMs: 4000,
          panelRuns: quick ? 5 : 15,
        },
        log,
      );
    } finally {
      await folio.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }

  results.machine.loadAfter = os.loadavg();
  fs.mkdirSync(RESULTS, { recursive: true });
  // --merge goes into the latest results file, whatever its date.
  const latest = fs
    .readdirSync(RESULTS)
    .filter((f) => /^\d{4}-\d{2}-\d{2}\.json$/.test(f))
    .sort()
    .pop();
  const file = path.join(
    RESULTS,
    has('--merge') && latest && !quick && !cases
      ? latest
      : quick || cases
        ? // Short rounds or some cases only: figures to look at, never the day's results.
          `${startedAt.toISOString().slice(0, 10)}-${quick ? 'quick' : 'cases'}.tmp`
        : `${startedAt.toISOString().slice(0, 10)}.json`,
  );
  const thisRun = { date: results.date, commit: results.commit, loadBefore: results.machine.loadBefore };
  results.provenance = Object.fromEntries(Object.keys(results.suites).map((k) => [k, thisRun]));
  if (has('--merge') && !quick && !cases && fs.existsSync(file)) {
    // The suites run now replace theirs; the others stay, each with the run (and load) it came from.
    const earlier = JSON.parse(fs.readFileSync(file, 'utf8')) as BenchResults;
    const earlierRun = { date: earlier.date, commit: earlier.commit, loadBefore: earlier.machine.loadBefore };
    const kept = Object.keys(earlier.suites).filter((k) => !(k in results.suites));
    results.suites = { ...earlier.suites, ...results.suites };
    results.provenance = {
      ...Object.fromEntries(kept.map((k) => [k, earlier.provenance?.[k] ?? earlierRun])),
      ...results.provenance,
    };
  }
  results.targets = targetsOf(results);
  fs.writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  log('');
  printTable(results, log);
  log(`\nWritten to ${path.relative(ROOT, file)} (cache: ${path.relative(ROOT, CACHE)})`);
}

main().catch((err: unknown) => {
  process.stderr.write(`bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
