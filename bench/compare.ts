/**
 * `npm run bench:compare -- <ref>`: the server at a git ref (commit, branch, tag) against the working tree, in one
 * run on one machine: what a change did to the cost of each API request.
 *
 *   npm run bench:compare -- HEAD~1                            every API case, response cache on (as shipped)
 *   npm run bench:compare -- main --cases "asset metadata",put   some cases (by name)
 *   npm run bench:compare -- HEAD~1 --cache-off                every request computed
 *   npm run bench:compare -- HEAD~1 --pg                       both on PostgreSQL (a database each)
 *   npm run bench:compare -- anchor --pg --cache-off           the working tree against the database anchor
 *   npm run bench:compare -- HEAD~1 --rounds 40 --seconds 2    more, or longer, rounds
 *
 * Both servers are built (the ref from `git archive`, with this checkout's node_modules) and started side by side
 * on copies of the 1,000-page dataset (`--pg`: each on its own PostgreSQL database made from the bench's template,
 * BENCH_DATABASE_URL or 127.0.0.1:5432). `anchor` instead of a ref: the other side is the database anchor of
 * `npm run bench` (one indexed SELECT, or one committed UPDATE, per request; bench/lib/bare-server.ts), for the
 * cases it has. Each case runs in many short rounds that alternate between the two, the order flipped every
 * round, so a neighbour's load lands on both sides alike; per side it reports the median and the lowest server
 * CPU time per request (from /proc), the median req/s and, on PostgreSQL, the transactions per request (from
 * `pg_stat_database`: the statements sent, as each outside a transaction block is one). Both builds must have the
 * same migrations (they open the same dataset), or the ref those of `BENCH_DATASET_MIGRATIONS` when the working tree
 * only adds migrations that change no content (it migrates its copy in place). Figures go to bench/results/<date>-compare-<ref>.tmp, never to the
 * day's results.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import {
  copyDataset,
  databaseUrlOf,
  datasetMigrations,
  ensureDatasets,
  migrationsHash,
  pgDataset,
} from './lib/dataset.js';
import { load, median } from './lib/load.js';
import { CACHE, RESULTS, ROOT } from './lib/paths.js';
import { buildServer, compileServer, startFolio, type RunningProcess } from './lib/server.js';
import { adminCredentials, apiCases, selectCases, startAnchor, UNCACHED_ENV, writeRoutes } from './suites/api.js';

const argv = process.argv.slice(2);
const valueOf = (flag: string) => {
  const i = argv.indexOf(flag);
  return i >= 0 ? argv[i + 1] : undefined;
};
const ref = argv[0];
if (!ref || ref.startsWith('--')) {
  process.stderr.write(
    'usage: npm run bench:compare -- <git ref>|anchor [--pg] [--cases a,b] [--cache-off] [--rounds N] [--seconds S]\n',
  );
  process.exit(2);
}
const cases = valueOf('--cases')?.split(',');
const cacheOff = argv.includes('--cache-off');
const onPg = argv.includes('--pg');
const againstAnchor = ref === 'anchor';
const rounds = Number(valueOf('--rounds') ?? 20);
const seconds = Number(valueOf('--seconds') ?? 2);
const pgUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const PAGES = 1_000;

const log = (line: string) => process.stdout.write(`${line}\n`);
const git = (...args: string[]) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();

/**
 * The server at `sha`, compiled into bench/.cache/compare/<sha>/ (kept: a second comparison reuses it): its
 * main.js, and the source tree it was built from.
 */
function buildRef(sha: string): { entry: string; tree: string } {
  const dir = path.join(CACHE, 'compare', sha);
  const entry = path.join(dir, 'build/server/main.js');
  const tree = path.join(dir, 'tree');
  if (fs.existsSync(entry)) return { entry, tree };
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(tree, { recursive: true });
  const archive = path.join(dir, 'tree.tar');
  execFileSync('git', ['archive', '--format=tar', '-o', archive, sha], { cwd: ROOT });
  execFileSync('tar', ['-xf', archive, '-C', tree]);
  fs.rmSync(archive);
  return { entry: compileServer(tree, path.join(dir, 'build')), tree };
}

interface Side {
  label: string;
  server: RunningProcess;
  /** Folio (the anchor is sent HTTP Basic whatever the case). */
  folio: boolean;
  /** PostgreSQL: the side's database, whose committed transactions are counted. */
  database?: string;
  cpuUs: number[];
  rps: number[];
  statements: number;
  requests: number;
}

