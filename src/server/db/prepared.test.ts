import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type Kysely } from 'kysely';
import { openDatabase, type Database } from './database.js';
import { prepared, preparedUpdate } from './prepared.js';

interface T {
  items: { id: string; name: string; size: number; note: string | null };
}

let database: Database;
let db: Kysely<T>;
let dir: string;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-prepared-'));
  const pgUrl = process.env.TEST_DATABASE_URL;
  const schema = `t_prepared_${process.pid}`;
  database = openDatabase({
    databaseUrl: pgUrl,
    sqlitePath: path.join(dir, 'p.db'),
    pgSchema: pgUrl ? schema : undefined,
  });
  if (pgUrl) await sql`create schema if not exists ${sql.id(schema)}`.execute(database.db);
  db = database.db as unknown as Kysely<T>;
  await sql`create table items (id text primary key, name text not null, size integer not null, note text)`.execute(db);
  await db
    .insertInto('items')
    .values([
      { id: 'a', name: 'alpha', size: 1, note: null },
      { id: 'b', name: 'beta', size: 2, note: 'x' },
      { id: 'c', name: 'gamma', size: 3, note: 'y' },
    ])
    .execute();
});
afterAll(async () => {
  if (process.env.TEST_DATABASE_URL) {
    await sql`drop schema if exists ${sql.id(`t_prepared_${process.pid}`)} cascade`.execute(database.db);
  }
  await database.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('prepared queries', () => {
  const byName = prepared((k: Kysely<T>, p: { name: string; min: number }) =>
    k.selectFrom('items').selectAll().where('name', '=', p.name).where('size', '>=', p.min),
  );

  it('runs one compiled query with new values each time, constants kept', async () => {
    const withConstant = prepared((k: Kysely<T>, p: { min: number }) =>
      k.selectFrom('items').select('id').where('size', '>=', p.min).where('name', '!=', 'gamma').orderBy('id'),
    );
    expect((await byName.first(db, { name: 'beta', min: 1 }))?.id).toBe('b');
    expect(await byName.first(db, { name: 'beta', min: 3 })).toBeUndefined();
    expect((await byName.all(db, { name: 'alpha', min: 0 })).map((r) => r.id)).toEqual(['a']);
    expect((await withConstant.all(db, { min: 2 })).map((r) => r.id)).toEqual(['b']);
    expect((await withConstant.all(db, { min: 0 })).map((r) => r.id)).toEqual(['a', 'b']);
  });

  it('runs inside a transaction and sees its uncommitted rows', async () => {
    await db
      .transaction()
      .execute(async (trx) => {
        await trx.insertInto('items').values({ id: 'd', name: 'delta', size: 4, note: null }).execute();
        expect((await byName.first(trx, { name: 'delta', min: 0 }))?.id).toBe('d');
        throw new Error('roll back');
      })
      .catch(() => {});
    expect(await byName.first(db, { name: 'delta', min: 0 })).toBeUndefined();
  });

  it('refuses a parameter that is transformed or spliced into the SQL instead of bound', async () => {
    const transformed = prepared((k: Kysely<T>, p: { name: string }) =>
      k.selectFrom('items').selectAll().where('name', 'like', `%${p.name}%`),
    );
    await expect(transformed.all(db, { name: 'a' })).rejects.toThrow(/transformed/);
    const spliced = prepared((k: Kysely<T>, p: { name: string }) =>
      k
        .selectFrom('items')
        .selectAll()
        .where(sql.raw(`name = '${p.name}'`) as never),
    );
    await expect(spliced.all(db, { name: 'a' })).rejects.toThrow(/spliced/);
  });

  it('updates by key with a patch of any columns, one plan per set of columns', async () => {
    const update = preparedUpdate<T['items']>('items', 'id');
    expect(await update.run(db, 'a', { size: 10 })).toBe(1n);
    expect(await update.run(db, 'b', { size: 20, note: null })).toBe(1n);
    expect(await update.run(db, 'c', { note: 'z', size: 30 })).toBe(1n);
    expect(await update.run(db, 'missing', { size: 1 })).toBe(0n);
    const rows = await db.selectFrom('items').selectAll().orderBy('id').execute();
    expect(rows.map((r) => [r.id, r.size, r.note])).toEqual([
      ['a', 10, null],
      ['b', 20, null],
      ['c', 30, 'z'],
    ]);
  });

  it.runIf(process.env.TEST_DATABASE_URL)(
    'runs as named statements on PostgreSQL: prepared once per connection, other queries unnamed',
    async () => {
      const statements = (conn: Kysely<T>) =>
        sql<{ name: string }>`select name from pg_prepared_statements order by name`
          .execute(conn)
          .then((r) => r.rows.map((row) => row.name));
      // A query of its own: none of this connection's earlier ones.
      const bySize = prepared((k: Kysely<T>, p: { size: number }) =>
        k.selectFrom('items').select(['id', 'size']).where('size', '=', p.size),
      );
      await db.connection().execute(async (conn) => {
        const before = await statements(conn);
        expect((await bySize.first(conn, { size: 30 }))?.id).toBe('c');
        const after = await statements(conn);
        const added = after.filter((n) => !before.includes(n));
        expect(added).toHaveLength(1);
        expect(added[0]).toMatch(/^folio_\d+$/);
        // Run again with other values: the same statement, nothing prepared anew.
        expect((await bySize.first(conn, { size: 10 }))?.id).toBe('a');
        await conn.selectFrom('items').selectAll().where('name', '=', 'beta').execute();
        expect(await statements(conn)).toEqual(after);
      });
    },
  );
});
