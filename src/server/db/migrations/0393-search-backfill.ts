import { sql, type Kysely, type Migration } from 'kysely';
import { isPostgres } from '../dialect.js';

/**
 * Search rows made again for what was indexed before (issue 39). When the way the indexer makes a row's text
 * changes (eaa667a: only the fields that hold words), the rows written before keep their old text until their item
 * is next written. `search_backfill` (one row) holds where a pass over every item stands: whenever its queue is
 * empty, the background indexer queues the next batch of ids after `next_after` and indexes them
 * (search.index-rows.ts `backfill`), so a search's flush never meets more than one batch of them; null when there is
 * nothing to do. A later change of the text starts a pass again by setting `next_after` to ''.
 *
 * A database with no page or asset indexed yet (a new one) has nothing to make again.
 */
export const searchBackfill: Migration = {
  async up(db: Kysely<any>) {
    // Node ids compare bytewise on PostgreSQL too (as every text column: db/collation.test.ts).
    const text = sql.raw(isPostgres(db) ? 'text collate "C"' : 'text');
    await sql`create table search_backfill (id integer primary key, next_after ${text})`.execute(db);
    await sql`insert into search_backfill (id, next_after)
      select 1, case when exists (select 1 from search_docs where kind in ('page', 'asset')) then '' end`.execute(db);
  },
};
