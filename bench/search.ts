/**
 * Full-text search latency (issue 39 item 5): `GET /cms/rest/search` on a generated 10,000 pages (three rich-text
 * widgets of ~60 words each, 100 folders) and 100,000 text assets (100 folders), written through the page and asset
 * records in transactions, whose triggers queue every item for indexing as every write does (migration 0360), then
 * the queue indexed (timed: the index's own cost, off the write path since 0360). Then sequential requests
 * (`app.inject`: Fastify's routing, validation and serialisation, no socket) of a one-word query and of a prefix
 * query while typing, p50/p95/p99 each, and the CPU time this process spent per request (on SQLite that is the
 * query's own work too: a figure a busy machine does not inflate as much as wall time). The requests go to an app
 * built as `npm run serve` builds it (default configuration; not the test harness, which checks every answer
 * against the OpenAPI document). The slowest queries of each case are printed. On PostgreSQL with
 * `TEST_DATABASE_URL` (a schema of its own, dropped).
 *
 *   npx tsx bench/search.ts                 # SQLite
 *   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/<db> npx tsx bench/search.ts
 *   npx tsx bench/search.ts --pages 1000 --assets 10000 --requests 200   # smaller
 *   npx tsx bench/search.ts --keep          # keep the data; prints the --reuse argument
 *   npx tsx bench/search.ts --reuse /tmp/folio-test-x[:t_schema]   # measure kept data again (no generation)
 */
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { nextId } from '../src/server/db/dialect.js';
import { SYSTEM_ACTOR } from '../src/server/lib/context.js';
import { ensureAssetFolder, insertAssetRecord } from '../src/server/modules/assets/asset-records.js';
import { insertPageRecord } from '../src/server/modules/pages/page-records.js';
import { newNodeRow, treeRepository } from '../src/server/modules/tree/tree.repository.js';
import { SEARCH_INDEX_BATCH } from '../src/server/modules/search/search.indexer.js';
import { searchIndexRows } from '../src/server/modules/search/search.index-rows.js';
import { buildApp } from '../src/server/app.js';
import { loadConfig } from '../src/server/config.js';
import { ADMIN, ADMIN_PASSWORD, createTestApp, type TestData } from '../src/server/test/harness.js';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const PAGES = arg('pages', 10_000);
const ASSETS = arg('assets', 100_000);
const REQUESTS = arg('requests', 300);
const KEEP = process.argv.includes('--keep');
const reuseAt = process.argv.indexOf('--reuse');
const REUSE: TestData | undefined =
  reuseAt > 0
    ? (([dir, pgSchema]) => ({ dir: dir!, ...(pgSchema ? { pgSchema } : {}) }))(process.argv[reuseAt + 1]!.split(':'))
    : undefined;
const PER_FOLDER = Math.max(1, Math.ceil(PAGES / 100));
const ASSETS_PER_FOLDER = Math.max(1, Math.ceil(ASSETS / 100));

// A deterministic vocabulary: common English words and made-up ones, drawn with a skewed distribution.
const COMMON = (
  'gallery harbour running garden museum winter summer report budget council library school river ' +
  'market festival history science music theatre bridge station hospital transport housing planning'
).split(' ');
let seed = 42;
const rand = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
const syllables = ['ka', 'lo', 'mi', 'ne', 'ru', 'ta', 'vi', 'so', 'pe', 'da', 'gu', 'fe', 'ri', 'mo', 'zu', 'be'];
const invented = Array.from({ length: 20_000 }, () =>
  Array.from({ length: 2 + Math.floor(rand() * 3) }, () => syllables[Math.floor(rand() * syllables.length)]).join(''),
);
const word = () =>
  rand() < 0.1 ? COMMON[Math.floor(rand() * COMMON.length)]! : invented[Math.floor(rand() ** 2 * invented.length)]!;
const sentence = (n: number) => Array.from({ length: n }, word).join(' ');

