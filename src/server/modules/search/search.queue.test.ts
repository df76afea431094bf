import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SEARCH_URL } from '../../../shared/api/paths.js';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { upload } from '../assets/assets.fixtures.js';
import { isPostgres } from '../../db/dialect.js';
import { searchIndexRows } from './search.index-rows.js';
import { SEARCH_INDEX_BATCH, SEARCH_ROUND_BATCHES, startSearchIndexer } from './search.indexer.js';
import { searchBackfill } from '../../db/migrations/0393-search-backfill.js';
import { searchFieldSeparator } from '../../db/migrations/0394-search-field-separator.js';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp({ CMS_SEED: 'true' });
});
afterEach(async () => {
  await t.close();
});

const db = () => t.app.folio.ctx.db;
const queue = async () =>
  (await sql<{ node_id: string }>`select node_id from search_queue order by node_id`.execute(db())).rows.map(
    (r) => r.node_id,
  );
const bodyOf = async (id: string) =>
  (await sql<{ body: string }>`select body from search_docs where node_id = ${id}`.execute(db())).rows[0]?.body;
const idOf = async (name: string) =>
  (await db().selectFrom('nodes').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;
const paths = async (q: string) => {
  const res = await t.request({ method: 'GET', url: `${SEARCH_URL}?q=${encodeURIComponent(q)}` });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { items: { path: string }[] }).items.map((h) => h.path);
};

/** PUTs demo/articles/<name> with one rich text per word of `words`. */
function putPage(name: string, words: readonly string[]) {
  return t.request({
    method: 'PUT',
    url: `/cms/rest/pages/by-path/demo/articles/${name}`,
    payload: {
      templateName: 'article',
      displayName: name,
      body: [
        {
          name: 'body',
          widgets: words.map((w) => ({
            type: 'cmsRichText',
            scope: 'local',
            editable: true,
            asset: { fields: { text: `<p>${w}</p>` } },
          })),
        },
      ],
    },
  });
}

const words30 = Array.from({ length: 30 }, (_, i) => `quokka${String.fromCharCode(97 + (i % 26))}${i}`);

