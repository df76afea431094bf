import type BetterSqlite3 from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

/** Prepared statements kept per connection; the least recently used goes first when full. */
const MAX_STATEMENTS = 500;

/**
 * better-sqlite3 for Kysely with a cache of prepared statements. Kysely prepares every query it runs, and on
 * this schema preparing costs more than running the small indexed queries of a request (bench/: 30–50 % of a
 * GET of a page, folder or asset). A statement runs to completion before the next one starts (the driver is
 * synchronous and Kysely serialises the one connection), so reusing it is safe; `iterate` (streaming) gets a
 * statement of its own, because a statement being iterated cannot run anything else until it is done.
 */
export function withStatementCache(sqlite: BetterSqlite3.Database, max = MAX_STATEMENTS): SqliteDatabase {
  const cache = new Map<string, SqliteStatement>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string): SqliteStatement {
      const hit = cache.get(sql);
      if (hit) {
        cache.delete(sql);
        cache.set(sql, hit);
        return hit;
      }
      const stmt = sqlite.prepare(sql);
      const cached: SqliteStatement = {
        reader: stmt.reader,
        all: (parameters) => stmt.all(parameters),
        run: (parameters) => stmt.run(parameters),
        iterate: (parameters) => sqlite.prepare(sql).iterate(parameters),
      };
      if (cache.size >= max) cache.delete(cache.keys().next().value!);
      cache.set(sql, cached);
      return cached;
    },
  };
}
