import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  FULL_FOLDER,
  IMAGE_ASSET,
  LISTING_FOLDER,
  LISTING_ASSETS,
  LISTING_PAGE,
  LISTING_PAGE_SIZE,
  listingAssetName,
  pageSegments,
  SECTIONS,
  sectionSegments,
  TEMPLATE,
} from '../lib/dataset.js';
import type { RecordedResponse } from '../lib/bare-server.js';
import {
  load,
  median,
  probe,
  summarise,
  timedRequest,
  type LatencyResult,
  type LoadResult,
  type RequestFactory,
} from '../lib/load.js';
import { ADMIN_BASIC, ADMIN_PASSWORD } from '../lib/paths.js';
import { startBareServer, type RunningProcess } from '../lib/server.js';

const enc = (segments: readonly string[]) => segments.map(encodeURIComponent).join('/');
export const pageUrl = (i: number) => `/cms/rest/pages/by-path/${enc(pageSegments(i))}`;
export const FOLDER_URL = `/cms/rest/folders/by-path/${enc(FULL_FOLDER)}`;
export const ASSET_URL = `/cms/rest/assets/by-path/${enc(IMAGE_ASSET)}`;
export const LIST_URL = `/cms/rest/assets/list/${enc(LISTING_FOLDER)}`;

/** The case where every client writes one and the same page (the anchor: one UPDATE of one row). */
export const HOT_PAGE_CASE = 'PUT hot page, 10 clients';

/** A deterministic pseudo-random sequence (the same pool of pages in every run). */
export function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** `count` distinct page indexes spread over the whole dataset. */
export function pagePool(pages: number, count: number, seed = 7): number[] {
  const next = rng(seed);
  const picked = new Set<number>();
  while (picked.size < Math.min(count, pages)) picked.add(Math.floor(next() * pages));
  return [...picked];
}

/**
 * The URL of listing page LISTING_PAGE (at the default page size), found by following `nextCursor` the way a
 * client does (in pages of 200, which end on the same item, so far fewer requests).
 */
export async function listingPageUrl(baseUrl: string): Promise<string> {
  const before = (LISTING_PAGE - 1) * LISTING_PAGE_SIZE;
  let seen = 0;
  let cursor: string | null = null;
  while (seen < before) {
    const limit = before - seen >= 200 ? 200 : LISTING_PAGE_SIZE;
    const q: string = `?limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`;
    const r = await timedRequest(baseUrl, {
      method: 'GET',
      path: `${LIST_URL}${q}`,
      headers: { authorization: ADMIN_BASIC },
    });
    if (r.status !== 200) throw new Error(`listing → ${r.status}: ${r.body}`);
    const body = JSON.parse(r.body) as { items: unknown[]; nextCursor: string | null };
    seen += body.items.length;
    cursor = body.nextCursor;
    if (!cursor) throw new Error(`the listing ended after ${seen} assets`);
  }
  const url = `${LIST_URL}?cursor=${cursor}`;
  const r = await timedRequest(baseUrl, { method: 'GET', path: url, headers: { authorization: ADMIN_BASIC } });
  const first = (JSON.parse(r.body) as { items: { name: string }[] }).items[0]?.name;
  if (first !== listingAssetName(before))
    throw new Error(`page ${LISTING_PAGE} starts at ${first}, not ${listingAssetName(before)}`);
  return url;
}

export interface CaseResult {
  name: string;
  /** Bytes of one response body (the first, for pools). */
  responseBytes: number;
  folio: LoadResult;
  bare: LoadResult;
  /** folio.rps / bare.rps */
  ratio: number;
  /**
   * Server CPU time per request, the median over the rounds of each side, and bareUs / folioUs: the req/s
   * ratio the server's own work allows on its own core (the load generator shares the machine).
   */
  cpu?: { folioUs: number; bareUs: number; ratio: number };
  rounds: { folio: LoadResult; bare: LoadResult }[];
  /**
   * The database anchor (cases that read or write one row): the same bytes from one indexed SELECT, or one
   * committed UPDATE after parsing the same body, on the same engine (bench/lib/bare-server.ts --mode sqlite|
   * postgres); its best round, and folio.rps / anchor.rps.
   */
  anchor?: LoadResult;
  anchorRatio?: number;
  /** Cases with their own latency goal: Folio's latency one request at a time (see ApiCase.sequential). */
  sequential?: LatencyResult & { p95: number };
}

