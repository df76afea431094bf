import { sql, type Kysely, type Migration } from 'kysely';

/**
 * `assets.search_text` (its name, display title and alt text, lower-cased, written by every asset write) served
 * only the item finder (`GET /cms/rest/folders/find`), which now matches the display title and alt text in the
 * asset's fields itself; full-text search has `search_docs` (migration 0270).
 */
export const dropAssetSearchText: Migration = {
  async up(db: Kysely<any>) {
    await sql`alter table assets drop column search_text`.execute(db);
  },
};
