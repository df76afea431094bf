import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { ADMIN_PASSWORD, BUILD, ROOT, SERVER_ENTRY, WEB_DIR } from './paths.js';

/** `BENCH_PORTS=8100-8199`: the servers' ports come from this range only (a shared machine's rule). */
const PORT_RANGE = /^(\d+)-(\d+)$/.exec(process.env.BENCH_PORTS ?? '');
let nextInRange = PORT_RANGE ? Number(PORT_RANGE[1]) : 0;

const listensOn = (port: number) =>
  new Promise<number>((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(port, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });

/** A port nobody listens on right now (round the range of `BENCH_PORTS` when set). */
export async function freePort(): Promise<number> {
  if (!PORT_RANGE) return listensOn(0);
  const [low, high] = [Number(PORT_RANGE[1]), Number(PORT_RANGE[2])];
  for (let tries = 0; tries <= high - low; tries++) {
    const port = nextInRange;
    nextInRange = port >= high ? low : port + 1;
    try {
      return await listensOn(port);
    } catch {
      // Taken: the next one.
    }
  }
  throw new Error(`No free port in BENCH_PORTS=${process.env.BENCH_PORTS}`);
}

export interface RunningProcess {
  child: ChildProcess;
  pid: number;
  port: number;
  url: string;
  /** The last output lines (for failure messages). */
  output(): string;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves when the process is gone. */
  stop(graceMs?: number): Promise<void>;
  /** SIGKILL; resolves when the process is gone. */
  kill9(): Promise<void>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Every process started through this module, so an interrupted run still stops them. */
const live = new Set<ChildProcess>();
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    for (const c of live) c.kill('SIGKILL');
    process.exit(130);
  });
}
process.once('exit', () => {
  for (const c of live) c.kill('SIGKILL');
});

/** Spawns `node <args>` and waits until `readyUrl` answers 200. */
export async function spawnNode(
  args: string[],
  opts: { env?: Record<string, string>; port: number; readyPath?: string; timeoutMs?: number },
): Promise<RunningProcess> {
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  live.add(child);
  let out = '';
  const keep = (chunk: Buffer) => {
    out = (out + chunk.toString()).slice(-16_000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => {
      live.delete(child);
      resolve({ code, signal });
    });
  });
  const url = `http://127.0.0.1:${opts.port}`;
  const proc: RunningProcess = {
    child,
    pid: child.pid!,
    port: opts.port,
    url,
    output: () => out,
    exited,
    async stop(graceMs = 10_000) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
    async kill9() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGKILL');
      await exited;
    },
  };
  const deadline = Date.now() + (opts.timeoutMs ?? 60_000);
  let dead = false;
  void exited.then(() => {
    dead = true;
  });
  for (;;) {
    if (dead) throw new Error(`process exited before it was ready:\n${out}`);
    try {
      const res = await fetch(`${url}${opts.readyPath ?? '/healthz'}`);
      await res.arrayBuffer();
      if (res.ok) return proc;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await proc.kill9();
      throw new Error(`process did not become ready in time:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Starts a baseline server (bench/lib/bare-server.ts; see its header for the modes) on a free port, with `args`
 * after `--port`, and node started with `nodeFlags`.
 */
export async function startBareServer(args: string[], nodeFlags: string[] = []): Promise<RunningProcess> {
  const port = await freePort();
  return spawnNode(
    [...nodeFlags, '--import', 'tsx', path.join(ROOT, 'bench/lib/bare-server.ts'), '--port', String(port), ...args],
    { port },
  );
}

export interface FolioServerOptions {
  dataDir: string;
  port?: number;
  /** `postgres://…` to run on PostgreSQL. */
  databaseUrl?: string;
  env?: Record<string, string>;
  /** The server's main.js; the build in bench/.cache/build when absent. */
  entry?: string;
}

/**
 * The `node` flags the server is shipped with: those of package.json's `serve` script, which `start` must repeat
 * (checked here, so the two cannot drift apart). `--initial-old-space-size=128` keeps V8 from sizing the old
 * generation to the small idle heap, after which streaming file buffers triggers mark-compact after mark-compact.
 */
export function shippedNodeFlags(): string[] {
  const scripts = (
    JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
  ).scripts;
  const flagsOf = (name: string) => {
    const m = /(?:^|&&\s*)node((?:\s+--\S+)*)\s+dist-server\/server\/main\.js/.exec(scripts[name] ?? '');
    if (!m) throw new Error(`package.json script "${name}" does not start node dist-server/server/main.js`);
    return m[1]!.trim().split(/\s+/).filter(Boolean);
  };
  const serve = flagsOf('serve');
  if (flagsOf('start').join(' ') !== serve.join(' ')) {
    throw new Error('package.json: "start" and "serve" start node with different flags');
  }
  return serve;
}

/**
 * Starts the built Folio server (bench/.cache/build) on `dataDir` as `npm run serve` starts it (same node flags):
 * no seed, logs as configured by default (LOG_LEVEL unset), a free port.
 */
export async function startFolio(opts: FolioServerOptions): Promise<RunningProcess> {
  const entry = opts.entry ?? SERVER_ENTRY;
  if (!fs.existsSync(entry)) throw new Error(`The server is not built (${entry}): call buildServer() first.`);
  const port = opts.port ?? (await freePort());
  return spawnNode([...shippedNodeFlags(), entry], {
    port,
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      CMS_DATA_DIR: opts.dataDir,
      CMS_SEED: 'false',
      CMS_ADMIN_PASSWORD: ADMIN_PASSWORD,
      CMS_WEB_DIR: WEB_DIR,
      ...(opts.databaseUrl ? { DATABASE_URL: opts.databaseUrl } : { DATABASE_URL: '' }),
      ...opts.env,
    },
  });
}

const CLOCK_TICKS_PER_S = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** User + system CPU time of a process so far, in microseconds (null without /proc or once it is gone). */
export function cpuTimeUs(pid: number): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // After "pid (comm) ": field 3 (state) is index 0, so utime (14) and stime (15) are 11 and 12.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1e6) / CLOCK_TICKS_PER_S;
  } catch {
    return null;
  }
}