/** The `cpu` figures of a case, when every round has the server's CPU time. */
function cpuOf(folio: LoadResult[], bare: LoadResult[]): Pick<CaseResult, 'cpu'> {
  const f = folio.map((r) => r.serverCpuUs);
  const b = bare.map((r) => r.serverCpuUs);
  if (!f.every((x) => x !== undefined) || !b.every((x) => x !== undefined)) return {};
  const folioUs = median(f as number[]);
  const bareUs = median(b as number[]);
  return { cpu: { folioUs, bareUs, ratio: bareUs / folioUs } };
}

export interface ApiSuiteResult {
  database: 'sqlite' | 'postgres';
  pages: number;
  connections: number;
  secondsPerRound: number;
  rounds: number;
  /** The server as shipped (response cache on). */
  cases: CaseResult[];
  /**
   * The same cases on a second server with the response cache off (`CMS_RESPONSE_CACHE=off`: every request
   * computed), measured in the same alternating rounds against the same bare route.
   */
  uncached?: { env: Record<string, string>; cases: CaseResult[] };
}

/** The environment of the cache-off server of the API suite. */
export const UNCACHED_ENV = { CMS_RESPONSE_CACHE: 'off' };

/** One request kind of the API suite: what Folio is sent, what the bare route is sent. */
export interface ApiCase {
  name: string;
  folio: RequestFactory;
  bare: RequestFactory;
  responseBytes: number;
  /** Folio is sent the admin's session cookie (signed in on each server) instead of HTTP Basic: the app's path. */
  session?: boolean;
  /** One row read or written: also measured against the database anchor. */
  anchored?: boolean;
  /** Also this many requests one at a time (after the rounds): a goal set on unloaded latency (search). */
  sequential?: number;
}

/** Where the database anchor keeps its table: a SQLite file, or the PostgreSQL database of the run. */
export type AnchorDatabase = { sqliteFile: string } | { databaseUrl: string };

/** `recorded` in a routes file of its own for the baselines (bench/lib/bare-server.ts); remove its folder when done. */
export function writeRoutes(recorded: RecordedResponse[]): string {
  const routesFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'folio-bench-bare-')), 'routes.json');
  fs.writeFileSync(routesFile, JSON.stringify(recorded));
  return routesFile;
}

/** The database anchor: the answers of `routesFile`, each a row of a table in `anchor`. */
export function startAnchor(routesFile: string, anchor: AnchorDatabase): Promise<RunningProcess> {
  return startBareServer(
    'sqliteFile' in anchor
      ? ['--mode', 'sqlite', '--routes', routesFile, '--db', anchor.sqliteFile]
      : ['--mode', 'postgres', '--routes', routesFile, '--database-url', anchor.databaseUrl],
  );
}

/**
 * The admin's credentials for a server at a URL: its session cookie when `session` (signed in once per URL and
 * kept), HTTP Basic otherwise (the baselines take Basic whatever the case).
 */
export function adminCredentials(): (url: string, session: boolean) => Promise<Record<string, string>> {
  const cookies = new Map<string, string>();
  return async (url, session): Promise<Record<string, string>> => {
    if (!session) return { authorization: ADMIN_BASIC };
    if (!cookies.has(url)) cookies.set(url, await sessionCookie(url));
    return { cookie: cookies.get(url)! };
  };
}

