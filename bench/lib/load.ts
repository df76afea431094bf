import http from 'node:http';
import { createRequire } from 'node:module';
import { cpuTimeUs } from './server.js';

// autocannon ships no types; this is the slice of its programmatic API the benchmarks use.
interface AutocannonResult {
  duration: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  '2xx': number;
  statusCodeStats: Record<string, { count: number }>;
  latency: { average: number; p50: number; p90: number; p99: number; max: number; totalCount: number };
  requests: { total: number; average: number; sent: number };
}
interface AutocannonRequest {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string;
  setupRequest?: (req: AutocannonRequest) => AutocannonRequest;
}
type Autocannon = (opts: {
  url: string;
  connections: number;
  duration: number;
  pipelining?: number;
  headers?: Record<string, string>;
  requests?: AutocannonRequest[];
}) => Promise<AutocannonResult>;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

/** What one request of a load test sends; called for every request. */
export type RequestFactory = () => {
  method: 'GET' | 'PUT';
  path: string;
  body?: string;
  headers?: Record<string, string>;
};

export interface LoadResult {
  /** Completed requests per second over the whole run. */
  rps: number;
  /** Milliseconds (autocannon's histogram has whole-millisecond buckets). */
  p50: number;
  p99: number;
  mean: number;
  requests: number;
  /** Responses that were not 2xx, and connection errors/timeouts: a valid run has none. */
  non2xx: number;
  errors: number;
  statuses: Record<string, number>;
  /**
   * CPU time (user + system) per completed request, in microseconds: of the server process (from /proc, when
   * its pid is given) and of this process, the load generator. Unlike req/s, these hardly move when a neighbour
   * takes CPU time, so they tell what a request costs the server apart from what the shared machine allowed.
   */
  serverCpuUs?: number;
  clientCpuUs?: number;
}

/** Load test with autocannon: `connections` keep-alive connections for `seconds`. */
export async function load(
  baseUrl: string,
  next: RequestFactory,
  opts: { connections: number; seconds: number; headers?: Record<string, string>; serverPid?: number },
): Promise<LoadResult> {
  const serverBefore = opts.serverPid ? cpuTimeUs(opts.serverPid) : null;
  const clientBefore = process.cpuUsage();
  const r = await autocannon({
    url: baseUrl,
    connections: opts.connections,
    duration: opts.seconds,
    headers: opts.headers,
    requests: [
      {
        setupRequest: (req) => {
          const n = next();
          return {
            ...req,
            method: n.method,
            path: n.path,
            body: n.body,
            headers: { ...req.headers, ...(n.body ? { 'content-type': 'application/json' } : {}), ...n.headers },
          };
        },
      },
    ],
  });
  const client = process.cpuUsage(clientBefore);
  const serverAfter = opts.serverPid ? cpuTimeUs(opts.serverPid) : null;
  const completed = Math.max(1, r.latency.totalCount);
  const statuses = Object.fromEntries(Object.entries(r.statusCodeStats).map(([k, v]) => [k, v.count]));
  return {
    ...(serverBefore !== null && serverAfter !== null ? { serverCpuUs: (serverAfter - serverBefore) / completed } : {}),
    clientCpuUs: (client.user + client.system) / completed,
    rps: r.latency.totalCount / r.duration,
    p50: r.latency.p50,
    p99: r.latency.p99,
    mean: r.latency.average,
    requests: r.latency.totalCount,
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
    statuses,
  };
}

export interface LatencyResult {
  /** Milliseconds, from high-resolution timers. */
  p50: number;
  p90: number;
  p99: number;
  mean: number;
  samples: number;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

/** One request on a keep-alive connection; answers the status and the milliseconds to the last byte. */
export function timedRequest(
  baseUrl: string,
  req: { method: string; path: string; headers?: Record<string, string>; body?: string },
): Promise<{ status: number; ms: number; body: string }> {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const r = http.request(`${baseUrl}${req.path}`, { method: req.method, headers: req.headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          ms: Number(process.hrtime.bigint() - t0) / 1e6,
          body: Buffer.concat(chunks).toString('utf8'),
        }),
      );
      res.on('error', reject);
    });
    r.on('error', reject);
    r.end(req.body);
  });
}

/** Percentiles of a list of milliseconds. */
/** The median (the mean of the two middle values for an even count). */
export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

export function summarise(ms: number[]): LatencyResult {
  const s = [...ms].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? 0;
  return {
    p50: at(0.5),
    p90: at(0.9),
    p99: at(0.99),
    mean: s.reduce((a, b) => a + b, 0) / Math.max(1, s.length),
    samples: s.length,
  };
}

/** Unloaded latency: `count` sequential requests on one connection (after `warmup` unmeasured ones). */
export async function probe(
  baseUrl: string,
  next: RequestFactory,
  opts: { count: number; warmup?: number; headers?: Record<string, string> },
): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < (opts.warmup ?? 0) + opts.count; i++) {
    const n = next();
    const r = await timedRequest(baseUrl, { ...n, headers: { ...opts.headers, ...n.headers } });
    if (r.status >= 300) throw new Error(`${n.method} ${n.path} → ${r.status}: ${r.body.slice(0, 300)}`);
    if (i >= (opts.warmup ?? 0)) times.push(r.ms);
  }
  return times;
}