/** Where a side's data lives; removed at the end. */
interface Storage {
  dataDir: string;
  databaseUrl?: string;
  drop(): Promise<void>;
}

async function main() {
  const dirty = git('status', '--porcelain', '--untracked-files=no') !== '';
  const head = git('rev-parse', '--short', 'HEAD');
  const current = `working tree (${head}${dirty ? ' + changes' : ''})`;
  const sha = againstAnchor ? undefined : git('rev-parse', '--verify', `${ref}^{commit}`);
  const short = sha?.slice(0, 7) ?? 'anchor';
  const other = sha ? `${ref} (${short})` : `database anchor (${onPg ? 'PostgreSQL' : 'SQLite'})`;
  log(
    `Compare ${other} with the ${current}, ${onPg ? 'PostgreSQL' : 'SQLite'}, response cache ${cacheOff ? 'off' : 'on'}`,
  );

  log(sha ? 'Building both servers …' : 'Building the server …');
  buildServer();
  const refBuild = sha ? buildRef(sha) : undefined;
  // The ref opens the datasets as they were made: with its migrations (the working tree's, or those named by
  // BENCH_DATASET_MIGRATIONS, which the working tree then runs on, migrated in place).
  if (refBuild && migrationsHash(refBuild.tree) !== datasetMigrations()) {
    throw new Error(`${ref} has other migrations than the datasets: the two cannot open the same dataset`);
  }

  const admin = onPg ? new pg.Client({ connectionString: pgUrl }) : undefined;
  await admin?.connect();
  const sqliteSet = onPg ? undefined : ensureDatasets([PAGES])[PAGES]!;
  const storage = async (): Promise<Storage> => {
    if (admin) {
      const set = await pgDataset(admin, pgUrl, PAGES, log);
      return { dataDir: set.dataDir, databaseUrl: set.url, drop: set.drop };
    }
    const dataDir = copyDataset(sqliteSet!);
    return { dataDir, drop: async () => fs.rmSync(dataDir, { recursive: true, force: true }) };
  };
  const databaseOf = (url: string | undefined) => (url ? new URL(url).pathname.slice(1) : undefined);
  const committed = async (database: string) =>
    Number(
      (
        await admin!.query<{ n: string }>('select xact_commit as n from pg_stat_database where datname = $1', [
          database,
        ])
      ).rows[0]?.n ?? 0,
    );

  const env = cacheOff ? UNCACHED_ENV : undefined;
  const stores: Storage[] = [];
  const sides: Side[] = [];
  const newSide = (label: string, server: RunningProcess, folio: boolean, database?: string): Side => ({
    label,
    server,
    folio,
    ...(database ? { database } : {}),
    cpuUs: [],
    rps: [],
    statements: 0,
    requests: 0,
  });
  try {
    const mine = await storage();
    stores.push(mine);
    const tree = newSide(
      current,
      await startFolio({ dataDir: mine.dataDir, databaseUrl: mine.databaseUrl, env }),
      true,
      databaseOf(mine.databaseUrl),
    );
    // Listed at once, so it is stopped whatever fails next; the other side goes before it (unshift).
    sides.push(tree);
    const { cases: all, recorded } = await apiCases(tree.server.url, PAGES, log);
    if (refBuild) {
      const theirs = await storage();
      stores.push(theirs);
      const server = await startFolio({
        dataDir: theirs.dataDir,
        databaseUrl: theirs.databaseUrl,
        entry: refBuild.entry,
        env,
      });
      sides.unshift(newSide(other, server, true, databaseOf(theirs.databaseUrl)));
      // The same history as the working tree's server, which answered the recording: without it the two differ in
      // what they have read and what V8 has compiled, and an A/A run of PUT page differed by 14 % in CPU per request.
      await apiCases(server.url, PAGES, () => undefined);
    } else {
      // The anchor's table: a SQLite file beside its routes, or a PostgreSQL database of its own (counted apart).
      const routes = writeRoutes(recorded);
      const dir = path.dirname(routes);
      let database: string | undefined;
      if (admin) {
        database = `folio_bench_${process.pid}_anchor`;
        await admin.query(`create database ${database}`);
      }
      stores.push({
        dataDir: dir,
        async drop() {
          fs.rmSync(dir, { recursive: true, force: true });
          if (database) await admin!.query(`drop database if exists ${database} with (force)`);
        },
      });
      const server = await startAnchor(
        routes,
        database ? { databaseUrl: databaseUrlOf(pgUrl, database) } : { sqliteFile: path.join(dir, 'anchor.sqlite') },
      );
      sides.unshift(newSide(other, server, false, database));
    }

    const credentials = adminCredentials();
    const report: Record<string, unknown>[] = [];
    const chosen = selectCases(all, cases).filter((c) => !againstAnchor || c.anchored);
    for (const c of chosen) {
      const run = async (side: Side, s: number) => {
        const headers = await credentials(side.server.url, c.session === true && side.folio);
        const next = side.folio ? c.folio : c.bare;
        return load(side.server.url, next, { connections: 10, seconds: s, headers, serverPid: side.server.pid });
      };
      for (const side of sides) {
        side.cpuUs = [];
        side.rps = [];
        side.requests = 0;
        await run(side, 2);
      }
      const counted = sides.filter((s) => s.database);
      const counts = async () => Promise.all(counted.map((s) => committed(s.database!)));
      // A backend reports its counts at most once a second while busy, and 10 s after it idles (PostgreSQL's
      // PGSTAT_IDLE_INTERVAL): wait for the warm-up's to land, count from here, and wait again at the end.
      const settle = () => (counted.length ? new Promise((resolve) => setTimeout(resolve, 11_000)) : undefined);
      await settle();
      const start = await counts();
      for (let r = 0; r < rounds; r++) {
        for (const side of r % 2 ? [...sides].reverse() : sides) {
          const res = await run(side, seconds);
          if (res.non2xx || res.errors || res.serverCpuUs === undefined) {
            throw new Error(`${c.name} on ${side.label}: ${JSON.stringify(res.statuses)}, ${res.errors} errors`);
          }
          side.cpuUs.push(res.serverCpuUs);
          side.rps.push(res.rps);
          side.requests += res.requests;
        }
      }
      await settle();
      const end = await counts();
      counted.forEach((s, i) => (s.statements = end[i]! - start[i]!));
      const [before, after] = sides.map((s) => ({
        label: s.label,
        cpuUsMedian: median(s.cpuUs),
        cpuUsMin: Math.min(...s.cpuUs),
        rpsMedian: median(s.rps),
        ...(s.database ? { statementsPerRequest: s.statements / s.requests } : {}),
      }));
      const cpuRatio = after!.cpuUsMedian / before!.cpuUsMedian;
      const rpsRatio = after!.rpsMedian / before!.rpsMedian;
      log(`  ${c.name}${c.session ? ' (Folio sent the session cookie)' : ''}`);
      for (const s of [before!, after!]) {
        log(
          `    ${s.label.padEnd(40)} CPU/req median ${s.cpuUsMedian.toFixed(1).padStart(7)} µs ` +
            `(lowest ${s.cpuUsMin.toFixed(1)})  ${Math.round(s.rpsMedian).toLocaleString('en')} req/s` +
            (s.statementsPerRequest !== undefined ? `  ${s.statementsPerRequest.toFixed(2)} statements/req` : ''),
        );
      }
      log(
        `    CPU per request: ${cpuRatio.toFixed(2)}×, req/s: ${rpsRatio.toFixed(2)}× of ${againstAnchor ? 'the anchor' : ref}`,
      );
      report.push({ case: c.name, before, after, cpuRatio, rpsRatio });
    }
    fs.mkdirSync(RESULTS, { recursive: true });
    const file = path.join(
      RESULTS,
      `${new Date().toISOString().slice(0, 10)}-compare-${short}${onPg ? '-pg' : ''}${cacheOff ? '-cache-off' : ''}.tmp`,
    );
    const meta = {
      ref,
      sha,
      head,
      dirty,
      database: onPg ? 'postgres' : 'sqlite',
      cacheOff,
      rounds,
      seconds,
      machine: os.cpus()[0]?.model,
      load: os.loadavg(),
    };
    fs.writeFileSync(file, `${JSON.stringify({ ...meta, cases: report }, null, 2)}\n`);
    log(`Written to ${path.relative(ROOT, file)}`);
  } finally {
    for (const s of sides) await s.server.stop();
    for (const s of stores) await s.drop();
    await admin?.end();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`bench:compare failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
