import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { sql, type Kysely } from 'kysely';
import { openDatabase, type Database } from './database.js';
import { batchedSql, lookupShape } from './batched-statements.js';
import { prepared, preparedUpdate } from './prepared.js';

interface T {
  items: { id: string; name: string; size: number; seen_at: string | null };
  users: { name: string; role: string };
}

const pgUrl = process.env.TEST_DATABASE_URL;
const schema = `t_batched_${process.pid}`;
let database: Database;
let db: Kysely<T>;
let dir: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-batched-'));
  database = openDatabase({
    databaseUrl: pgUrl,
    sqlitePath: path.join(dir, 'b.db'),
    pgSchema: pgUrl ? schema : undefined,
  });
  if (pgUrl) await sql`create schema if not exists ${sql.id(schema)}`.execute(database.db);
  db = database.db as unknown as Kysely<T>;
  await sql`create table items (id text primary key, name text not null, size bigint not null, seen_at text)`.execute(
    db,
  );
  await sql`create table users (name text primary key, role text not null)`.execute(db);
  await db
    .insertInto('items')
    .values(Array.from({ length: 30 }, (_, i) => ({ id: `i${i}`, name: `item ${i}`, size: i, seen_at: null })))
    .execute();
  await db
    .insertInto('users')
    .values([
      { name: 'ann', role: 'admin' },
      { name: 'bob', role: 'editor' },
    ])
    .execute();
});
afterAll(async () => {
  if (pgUrl) await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(database.db);
  await database.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** An item by id and a minimum size, with a proof-like column from another table (as the by-path reads have). */
const build = (k: Kysely<any>, p: { id: string; min: number; user: string; role: string }) =>
  sql<{ id: string; name: string; size: string | number; proven: boolean }>`select id, name, size,
    exists (select 1 from users where name = ${p.user} and role = ${p.role}) as proven
    from items where id = ${p.id} and size >= ${p.min}`;
const ITEM = prepared(build, { batched: true });
const ITEM_ALONE = prepared(build);

/** Every kind of outcome: found and proven, found and not proven, too small, unknown ids. */
const RUNS = Array.from({ length: 40 }, (_, i) => ({
  id: `i${i}`,
  min: i % 7 === 0 ? 100 : 0,
  user: i % 3 === 0 ? 'bob' : 'ann',
  role: i % 5 === 0 ? 'editor' : 'admin',
}));

/** The SQL of every statement `db` runs from now on (until the test ends). */
function statementsSent() {
  const spy = vi.spyOn(db, 'executeQuery');
  return { texts: () => spy.mock.calls.map(([q]) => ('sql' in q ? q.sql : q.compile().sql)) };
}
afterEach(() => vi.restoreAllMocks());

describe('batched one-row lookups', () => {
  it('answers each of many runs asked for together exactly as the run alone would', async () => {
    const alone = [];
    for (const run of RUNS) alone.push(await ITEM_ALONE.first(db, run));
    expect(alone.filter((r) => r?.proven).length).toBeGreaterThan(5);
    expect(alone.filter((r) => r && !r.proven).length).toBeGreaterThan(5);
    expect(alone.filter((r) => r === undefined).length).toBeGreaterThan(5);

    const sent = statementsSent();
    const together = await Promise.all(RUNS.map((run) => ITEM.first(db, run)));
    expect(together).toEqual(alone);
    if (pgUrl) {
      // One statement for all forty (the types' probe goes over a connection of its own).
      expect(sent.texts()).toHaveLength(1);
      expect(sent.texts()[0]).toContain('with ordinality');
    } else {
      // SQLite reads in process: nothing to batch.
      expect(sent.texts()).toHaveLength(RUNS.length);
    }
  });

  it('sends a run alone as it is, and runs asked for later in a statement of their own', async () => {
    const sent = statementsSent();
    expect((await ITEM.first(db, RUNS[1]!))?.id).toBe('i1');
    const [a, b] = await Promise.all([ITEM.first(db, RUNS[2]!), ITEM.first(db, RUNS[3]!)]);
    expect([a?.id, b?.id]).toEqual(['i2', 'i3']);
    if (pgUrl) {
      expect(sent.texts()).toHaveLength(2);
      expect(sent.texts()[0]).not.toContain('with ordinality');
      expect(sent.texts()[1]).toContain('with ordinality');
    }
  });

  it('sees every write acknowledged before a run was asked for', async () => {
    await db.updateTable('items').set({ name: 'renamed' }).where('id', '=', 'i4').execute();
    const [four, five] = await Promise.all([ITEM.first(db, RUNS[4]!), ITEM.first(db, RUNS[5]!)]);
    expect(four?.name).toBe('renamed');
    expect(five?.name).toBe('item 5');
  });

  it("runs inside a transaction on the transaction's connection, seeing its own writes", async () => {
    const sent = statementsSent();
    await db.transaction().execute(async (trx) => {
      await trx.updateTable('items').set({ name: 'uncommitted' }).where('id', '=', 'i6').execute();
      const [six, eight] = await Promise.all([ITEM.first(trx, RUNS[6]!), ITEM.first(trx, RUNS[8]!)]);
      expect(six?.name).toBe('uncommitted');
      expect(eight?.id).toBe('i8');
    });
    expect(sent.texts().filter((t) => t.includes('with ordinality'))).toEqual([]);
  });

  it("gives each run of a batch that fails its own outcome: the bad run's error, the others' rows", async () => {
    const bad = { ...RUNS[9]!, min: 'not a number' as unknown as number };
    const outcomes = await Promise.allSettled([
      ITEM.first(db, RUNS[10]!),
      ITEM.first(db, bad),
      ITEM.first(db, RUNS[11]!),
    ]);
    expect(outcomes[0]).toMatchObject({ status: 'fulfilled', value: { id: 'i10' } });
    expect(outcomes[1]!.status).toBe(pgUrl ? 'rejected' : 'fulfilled');
    expect(outcomes[2]).toMatchObject({ status: 'fulfilled', value: { id: 'i11' } });
  });

  it.runIf(pgUrl)("takes each parameter's type from PostgreSQL's own reading of the lookup", async () => {
    const text = await batchedSql(
      db,
      lookupShape('select id from items where id = $1 and size >= $2 and seen_at is not distinct from $3'),
      'folio_probe_test',
    );
    expect(text).toContain('unnest((select $1::text[]), (select $2::bigint[]), (select $3::text[]))');
    expect(text).toContain('folio_batch.p1 and size >= folio_batch.p2');
    expect(await batchedSql(db, lookupShape('select 1'), 'folio_probe_test')).toBeNull();
  });
});

/** A guarded update of an item (`size` as it was read), proven by a user's role (as the page and asset writes are). */
const SET_ITEM = preparedUpdate<T['items']>('items', 'id', [], 'size', { batched: true });
const SET_ITEM_ALONE = preparedUpdate<T['items']>('items', 'id', [], 'size');
const roleProof = (user: string, role: string) => ({
  condition: 'exists (select 1 from users where name = {} and role = {})',
  values: [user, role],
});
const names = async () =>
  Object.fromEntries(
    (await db.selectFrom('items').select(['id', 'name']).orderBy('id').execute()).map((r) => [r.id, r.name]),
  );

describe('batched updates', () => {
  it('changes each row exactly as its own statement would, in one statement', async () => {
    // Runs whose guard holds, whose guard is stale, whose proof fails, and of unknown rows.
    const runs = Array.from({ length: 24 }, (_, i) => ({
      id: `i${i}`,
      name: `batched ${i}`,
      size: i % 4 === 1 ? i + 1 : i,
      proof: roleProof(i % 6 === 2 ? 'bob' : 'ann', 'admin'),
    }));
    runs.push({ id: 'nope', name: 'x', size: 0, proof: roleProof('ann', 'admin') });
    const expected = runs.map((r, i) => (i < 24 && i % 4 !== 1 && i % 6 !== 2 ? 1n : 0n));

    const sent = statementsSent();
    const results = await Promise.all(runs.map((r) => SET_ITEM.run(db, r.id, { name: r.name }, r.size, r.proof)));
    expect(results).toEqual(expected);
    const after = await names();
    runs.slice(0, 24).forEach((r, i) => expect(after[r.id]).toBe(expected[i] ? r.name : `item ${i}`));
    if (pgUrl) expect(sent.texts().filter((t) => t.startsWith('update'))).toHaveLength(1);
  });

  it('writes runs of the same row one after the other, as concurrent statements would', async () => {
    const sent = statementsSent();
    const [first, second, other] = await Promise.all([
      SET_ITEM.run(db, 'i25', { name: 'first' }, 25, roleProof('ann', 'admin')),
      SET_ITEM.run(db, 'i25', { name: 'second' }, 25, roleProof('ann', 'admin')),
      SET_ITEM.run(db, 'i26', { name: 'other' }, 26, roleProof('ann', 'admin')),
    ]);
    // Both guards read the same size, which neither changes: both hold, in turn; the later write is what stays.
    expect([first, second, other]).toEqual([1n, 1n, 1n]);
    expect((await names()).i25).toBe('second');
    if (pgUrl) expect(sent.texts().filter((t) => t.startsWith('update'))).toHaveLength(2);
  });

  it('gathers the runs asked for while a statement of the update is under way into the next one', async () => {
    // PostgreSQL: a transaction holds the first run's row, so that run's statement is under way while the others
    // are asked for, each in a turn of the event loop of its own.
    let release = () => {};
    let locker: Promise<unknown> = Promise.resolve();
    if (pgUrl) {
      const held = new Promise<void>((r) => (release = r));
      let locked = () => {};
      const isLocked = new Promise<void>((r) => (locked = r));
      locker = db.transaction().execute(async (trx) => {
        await sql`select id from items where id = 'i20' for update`.execute(trx);
        locked();
        await held;
      });
      await isLocked;
    }
    const sent = statementsSent();
    const runs = [SET_ITEM.run(db, 'i20', { name: 'first' }, 20, roleProof('ann', 'admin'))];
    for (const i of [21, 22, 23]) {
      await new Promise((r) => setImmediate(r));
      runs.push(SET_ITEM.run(db, `i${i}`, { name: `later ${i}` }, i, roleProof('ann', 'admin')));
    }
    release();
    await locker;
    expect(await Promise.all(runs)).toEqual([1n, 1n, 1n, 1n]);
    const after = await names();
    expect([after.i20, after.i21, after.i22, after.i23]).toEqual(['first', 'later 21', 'later 22', 'later 23']);
    // The first alone, then the three together (one at a time they would have been four statements).
    if (pgUrl) expect(sent.texts().filter((t) => t.startsWith('update'))).toHaveLength(2);
  });

  it('writes nothing of a batch that fails, and then each run on its own', async () => {
    const outcomes = await Promise.allSettled([
      SET_ITEM.run(db, 'i27', { name: 'kept 27' }, 27, roleProof('ann', 'admin')),
      SET_ITEM.run(db, 'i28', { name: 'bad' }, 'not a number', roleProof('ann', 'admin')),
      SET_ITEM.run(db, 'i29', { name: 'kept 29' }, 29, roleProof('ann', 'admin')),
    ]);
    expect(outcomes[0]).toEqual({ status: 'fulfilled', value: 1n });
    expect(outcomes[1]!.status).toBe(pgUrl ? 'rejected' : 'fulfilled');
    expect(outcomes[2]).toEqual({ status: 'fulfilled', value: 1n });
    const after = await names();
    expect([after.i27, after.i28, after.i29]).toEqual(['kept 27', 'item 28', 'kept 29']);
  });

  it('runs inside a transaction on its connection, and nothing is written if it rolls back', async () => {
    const sent = statementsSent();
    await expect(
      db.transaction().execute(async (trx) => {
        const wrote = await Promise.all([
          SET_ITEM.run(trx, 'i20', { name: 'rolled back' }, 20, roleProof('ann', 'admin')),
          SET_ITEM.run(trx, 'i21', { name: 'rolled back' }, 21, roleProof('ann', 'admin')),
        ]);
        expect(wrote).toEqual([1n, 1n]);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(sent.texts().filter((t) => t.includes('with ordinality'))).toEqual([]);
    const after = await names();
    expect([after.i20, after.i21]).not.toContain('rolled back');
    // The same statement unbatched answers as the batched one did.
    expect(await SET_ITEM_ALONE.run(db, 'i22', { name: 'alone' }, 22, roleProof('ann', 'admin'))).toBe(1n);
  });
});
