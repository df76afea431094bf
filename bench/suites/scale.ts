import { LISTING_PAGE } from '../lib/dataset.js';
import { probe, summarise, type LatencyResult, type RequestFactory } from '../lib/load.js';
import { ADMIN_BASIC } from '../lib/paths.js';
import type { RunningProcess } from '../lib/server.js';
import { ASSET_URL, FOLDER_URL, LIST_URL, listingPageUrl, pagePool, pageUrl } from './api.js';

export interface ScaleCase {
  name: string;
  small: LatencyResult;
  large: LatencyResult;
  /** large / small, of the median and of the mean. */
  p50Ratio: number;
  meanRatio: number;
}

export interface ScaleResult {
  smallPages: number;
  largePages: number;
  samplesPerSide: number;
  cases: ScaleCase[];
  /** Listing page 2,000 against page 1 on each dataset (median latency). */
  listingRatio: { small: number; large: number };
  /** Environment the two servers ran with beyond the defaults (the response cache off). */
  env?: Record<string, string>;
}

/**
 * Unloaded latency (sequential requests on one keep-alive connection, high-resolution timers) of the same GETs
 * on two servers, one with `smallPages` and one with `largePages` pages, measured in alternating rounds so that
 * background load hits both alike. Pages are drawn at random from the whole of each dataset.
 */
export async function scaleSuite(
  small: { server: RunningProcess; pages: number },
  large: { server: RunningProcess; pages: number },
  opts: { rounds: number; perRound: number; env?: Record<string, string> },
  log: (line: string) => void,
): Promise<ScaleResult> {
  const headers = { authorization: ADMIN_BASIC };
  const sides = await Promise.all(
    [small, large].map(async (s) => {
      const pool = pagePool(s.pages, 1000, 11).map(pageUrl);
      return { ...s, pool, listing: await listingPageUrl(s.server.url) };
    }),
  );
  const cases: { name: string; next: (side: (typeof sides)[number]) => RequestFactory }[] = [
    {
      name: 'GET page',
      next: (s) => () => ({ method: 'GET', path: s.pool[Math.floor(Math.random() * s.pool.length)]! }),
    },
    { name: 'GET folder (100 children)', next: () => () => ({ method: 'GET', path: FOLDER_URL }) },
    { name: 'GET asset metadata', next: () => () => ({ method: 'GET', path: ASSET_URL }) },
    { name: 'asset listing page 1', next: () => () => ({ method: 'GET', path: LIST_URL }) },
    {
      name: `asset listing page ${LISTING_PAGE.toLocaleString('en')}`,
      next: (s) => () => ({ method: 'GET', path: s.listing }),
    },
  ];
  const out: ScaleCase[] = [];
  for (const c of cases) {
    const times: number[][] = [[], []];
    for (const s of sides) await probe(s.server.url, c.next(s), { count: 0, warmup: 100, headers });
    for (let r = 0; r < opts.rounds; r++) {
      for (const [i, s] of sides.entries()) {
        times[i]!.push(...(await probe(s.server.url, c.next(s), { count: opts.perRound, headers })));
      }
    }
    const [a, b] = times.map(summarise) as [LatencyResult, LatencyResult];
    const res = { name: c.name, small: a, large: b, p50Ratio: b.p50 / a.p50, meanRatio: b.mean / a.mean };
    out.push(res);
    log(
      `  ${c.name.padEnd(28)} ${small.pages}: p50 ${a.p50.toFixed(2)} ms  ${large.pages}: p50 ${b.p50.toFixed(2)} ms` +
        `  ratio ${res.p50Ratio.toFixed(2)} (mean ${res.meanRatio.toFixed(2)})`,
    );
  }
  const p1 = out.find((c) => c.name === 'asset listing page 1')!;
  const p2000 = out[out.length - 1]!;
  return {
    smallPages: small.pages,
    largePages: large.pages,
    samplesPerSide: opts.rounds * opts.perRound,
    cases: out,
    listingRatio: { small: p2000.small.p50 / p1.small.p50, large: p2000.large.p50 / p1.large.p50 },
    ...(opts.env ? { env: opts.env } : {}),
  };
}
