import SQLite, { type SqliteConnection } from './sqlite-driver.js';
import { afterEach, describe, expect, it } from 'vitest';
import { withStatementCache } from './statement-cache.js';

describe('statement cache', () => {
  let sqlite: SqliteConnection;
  afterEach(() => sqlite?.close());

  function open() {
    sqlite = new SQLite(':memory:');
    sqlite.exec('create table t (n integer); insert into t values (1), (2), (3)');
    let prepared = 0;
    const original = sqlite.prepare.bind(sqlite);
    sqlite.prepare = ((sql: string) => {
      prepared++;
      return original(sql);
    }) as typeof sqlite.prepare;
    return { db: withStatementCache(sqlite, 2), prepared: () => prepared };
  }

  it('prepares a query once and runs it again with other parameters', () => {
    const { db, prepared } = open();
    expect(db.prepare('select n from t where n = ?').all([1])).toEqual([{ n: 1 }]);
    expect(db.prepare('select n from t where n = ?').all([3])).toEqual([{ n: 3 }]);
    expect(prepared()).toBe(1);
  });

  it('keeps at most max statements, dropping the least recently used', () => {
    const { db, prepared } = open();
    db.prepare('select 1');
    db.prepare('select 2');
    db.prepare('select 1');
    db.prepare('select 3'); // evicts "select 2"
    db.prepare('select 1');
    expect(prepared()).toBe(3);
    db.prepare('select 2');
    expect(prepared()).toBe(4);
  });

  it('answers reader and run like the statement itself', () => {
    const { db } = open();
    expect(db.prepare('select n from t').reader).toBe(true);
    const insert = db.prepare('insert into t values (?)');
    expect(insert.reader).toBe(false);
    expect(insert.run([4]).changes).toBe(1);
  });

  it('streams with a statement of its own, so the cached one can run meanwhile', () => {
    const { db } = open();
    const sql = 'select n from t order by n';
    const rows: unknown[] = [];
    for (const row of db.prepare(sql).iterate([])) {
      rows.push(row);
      expect(db.prepare(sql).all([])).toHaveLength(3);
    }
    expect(rows).toHaveLength(3);
  });
});
