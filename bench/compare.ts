/**
 * `npm run bench:compare -- <ref>`: the server at a git ref (commit, branch, tag) against the working tree, in one
 * run on one machine: what a change did to the cost of each API request.
 *
 *   npm run bench:compare -- HEAD~1                            every API case, response cache on (as shipped)
 *   npm run bench:compare -- main --cases "asset metadata",put   some cases (by name)
 *   npm run bench:compare -- HEAD~1 --cache-off                every request computed
 *   npm run bench:compare -- HEAD~1 --rounds 40 --seconds 2    more, or longer, rounds
 *
 * Both servers are built (the ref from `git archive`, with this checkout's node_modules) and started side by side
 * on copies of the 1,000-page dataset. Each case runs in many short rounds that alternate between the two, the
 * order flipped every round, so a neighbour's load lands on both sides alike; per side it reports the median and
 * the lowest server CPU time per request (from /proc) and the median req/s. Both builds must have the same
 * migrations (they open the same dataset). Figures go to bench/results/<date>-compare-<ref>.tmp, never to the
 * day's results.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { copyDataset, ensureDatasets, migrationsHash } from './lib/dataset.js';
import { load, median } from './lib/load.js';
import { ADMIN_BASIC, CACHE, RESULTS, ROOT } from './lib/paths.js';
import { buildServer, compileServer, startFolio, type RunningProcess } from './lib/server.js';
import { apiCases, selectCases, UNCACHED_ENV } from './suites/api.js';

const argv = process.argv.slice(2);
const valueOf = (flag: string) => {
  const i = argv.indexOf(flag);
  return i >= 0 ? argv[i + 1] : undefined;
};
const ref = argv[0];
if (!ref || ref.startsWith('--')) {
  process.stderr.write(
    'usage: npm run bench:compare -- <git ref> [--cases a,b] [--cache-off] [--rounds N] [--seconds S]\n',
  );
  process.exit(2);
}
const cases = valueOf('--cases')?.split(',');
const cacheOff = argv.includes('--cache-off');
const rounds = Number(valueOf('--rounds') ?? 20);
const seconds = Number(valueOf('--seconds') ?? 2);
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
  dataDir: string;
  cpuUs: number[];
  rps: number[];
}

async function main() {
  const sha = git('rev-parse', '--verify', `${ref}^{commit}`);
  const short = sha.slice(0, 7);
  const dirty = git('status', '--porcelain', '--untracked-files=no') !== '';
  const head = git('rev-parse', '--short', 'HEAD');
  const current = `working tree (${head}${dirty ? ' + changes' : ''})`;
  log(`Compare ${ref} (${short}) with the ${current}, response cache ${cacheOff ? 'off' : 'on'}`);

  log('Building both servers …');
  buildServer();
  const refBuild = buildRef(sha);
  if (migrationsHash(refBuild.tree) !== migrationsHash(ROOT)) {
    throw new Error(`${ref} has other migrations than the working tree: the two cannot open the same dataset`);
  }
  const dataset = ensureDatasets([PAGES])[PAGES]!;

  const env = cacheOff ? UNCACHED_ENV : undefined;
  const sides: Side[] = [];
  try {
    for (const [label, entry] of [
      [`${ref} (${short})`, refBuild.entry],
      [current, undefined],
    ] as const) {
      const dataDir = copyDataset(dataset);
      sides.push({ label, dataDir, server: await startFolio({ dataDir, entry, env }), cpuUs: [], rps: [] });
    }
    const { cases: all } = await apiCases(sides[0]!.server.url, PAGES, log);
    const report: Record<string, unknown>[] = [];
    for (const c of selectCases(all, cases)) {
      const run = (side: Side, s: number) =>
        load(side.server.url, c.folio, {
          connections: 10,
          seconds: s,
          headers: { authorization: ADMIN_BASIC },
          serverPid: side.server.pid,
        });
      for (const side of sides) {
        side.cpuUs = [];
        side.rps = [];
        await run(side, 2);
      }
      for (let r = 0; r < rounds; r++) {
        for (const side of r % 2 ? [...sides].reverse() : sides) {
          const res = await run(side, seconds);
          if (res.non2xx || res.errors || res.serverCpuUs === undefined) {
            throw new Error(`${c.name} on ${side.label}: ${JSON.stringify(res.statuses)}, ${res.errors} errors`);
          }
          side.cpuUs.push(res.serverCpuUs);
          side.rps.push(res.rps);
        }
      }
      const [before, after] = sides.map((s) => ({
        label: s.label,
        cpuUsMedian: median(s.cpuUs),
        cpuUsMin: Math.min(...s.cpuUs),
        rpsMedian: median(s.rps),
      }));
      const ratio = after!.cpuUsMedian / before!.cpuUsMedian;
      log(`  ${c.name}`);
      for (const s of [before!, after!]) {
        log(
          `    ${s.label.padEnd(40)} CPU/req median ${s.cpuUsMedian.toFixed(1).padStart(7)} µs ` +
            `(lowest ${s.cpuUsMin.toFixed(1)})  ${Math.round(s.rpsMedian).toLocaleString('en')} req/s`,
        );
      }
      log(`    CPU per request: ${ratio.toFixed(2)}× of ${ref}`);
      report.push({ case: c.name, before, after, cpuRatio: ratio });
    }
    fs.mkdirSync(RESULTS, { recursive: true });
    const file = path.join(
      RESULTS,
      `${new Date().toISOString().slice(0, 10)}-compare-${short}${cacheOff ? '-cache-off' : ''}.tmp`,
    );
    const meta = { ref, sha, head, dirty, cacheOff, rounds, seconds, machine: os.cpus()[0]?.model, load: os.loadavg() };
    fs.writeFileSync(file, `${JSON.stringify({ ...meta, cases: report }, null, 2)}\n`);
    log(`Written to ${path.relative(ROOT, file)}`);
  } finally {
    for (const s of sides) {
      await s.server.stop();
      fs.rmSync(s.dataDir, { recursive: true, force: true });
    }
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`bench:compare failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