/** Resident and peak resident memory of a process, in bytes (Linux /proc). */
export function memoryOf(pid: number): { rss: number; hwm: number } | null {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) * 1024;
    return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
  } catch {
    return null;
  }
}

/** Samples a process's RSS every `everyMs` until stopped; answers the peak seen and VmHWM. */
export function sampleMemory(pid: number, everyMs = 20) {
  let peak = memoryOf(pid)?.rss ?? 0;
  const timer = setInterval(() => {
    const m = memoryOf(pid);
    if (m && m.rss > peak) peak = m.rss;
  }, everyMs);
  return {
    stop() {
      clearInterval(timer);
      const m = memoryOf(pid);
      return { peakRss: Math.max(peak, m?.rss ?? 0), hwm: m?.hwm ?? 0 };
    },
  };
}

function run(cmd: string, args: string[], label: string) {
  const t = Date.now();
  const r = spawnSync(cmd, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${label} failed:\n${r.stdout}\n${r.stderr}`);
  return Date.now() - t;
}

/**
 * Compiles the server into bench/.cache/build/server (not dist-server/, which other work rebuilds at any time):
 * the suites restart the server many times and must run one and the same build.
 */
export function buildServer(): void {
  compileServer(ROOT, path.join(BUILD, 'server'));
}

/**
 * Compiles the server of the source tree at `root` (its tsconfig.server.json) into `outDir`, with this
 * repository's TypeScript; answers the path of its main.js.
 */
export function compileServer(root: string, outDir: string): string {
  fs.rmSync(outDir, { recursive: true, force: true });
  // tsc emits even with type errors elsewhere in the tree; the suites test what it emits.
  spawnSync(
    process.execPath,
    [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.server.json', '--outDir', outDir],
    { cwd: root, stdio: 'ignore' },
  );
  const entry = path.join(outDir, 'server/main.js');
  if (!fs.existsSync(entry)) throw new Error(`tsc produced no server build from ${root}`);
  return entry;
}

/** Builds the SPA into bench/.cache/build/web (with its manifest); answers the build time in ms. */
export function buildWeb(): number {
  return run(
    process.execPath,
    [
      path.join(ROOT, 'node_modules/vite/bin/vite.js'),
      'build',
      '--outDir',
      WEB_DIR,
      '--emptyOutDir',
      '--logLevel',
      'warn',
    ],
    'vite build',
  );
}
