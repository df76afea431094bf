import { sql, type Kysely, type Migration } from 'kysely';
import { isPostgres } from '../dialect.js';

/**
 * SQLite: the trigger that clears the docs of the pages linking a shared asset (0160) runs its `UPDATE` only when
 * a widget links the asset. Most assets are linked by no page, and SQLite paid ~30 µs per edit of their fields for
 * the empty `update pages … where node_id in (select …)` (a loop of PUT asset metadata's statement on the
 * benchmark data: ~80 → ~50 µs; bench/README.md). The check is the same index lookup the `UPDATE` starts with, so
 * what it clears is unchanged. PostgreSQL keeps 0160's function: a trigger's `WHEN` there cannot hold a subquery.
 */
export const assetPageDocsWhenLinked: Migration = {
  async up(db: Kysely<any>) {
    if (isPostgres(db)) return;
    await sql`drop trigger assets_page_docs`.execute(db);
    await sql`create trigger assets_page_docs after update of fields on assets
      when old.fields is not new.fields and exists (select 1 from widgets where shared_asset_id = new.node_id)
      begin
        update pages set doc = null, doc_seq = doc_seq + 1
          where node_id in (select page_id from widgets where shared_asset_id = new.node_id);
      end`.execute(db);
  },
};
