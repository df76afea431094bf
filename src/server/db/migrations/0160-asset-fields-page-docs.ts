import { sql, type Kysely, type Migration } from 'kysely';
import { isPostgres } from '../dialect.js';

/**
 * A change of a shared asset's fields clears the stored docs of the pages that link it (their `doc_seq` advances,
 * as any write of a page row does), instead of advancing `page_doc_epoch` (0080). The epoch made every page's
 * doc untrusted at each edit of any asset's fields, and on PostgreSQL its one row serialised those edits: each
 * held the row's lock until its commit.
 *
 * The pages are found through `widgets.shared_asset_id` (indexed), as committed when the asset's update runs.
 * A page write that links an asset its page did not link before reads that asset under a share lock (PostgreSQL,
 * pages/page-body.ts), so an update of the asset's fields either commits first (the write then reads the new
 * fields) or waits for the write's commit (and then finds the new link). A page that already links it is locked
 * by its writer first, so the asset's update, which writes that page's row, waits for it. Renames, moves and
 * deletions of assets and asset folders, and template edits, still advance the epoch.
 */
export const assetFieldsPageDocs: Migration = {
  async up(db: Kysely<any>) {
    const clear = sql.raw(
      'update pages set doc = null, doc_seq = doc_seq + 1 ' +
        'where node_id in (select page_id from widgets where shared_asset_id = new.node_id)',
    );
    if (isPostgres(db)) {
      await sql`drop trigger assets_page_doc_epoch on assets`.execute(db);
      await sql`create function folio_asset_fields_page_docs() returns trigger language plpgsql as $$
        begin
          ${clear};
          return null;
        end $$`.execute(db);
      await sql`create trigger assets_page_docs after update of fields on assets for each row
        when (old.fields is distinct from new.fields) execute function folio_asset_fields_page_docs()`.execute(db);
      return;
    }
    await sql`drop trigger assets_page_doc_epoch`.execute(db);
    await sql`create trigger assets_page_docs after update of fields on assets when old.fields is not new.fields
      begin ${clear}; end`.execute(db);
  },
};