/** Signs the admin in on `url` and answers the session cookie (`folio_session=…`). */
async function sessionCookie(url: string): Promise<string> {
  const r = await fetch(`${url}/cms/rest/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
  });
  if (r.status !== 200) throw new Error(`sign-in on ${url} → ${r.status}: ${await r.text()}`);
  const cookie = r.headers.getSetCookie().find((c) => c.startsWith('folio_session='));
  if (!cookie) throw new Error(`sign-in on ${url} set no session cookie`);
  return cookie.split(';')[0]!;
}

/**
 * The API cases against a running Folio on a generated dataset of `pages` pages, and Folio's answers to each URL
 * (for the bare route to serve). GET page draws from 200 pages; PUT page changes display names only.
 */
export async function apiCases(
  folioUrl: string,
  pages: number,
  log: (line: string) => void,
): Promise<{ cases: ApiCase[]; recorded: RecordedResponse[] }> {
  const auth = { authorization: ADMIN_BASIC };
  const get = async (url: string) => {
    const r = await fetch(`${folioUrl}${url}`, { headers: auth });
    const body = await r.text();
    if (r.status !== 200) throw new Error(`GET ${url} → ${r.status}: ${body.slice(0, 300)}`);
    return { body, etag: r.headers.get('etag') ?? undefined, contentType: r.headers.get('content-type')! };
  };

  const pool = pagePool(pages, 200).map(pageUrl);
  const listing2000 = await listingPageUrl(folioUrl);
  const recorded: RecordedResponse[] = [];
  const record = async (url: string, method: 'GET' | 'PUT' = 'GET') => {
    const r = await get(url);
    recorded.push({ method, url, ...r });
    return Buffer.byteLength(r.body);
  };
  const pageBytes: number[] = [];
  for (const url of pool) {
    pageBytes.push(await record(url));
    await record(url, 'PUT');
  }
  const min = Math.min(...pageBytes);
  const max = Math.max(...pageBytes);
  log(`  pages of ${min}–${max} bytes; listing page ${LISTING_PAGE}: ${listing2000.slice(0, 80)}…`);
  // Text assets of the listing folder whose metadata PUT asset metadata changes (a field).
  const assetPool = pagePool(LISTING_ASSETS, 200, 11).map(
    (i) => `/cms/rest/assets/by-path/${enc([...LISTING_FOLDER, listingAssetName(i)])}`,
  );
  let assetPutBytes = 0;
  // GET too: the database anchor keeps a row per URL Folio answered a GET of.
  for (const url of assetPool) assetPutBytes = (await record(url), await record(url, 'PUT'));
  // The sections whose display titles PUT section changes (GET too, as for assets).
  const sectionPool = Array.from(
    { length: SECTIONS },
    (_, i) => `/cms/rest/folders/by-path/${enc(sectionSegments(i))}`,
  );
  let sectionPutBytes = 0;
  for (const url of sectionPool) sectionPutBytes = (await record(url), await record(url, 'PUT'));
  const folderBytes = await record(FOLDER_URL);
  const assetBytes = await record(ASSET_URL);
  const list1Bytes = await record(LIST_URL);
  const list2000Bytes = await record(listing2000);
  const wordUrls = SEARCH_WORDS.map(searchUrl);
  const prefixUrls = SEARCH_PREFIXES.map(searchUrl);
  let searchBytes = 0;
  for (const url of [...wordUrls, ...prefixUrls]) searchBytes = Math.max(searchBytes, await record(url));

  let k = 0;
  const randomPage = () => pool[Math.floor(Math.random() * pool.length)]!;
  const fixed =
    (path: string): RequestFactory =>
    () => ({ method: 'GET', path });
  const putPage: RequestFactory = () => ({
    method: 'PUT',
    path: randomPage(),
    body: JSON.stringify({ templateName: TEMPLATE, displayName: `Edited ${++k}` }),
  });
  const putHotPage: RequestFactory = () => ({
    method: 'PUT',
    path: pool[0]!,
    body: JSON.stringify({ templateName: TEMPLATE, displayName: `Hot edit ${++k}` }),
  });
  let j = 0;
  const putAsset: RequestFactory = () => ({
    method: 'PUT',
    path: assetPool[Math.floor(Math.random() * assetPool.length)]!,
    body: JSON.stringify({ fields: { text: `Edited snippet ${++j}` } }),
  });
  let m = 0;
  const putSection: RequestFactory = () => ({
    method: 'PUT',
    path: sectionPool[Math.floor(Math.random() * sectionPool.length)]!,
    body: JSON.stringify({ sectionInfo: { displayTitle: `Edited section ${++m}` } }),
  });
  const cases: ApiCase[] = [
    {
      name: 'GET page',
      responseBytes: pageBytes[0]!,
      folio: () => ({ method: 'GET', path: randomPage() }),
      bare: () => ({ method: 'GET', path: randomPage() }),
      anchored: true,
    },
    {
      // The same requests as GET page, with the session cookie the admin app sends: compare the two ratios.
      name: 'GET page (session cookie)',
      responseBytes: pageBytes[0]!,
      folio: () => ({ method: 'GET', path: randomPage() }),
      bare: () => ({ method: 'GET', path: randomPage() }),
      session: true,
      anchored: true,
    },
    {
      name: 'GET folder (100 children)',
      responseBytes: folderBytes,
      folio: fixed(FOLDER_URL),
      bare: fixed(FOLDER_URL),
      anchored: true,
    },
    {
      name: 'GET asset metadata',
      responseBytes: assetBytes,
      folio: fixed(ASSET_URL),
      bare: fixed(ASSET_URL),
      anchored: true,
    },
    { name: 'asset listing page 1', responseBytes: list1Bytes, folio: fixed(LIST_URL), bare: fixed(LIST_URL) },
    // Full-text search (GET /cms/rest/search): each request one of the words or prefixes in turn.
    ...(
      [
        [SEARCH_WORD_CASE, wordUrls],
        [SEARCH_PREFIX_CASE, prefixUrls],
      ] as const
    ).map(([name, urls]): ApiCase => {
      let n = 0;
      const next: RequestFactory = () => ({ method: 'GET', path: urls[n++ % urls.length]! });
      return { name, responseBytes: searchBytes, folio: next, bare: next, sequential: 300 };
    }),
    {
      name: `asset listing page ${LISTING_PAGE.toLocaleString('en')}`,
      responseBytes: list2000Bytes,
      folio: fixed(listing2000),
      bare: fixed(listing2000),
    },
    // Last: these change the data (text assets' text; sections' display titles; pages' display names).
    {
      name: 'PUT asset metadata (a field)',
      responseBytes: assetPutBytes,
      folio: putAsset,
      bare: putAsset,
      anchored: true,
    },
    {
      name: 'PUT section (display title)',
      responseBytes: sectionPutBytes,
      folio: putSection,
      bare: putSection,
      anchored: true,
    },
    { name: 'PUT page (small change)', responseBytes: pageBytes[0]!, folio: putPage, bare: putPage, anchored: true },
    {
      // Every client writes the same page; the anchor updates the one row of that URL (10 clients: one row).
      name: HOT_PAGE_CASE,
      responseBytes: pageBytes[0]!,
      folio: putHotPage,
      bare: putHotPage,
      anchored: true,
    },
  ];
  return { cases, recorded };
}

/** The case names of search (issue 39: p95 of one request at a time, ≤ 30 ms for a word, ≤ 50 ms for a prefix). */
export const SEARCH_WORD_CASE = 'search, one word';
export const SEARCH_PREFIX_CASE = 'search, prefix while typing';

/**
 * Words of the generated dataset (bench/lib/generate.ts), from one page's title to every asset's title and body,
 * and numbers (in one page's title, some assets' names and bodies, many paragraphs); prefixes as typed.
 */
const SEARCH_WORDS = [
  'benchmark',
  'paragraph',
  'reviewers',
  'approved',
  'important',
  'summary',
  'realistic',
  'related',
  'opening',
  'phone',
  'note',
  'snippet',
  'folders',
  'editors',
  'tree',
  'bench',
  '123',
  '4567',
  '99',
  '31415',
];
const SEARCH_PREFIXES = ['bench', 'snip', 'revie', 'appr', 'pho', 'para', 'edi', 'fol', 'open', 'sum', '12', '314'];
export const searchUrl = (q: string) => `/cms/rest/search?q=${encodeURIComponent(q)}`;

/** The cases whose name contains one of `wanted` (case-insensitive); all of them when it is absent. */
export function selectCases<T extends { name: string }>(cases: T[], wanted?: string[]): T[] {
  const w = wanted?.map((x) => x.toLowerCase());
  return cases.filter((c) => !w || w.some((x) => c.name.toLowerCase().includes(x)));
}

/**
 * Throughput and latency of the API on a running Folio server, each case beside a bare Fastify route serving
 * the same bytes (recorded from Folio first), in alternating rounds; the best round of each side counts (load
 * from other processes only ever slows a round down).
 */
export async function apiSuite(
  folio: RunningProcess,
  opts: {
    database: 'sqlite' | 'postgres';
    pages: number;
    connections: number;
    seconds: number;
    rounds: number;
    /** A second server on its own copy of the data, started with UNCACHED_ENV. */
    uncached?: RunningProcess;
    /** Only the cases whose name contains one of these (case-insensitive); every case when absent. */
    cases?: string[];
    /** The database anchor's table (anchored cases are measured against it too). */
    anchor: AnchorDatabase;
  },
  log: (line: string) => void,
): Promise<ApiSuiteResult> {
  const { cases, recorded } = await apiCases(folio.url, opts.pages, log);

  const routesFile = writeRoutes(recorded);
  const bare = await startBareServer(['--mode', 'fastify', '--routes', routesFile]);
  const anchor = await startAnchor(routesFile, opts.anchor);

  const results: CaseResult[] = [];
  const uncachedResults: CaseResult[] = [];
  const uncached = opts.uncached;
  try {
    const credentials = adminCredentials();
    const headersFor = (server: RunningProcess, c: ApiCase) =>
      credentials(server.url, c.session === true && server !== bare && server !== anchor);
    for (const c of selectCases(cases, opts.cases)) {
      const run = async (server: RunningProcess, next: RequestFactory, seconds: number) =>
        load(server.url, next, {
          connections: opts.connections,
          seconds,
          headers: await headersFor(server, c),
          serverPid: server.pid,
        });
      // Warm every side (JIT, caches), then alternate.
      await run(folio, c.folio, 2);
      if (uncached) await run(uncached, c.folio, 2);
      await run(bare, c.bare, 2);
      if (c.anchored) await run(anchor, c.bare, 2);
      const rounds: CaseResult['rounds'] = [];
      const uncachedRounds: LoadResult[] = [];
      const anchorRounds: LoadResult[] = [];
      for (let r = 0; r < opts.rounds; r++) {
        const f = await run(folio, c.folio, opts.seconds);
        const u = uncached ? await run(uncached, c.folio, opts.seconds) : undefined;
        const b = await run(bare, c.bare, opts.seconds);
        const a = c.anchored ? await run(anchor, c.bare, opts.seconds) : undefined;
        if (a) anchorRounds.push(a);
        for (const [who, res] of [
          ['folio', f],
          ['folio, cache off', u],
          ['bare', b],
          ['database anchor', a],
        ] as const) {
          if (res && (res.non2xx || res.errors)) {
            throw new Error(
              `${c.name} (${who}): ${res.non2xx} non-2xx, ${res.errors} errors: ${JSON.stringify(res.statuses)}`,
            );
          }
        }
        rounds.push({ folio: f, bare: b });
        if (u) uncachedRounds.push(u);
      }
      const fastest = (xs: LoadResult[]) => [...xs].sort((a, b) => b.rps - a.rps)[0]!;
      const bareBest = fastest(rounds.map((r) => r.bare));
      const anchorBest = anchorRounds.length ? fastest(anchorRounds) : undefined;
      const caseResult = (folioRounds: LoadResult[]): CaseResult => ({
        name: c.name,
        responseBytes: c.responseBytes,
        folio: fastest(folioRounds),
        bare: bareBest,
        ratio: fastest(folioRounds).rps / bareBest.rps,
        ...cpuOf(
          folioRounds,
          rounds.map((r) => r.bare),
        ),
        rounds: folioRounds.map((f, i) => ({ folio: f, bare: rounds[i]!.bare })),
        ...(anchorBest ? { anchor: anchorBest, anchorRatio: fastest(folioRounds).rps / anchorBest.rps } : {}),
      });
      const res = caseResult(rounds.map((r) => r.folio));
      if (c.sequential) {
        const ms = await probe(folio.url, c.folio, {
          count: c.sequential,
          warmup: 20,
          headers: await headersFor(folio, c),
        });
        const s = [...ms].sort((a, b) => a - b);
        res.sequential = { ...summarise(ms), p95: s[Math.min(s.length - 1, Math.floor(0.95 * s.length))]! };
      }
      results.push(res);
      const line = (label: string, x: CaseResult) =>
        log(
          `  ${label.padEnd(38)} folio ${Math.round(x.folio.rps)} req/s (p50 ${x.folio.p50} ms, p99 ${x.folio.p99} ms)` +
            `  bare ${Math.round(x.bare.rps)} req/s  ratio ${x.ratio.toFixed(2)}` +
            (x.cpu ? `  server CPU/req ${x.cpu.folioUs.toFixed(1)} vs ${x.cpu.bareUs.toFixed(1)} µs` : '') +
            (x.anchor
              ? `  db anchor ${Math.round(x.anchor.rps)} req/s (p99 ${x.anchor.p99} ms) ratio ${x.anchorRatio!.toFixed(2)}`
              : '') +
            (x.sequential
              ? `  one at a time: p50 ${x.sequential.p50.toFixed(1)} ms, p95 ${x.sequential.p95.toFixed(1)} ms`
              : ''),
        );
      line(c.name, res);
      if (uncached) {
        const off = caseResult(uncachedRounds);
        uncachedResults.push(off);
        line(`${c.name} (cache off)`, off);
      }
    }
  } finally {
    await bare.stop();
    await anchor.stop();
    fs.rmSync(path.dirname(routesFile), { recursive: true, force: true });
  }
  return {
    database: opts.database,
    pages: opts.pages,
    connections: opts.connections,
    secondsPerRound: opts.seconds,
    rounds: opts.rounds,
    cases: results,
    ...(uncached ? { uncached: { env: UNCACHED_ENV, cases: uncachedResults } } : {}),
  };
}
