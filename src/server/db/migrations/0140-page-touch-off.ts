import { sql, type Kysely, type Migration } from 'kysely';
import { isPostgres } from '../dialect.js';

/**
 * A page's write no longer sets its node's modification time (the trigger of 0090 goes). A page's time is its
 * row's (`pages.updated_at`); its node's is when the node itself changed (name, place), and whoever shows when a
 * page changed takes the later of the two (folders.presenter `presentChildSummary`). Nothing reads a page node's
 * time alone: the indexes on `nodes.updated_at` serve the asset library's listing.
 *
 * Measured (bench/README.md, "The page write's node touch"): the touch was most of a PUT's `UPDATE` on SQLite —
 * the node row and the two `updated_at` indexes rewritten — and on PostgreSQL it made every page write a non-HOT
 * update of `nodes` with a new entry in each of its indexes.
 */
export const pageTouchOff: Migration = {
  async up(db: Kysely<any>) {
    if (isPostgres(db)) {
      await sql`drop trigger pages_touch_node on pages`.execute(db);
      await sql`drop function folio_page_touch_node()`.execute(db);
      return;
    }
    await sql`drop trigger pages_touch_node`.execute(db);
  },
};
