import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ADMIN_BASIC } from '../lib/paths.js';
import { memoryOf, startFolio } from '../lib/server.js';

const MiB = 1024 * 1024;

export interface EventsResult {
  database: 'sqlite' | 'postgres';
  streams: number;
  writes: number;
  /** Server RSS with no stream open (after warm-up), with every stream open, and after a burst of writes. */
  rssIdle: number;
  rssOpen: number;
  rssAfterWrites: number;
  /** (rssOpen - rssIdle) / streams, in bytes. */
  bytesPerStream: number;
  /** PUT page latency (ms, p50/p95) with no stream open, and with every stream open. */
  putNoStreams: { p50: number; p95: number };
  putWithStreams: { p50: number; p95: number };
  /** putWithStreams.p50 / putNoStreams.p50. */
  putRatio: number;
  /** From a PUT's answer to its event on the last of the streams (ms). */
  deliveryP50: number;
  deliveryP95: number;
  /** Events each stream was missing at the end (must be 0). */
  missing: number;
}

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN;
};

/** One open `GET /cms/rest/events`: the arrival time of each change, by path. */
function openStream(url: string) {
  const controller = new AbortController();
  const arrivals = new Map<string, number>();
  const ready = (async () => {
    const res = await fetch(`${url}/cms/rest/events`, {
      headers: { authorization: ADMIN_BASIC },
      signal: controller.signal,
    });
    if (res.status !== 200) throw new Error(`events: ${res.status}`);
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    let first = true;
    const done = new Promise<void>((resolve) => {
      void (async () => {
        try {
          for (;;) {
            const { done: end, value } = await reader.read();
            if (end) break;
            buffer += decoder.decode(value, { stream: true });
            let cut: number;
            while ((cut = buffer.indexOf('\n\n')) >= 0) {
              const frame = buffer.slice(0, cut);
              buffer = buffer.slice(cut + 2);
              if (first) {
                first = false;
                resolve();
              }
              const data = /^data: (.*)$/m.exec(frame)?.[1];
              if (/^event: change$/m.test(frame) && data) {
                const p = (JSON.parse(data) as { path: string }).path;
                if (!arrivals.has(p)) arrivals.set(p, performance.now());
              }
            }
          }
        } catch {
          // aborted at the end
        }
        resolve();
      })();
    });
    await done;
  })();
  return { ready, arrivals, close: () => controller.abort() };
}

async function put(url: string, p: string, body: unknown): Promise<number> {
  const t = performance.now();
  const res = await fetch(`${url}/cms/rest/pages/by-path/${p}`, {
    method: 'PUT',
    headers: { authorization: ADMIN_BASIC, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  await res.arrayBuffer();
  if (res.status !== 200 && res.status !== 201) throw new Error(`PUT ${p}: ${res.status}`);
  return performance.now() - t;
}

/**
 * Live events at scale on one node as shipped (issue 41): memory per open stream, what `streams` open streams
 * cost a write, and how long an event takes to reach the last of them. Writes are sequential (one client), so
 * the latencies are the fan-out's, not a queue's.
 */
export async function eventsSuite(
  opts: { streams: number; writes: number; databaseUrl?: string },
  log: (line: string) => void,
): Promise<EventsResult> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-bench-events-'));
  const server = await startFolio({ dataDir, databaseUrl: opts.databaseUrl, env: { CMS_SEED: 'true' } });
  const streams: ReturnType<typeof openStream>[] = [];
  try {
    const url = server.url;
    const body = (n: number) => ({ templateName: 'article', displayName: `Event bench ${n}` });
    // Warm-up: the routes compiled, the pages exist (every later write is a change, not a create).
    for (let i = 0; i < opts.writes; i++) await put(url, `demo/articles/ev-${i}`, body(-1));
    const putNoStreams: number[] = [];
    for (let i = 0; i < opts.writes; i++) putNoStreams.push(await put(url, `demo/articles/ev-${i}`, body(0)));
    await new Promise((r) => setTimeout(r, 500));
    const rssIdle = memoryOf(server.pid)?.rss ?? 0;

    for (let i = 0; i < opts.streams; i++) streams.push(openStream(url));
    await Promise.all(streams.map((s) => s.ready));
    await new Promise((r) => setTimeout(r, 500));
    const rssOpen = memoryOf(server.pid)?.rss ?? 0;

    const putWithStreams: number[] = [];
    const answered = new Map<string, number>();
    for (let i = 0; i < opts.writes; i++) {
      const p = `demo/articles/ev-${i}`;
      putWithStreams.push(await put(url, p, body(1)));
      answered.set(p, performance.now());
    }
    // Every stream gets every event (bounded wait; what is missing is reported).
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline && !streams.every((s) => [...answered.keys()].every((p) => s.arrivals.has(p)))) {
      await new Promise((r) => setTimeout(r, 50));
    }
    const rssAfterWrites = memoryOf(server.pid)?.rss ?? 0;
    let missing = 0;
    const delivery: number[] = [];
    for (const [p, at] of answered) {
      let last = 0;
      for (const s of streams) {
        const t = s.arrivals.get(p);
        if (t === undefined) missing++;
        else last = Math.max(last, t - at);
      }
      delivery.push(Math.max(0, last));
    }
    const result: EventsResult = {
      database: opts.databaseUrl ? 'postgres' : 'sqlite',
      streams: opts.streams,
      writes: opts.writes,
      rssIdle,
      rssOpen,
      rssAfterWrites,
      bytesPerStream: Math.round((rssOpen - rssIdle) / opts.streams),
      putNoStreams: { p50: quantile(putNoStreams, 0.5), p95: quantile(putNoStreams, 0.95) },
      putWithStreams: { p50: quantile(putWithStreams, 0.5), p95: quantile(putWithStreams, 0.95) },
      putRatio: quantile(putWithStreams, 0.5) / quantile(putNoStreams, 0.5),
      deliveryP50: quantile(delivery, 0.5),
      deliveryP95: quantile(delivery, 0.95),
      missing,
    };
    log(
      `  ${opts.streams} streams: RSS ${(rssIdle / MiB).toFixed(1)} → ${(rssOpen / MiB).toFixed(1)} MiB ` +
        `(${(result.bytesPerStream / 1024).toFixed(1)} KiB a stream), ${(rssAfterWrites / MiB).toFixed(1)} MiB after ` +
        `${opts.writes} writes; PUT p50 ${result.putNoStreams.p50.toFixed(1)} → ${result.putWithStreams.p50.toFixed(1)} ms ` +
        `(${result.putRatio.toFixed(2)}×); answer → event on the last stream p50 ${result.deliveryP50.toFixed(0)} ms, ` +
        `p95 ${result.deliveryP95.toFixed(0)} ms; ${missing} missing`,
    );
    return result;
  } finally {
    for (const s of streams) s.close();
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