/** Writes the pages and assets through a test app; answers its data (kept). */
async function generate(): Promise<TestData> {
  const t = await createTestApp({ CMS_SEED: 'true' });
  const db = t.app.folio.ctx.db;
  const dialect = t.app.folio.ctx.database.dialect;
  const now = Date.now();
  try {
    const started = performance.now();
    const site = (await treeRepository.resolve(db, ['demo'])).chain[0]!;
    for (let f = 0; f * PER_FOLDER < PAGES; f++) {
      await db.transaction().execute(async (trx) => {
        const folderId = await nextId(trx, 'folder');
        await treeRepository.insert(trx, newNodeRow(folderId, site.id, 'folder', `f${f}`, new Date(now).toISOString()));
        for (let i = f * PER_FOLDER; i < Math.min(PAGES, (f + 1) * PER_FOLDER); i++) {
          const pageId = await insertPageRecord(trx, {
            parentId: folderId,
            name: `p${i}`,
            templateName: 'article',
            displayName: sentence(4),
            actor: SYSTEM_ACTOR,
            now,
          });
          for (let w = 0; w < 3; w++) {
            await trx
              .insertInto('widgets')
              .values({
                id: await nextId(trx, 'widget'),
                page_id: pageId,
                region: 'body',
                position: w,
                type: 'cmsRichText',
                scope: 'local',
                editable: 1,
                fields: JSON.stringify({ text: `<p>${sentence(30)}</p><p><b>${sentence(30)}</b></p>` }),
                shared_asset_id: null,
              })
              .execute();
          }
        }
      });
    }
    const pagesDone = performance.now();
    for (let f = 0; f * ASSETS_PER_FOLDER < ASSETS; f++) {
      await db.transaction().execute(async (trx) => {
        const chain = await ensureAssetFolder(trx, ['Assets', 'bench', `a${f}`], now);
        const folderId = chain[chain.length - 1]!.id;
        for (let i = f * ASSETS_PER_FOLDER; i < Math.min(ASSETS, (f + 1) * ASSETS_PER_FOLDER); i++) {
          await insertAssetRecord(trx, {
            folderId,
            name: `asset-${i}.txt`,
            type: 'cmsRichTextAsset',
            fields: { displaytitle: sentence(3), alttext: sentence(5), text: `<p>${sentence(20)}</p>` },
            folder: ['Assets', 'bench', `a${f}`],
            actor: SYSTEM_ACTOR,
            now,
          });
        }
      });
    }
    const assetsDone = performance.now();
    // What the background indexer has not indexed yet, in batches as it takes them (a search would index the rest).
    while ((await searchIndexRows.reindex(db, SEARCH_INDEX_BATCH)) > 0);
    const indexDone = performance.now();
    // PostgreSQL: statistics of the filled tables, as autovacuum (on by default, off on the machines here) keeps
    // them. Without them the planner walks the tree by hashing every node (~130 ms a search at 110k nodes).
    if (dialect === 'postgres') await sql`analyze`.execute(db);
    console.log(
      `${dialect}: ${PAGES} pages in ${((pagesDone - started) / 1000).toFixed(1)} s, ` +
        `${ASSETS} assets in ${((assetsDone - pagesDone) / 1000).toFixed(1)} s, ` +
        `the rest of the index queue in ${((indexDone - assetsDone) / 1000).toFixed(1)} s`,
    );
  } catch (err) {
    await t.close();
    throw err;
  }
  await t.close({ keepData: true });
  return t.data;
}

async function main() {
  const data = REUSE ?? (await generate());
  const app = await buildApp(
    loadConfig({
      CMS_DATA_DIR: data.dir,
      CMS_ADMIN_PASSWORD: ADMIN_PASSWORD,
      CMS_SEED: 'false',
      LOG_LEVEL: 'silent',
      ...(process.env.TEST_DATABASE_URL ? { DATABASE_URL: process.env.TEST_DATABASE_URL } : {}),
    }),
    { logger: false, ...(data.pgSchema ? { pgSchema: data.pgSchema } : {}) },
  );
  await app.ready();
  const dialect = app.folio.ctx.database.dialect;
  const get = (q: string) =>
    app.inject({
      method: 'GET',
      url: `/cms/rest/search?q=${encodeURIComponent(q)}`,
      headers: { authorization: ADMIN },
    });
  try {
    seed = 7; // the same queries whether the data was generated now or kept from an earlier run
    const measure = async (name: string, q: () => string) => {
      for (let i = 0; i < 20; i++) await get(q());
      const times: number[] = [];
      const cpus: number[] = [];
      const slowest: [number, string][] = [];
      let hits = 0;
      for (let i = 0; i < REQUESTS; i++) {
        const text = q();
        const c0 = process.cpuUsage();
        const t0 = performance.now();
        const res = await get(text);
        times.push(performance.now() - t0);
        slowest.push([times[times.length - 1]!, text]);
        const c = process.cpuUsage(c0);
        cpus.push((c.user + c.system) / 1000);
        if (res.statusCode !== 200) throw new Error(`${res.statusCode} ${res.body}`);
        hits += (JSON.parse(res.body) as { items: unknown[] }).items.length;
      }
      const at = (xs: number[], x: number) =>
        xs.sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(x * xs.length))]!.toFixed(1);
      console.log(
        `${dialect} ${name}: p50 ${at(times, 0.5)} ms, p95 ${at(times, 0.95)} ms, p99 ${at(times, 0.99)} ms; ` +
          `this process's CPU per request p50 ${at(cpus, 0.5)} ms, p95 ${at(cpus, 0.95)} ms ` +
          `(${REQUESTS} requests, ${(hits / REQUESTS).toFixed(1)} hits each); slowest: ` +
          slowest
            .sort((a, b) => b[0] - a[0])
            .slice(0, 5)
            .map(([ms, text]) => `"${text}" ${ms.toFixed(0)} ms`)
            .join(', '),
      );
    };
    await measure('one word', () => word());
    await measure('prefix while typing', () => {
      const w = word();
      return w.slice(0, Math.max(3, w.length - 2));
    });
    await measure('two words, last a prefix', () => `${word()} ${word().slice(0, 3)}`);
  } finally {
    await app.close();
    if (KEEP || REUSE) {
      console.log(`data kept: --reuse ${data.dir}${data.pgSchema ? `:${data.pgSchema}` : ''}`);
    } else {
      // A test app on the data, closed: drops its schema and removes its dir.
      await (await createTestApp({}, {}, data)).close();
    }
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