describe('search queue (migration 0360)', () => {
  it('a PUT of 30 widgets queues its page once, and a search right after finds its words', async () => {
    await t.app.folio.searchIndexer.stop();
    expect(await paths('nothingsuchword')).toEqual([]); // flushes what the seed queued
    expect(await queue()).toEqual([]);
    const res = await putPage('marsupials', words30);
    expect([200, 201], res.body).toContain(res.statusCode);
    const id = await idOf('marsupials');
    expect(await queue()).toEqual([id]);
    expect(await bodyOf(id)).toBeUndefined(); // not indexed by the write itself
    expect(await paths('quokkaa0')).toEqual(['demo/articles/marsupials']);
    expect(await paths('quokkad29')).toEqual(['demo/articles/marsupials']);
    expect(await queue()).toEqual([]);
    // A rename queues it again; the next search sees the new name.
    const again = await putPage('marsupials', ['wombat']);
    expect(again.statusCode, again.body).toBe(200);
    expect(await queue()).toEqual([id]);
    expect(await paths('wombat')).toEqual(['demo/articles/marsupials']);
    expect(await paths('quokkaa0')).toEqual([]);
  });

  it('leaves a row whose text did not change as it is (no rewrite of its words)', async () => {
    await t.app.folio.searchIndexer.stop();
    await paths('nothingsuchword');
    const id = await idOf('welcome');
    const pg = isPostgres(db());
    // What a rewrite of the row shows: on SQLite the rows the statements changed (with the FTS triggers'), on
    // PostgreSQL the row version's transaction id.
    const mark = async () =>
      pg
        ? String(
            (await sql<{ x: string }>`select xmin::text as x from search_docs where node_id = ${id}`.execute(db()))
              .rows[0]!.x,
          )
        : Number((await sql<{ n: number }>`select total_changes() as n`.execute(db())).rows[0]!.n);
    const requeue = () => sql`insert into search_queue (node_id) values (${id})`.execute(db());
    await requeue();
    const before = await mark();
    expect(await searchIndexRows.reindex(db(), SEARCH_INDEX_BATCH)).toBe(1);
    // SQLite: the queue row taken and nothing else (the two inserts above count on it: one before `before`).
    expect(await mark()).toEqual(pg ? before : Number(before) + 1);
    // A changed text is written.
    await sql`update search_docs set body = 'stale words of old' where node_id = ${id}`.execute(db());
    await requeue();
    const stale = await mark();
    await searchIndexRows.reindex(db(), SEARCH_INDEX_BATCH);
    expect(await mark()).not.toEqual(pg ? stale : Number(stale) + 1);
    expect(await bodyOf(id)).not.toContain('stale');
  });

  it('the asset library q indexes what is queued first', async () => {
    await t.app.folio.searchIndexer.stop();
    const up = await upload(t, 'Assets/animals/platypus.png', Buffer.from('not really a png'), {
      filename: 'platypus.png',
      contentType: 'application/octet-stream',
    });
    expect(up.statusCode, up.body).toBeLessThan(300);
    expect(await queue()).toContain(await idOf('platypus.png'));
    const list = await t.request({ method: 'GET', url: '/cms/rest/assets/list/Assets/animals?q=platypus' });
    expect(list.statusCode, list.body).toBe(200);
    expect((list.json() as { items: { name: string }[] }).items.map((i) => i.name)).toEqual(['platypus.png']);
  });

  it('the background indexer empties the queue without a search', async () => {
    const res = await putPage('bilby', ['bandicoot']);
    expect([200, 201], res.body).toContain(res.statusCode);
    const id = await idOf('bilby');
    for (let i = 0; i < 100 && (await queue()).length > 0; i++) await new Promise((r) => setTimeout(r, 100));
    expect(await queue()).toEqual([]);
    expect(await bodyOf(id)).toContain('bandicoot');
  });

  it('a background round takes short batches, up to 500 ids a second', async () => {
    await t.app.folio.searchIndexer.stop();
    await paths('nothingsuchword');
    // Ids of no node: taken off the queue, nothing written for them.
    const fake = Array.from({ length: SEARCH_INDEX_BATCH * SEARCH_ROUND_BATCHES + 70 }, (_, i) => `zz-${1000 + i}`);
    await sql`insert into search_queue (node_id) values ${sql.join(fake.map((id) => sql`(${id})`))}`.execute(db());
    const indexer = startSearchIndexer(t.app.folio.ctx);
    const batches = vi.spyOn(searchIndexRows, 'reindex');
    try {
      expect(await indexer.runNow()).toBe(SEARCH_INDEX_BATCH * SEARCH_ROUND_BATCHES);
      // One transaction each, none longer than a batch: a write of an id being indexed waits for its end.
      expect(batches.mock.calls.map((c) => c[1])).toEqual(Array(SEARCH_ROUND_BATCHES).fill(SEARCH_INDEX_BATCH));
      expect(SEARCH_INDEX_BATCH).toBeLessThanOrEqual(50);
      expect(await queue()).toHaveLength(70);
      expect(await indexer.runNow()).toBe(70);
      expect(await queue()).toEqual([]);
    } finally {
      batches.mockRestore();
      await indexer.stop();
    }
  });

  it('makes every row again, a batch at a time, when a pass is under way (migrations 0393, 0394)', async () => {
    await t.app.folio.searchIndexer.stop();
    const mark = async () =>
      (await sql<{ next_after: string | null }>`select next_after from search_backfill`.execute(db())).rows[0]!
        .next_after;
    expect(await mark()).toBeNull(); // a new database has nothing to make again
    expect(await paths('nothingsuchword')).toEqual([]); // flushes what the seed queued
    // Rows as an older indexer wrote them.
    const welcome = await idOf('welcome');
    const team = await idOf('team');
    for (const id of [welcome, team]) {
      await sql`update search_docs set body = 'stale words of old' where node_id = ${id}`.execute(db());
    }
    expect((await paths('stale')).sort()).toEqual(['demo/about/team', 'demo/articles/welcome']);
    // On a database with pages and assets indexed, the migration starts a pass.
    await sql`drop table search_backfill`.execute(db());
    await searchBackfill.up(db());
    expect(await mark()).toBe('');
    const nodes = Number(
      (await sql<{ n: number }>`select count(*) as n from nodes where kind <> 'root'`.execute(db())).rows[0]!.n,
    );
    let steps = 0;
    for (let queued; (queued = await searchIndexRows.backfill(db(), 5)); steps++) {
      expect(await queue()).toHaveLength(queued); // one batch at a time
      await searchIndexRows.reindex(db(), 5);
    }
    expect(steps).toBe(Math.ceil(nodes / 5));
    expect(await mark()).toBeNull();
    expect(await paths('stale')).toEqual([]);
    expect(await paths('welcome')).toContain('demo/articles/welcome');
    expect(await bodyOf(team)).not.toContain('stale');
    // A later change of the rows' text (migration 0394, the separator between fields) starts a pass again.
    await searchFieldSeparator.up(db());
    expect(await mark()).toBe('');
  });

  it('the background indexer takes a pass when nothing is queued', async () => {
    await t.app.folio.searchIndexer.stop();
    await paths('nothingsuchword');
    const welcome = await idOf('welcome');
    await sql`update search_docs set body = 'stale words of old' where node_id = ${welcome}`.execute(db());
    await sql`update search_backfill set next_after = ''`.execute(db());
    const indexer = startSearchIndexer(t.app.folio.ctx);
    try {
      while (await indexer.runNow());
    } finally {
      await indexer.stop();
    }
    expect(await bodyOf(welcome)).not.toContain('stale');
    expect(await queue()).toEqual([]);
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'two reindexes at once lose no id written meanwhile (PostgreSQL)',
    async () => {
      await t.app.folio.searchIndexer.stop();
      expect((await putPage('numbat', ['termite'])).statusCode).toBe(201);
      const id = await idOf('numbat');
      await searchIndexRows.reindex(db(), 500, true);
      expect(await bodyOf(id)).toContain('termite');
      // Queued again; a reindex takes it and is held (a lock on its search row) after reading the page's words.
      expect((await putPage('numbat', ['anteater'])).statusCode).toBe(200);
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      let locked!: () => void;
      const isLocked = new Promise<void>((r) => (locked = r));
      const holder = db()
        .transaction()
        .execute(async (trx) => {
          await sql`select 1 from search_docs where node_id = ${id} for update`.execute(trx);
          locked();
          await held;
        });
      await isLocked;
      const first = searchIndexRows.reindex(db(), 500);
      /** Until `n` statements of this database wait for a lock. */
      const waiting = async (n: number) => {
        for (let i = 0; i < 200; i++) {
          const { rows } = await sql<{ n: string }>`select count(*) as n from pg_stat_activity
            where datname = current_database() and wait_event_type = 'Lock'`.execute(db());
          if (Number(rows[0]!.n) >= n) return;
          await new Promise((r) => setTimeout(r, 25));
        }
        throw new Error(`fewer than ${n} statements wait for a lock`);
      };
      let write: ReturnType<typeof putPage> | undefined;
      try {
        await waiting(1); // the first reindex, on the held search row
        // A write meanwhile: queueing the id it took, it waits for the first reindex to end (were the id only
        // locked, the write would queue nothing and end now, and the reindex then drop its id).
        write = putPage('numbat', ['echidna']);
        await Promise.race([write, waiting(2)]);
        // A second reindex now finds nothing it may take.
        expect(await searchIndexRows.reindex(db(), 500)).toBe(0);
      } finally {
        release();
      }
      await holder;
      expect(await first).toBe(1);
      expect((await write!).statusCode).toBe(200);
      expect(await bodyOf(id)).toContain('anteater'); // what the first reindex read
      expect(await queue()).toEqual([id]); // the write's id, queued again after it
      expect(await paths('echidna')).toEqual(['demo/articles/numbat']);
      expect(await paths('anteater')).toEqual([]);
    },
  );
});
