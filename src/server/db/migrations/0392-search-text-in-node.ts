import { sql, type Kysely, type Migration } from 'kysely';
import { isPostgres } from '../dialect.js';

/**
 * The search rows' text is made by the server on both databases (modules/search, `searchText` of db/search-text.ts),
 * no longer by PostgreSQL's `folio_search_text` (migration 0270): one way to make it instead of a regex copy per
 * dialect, and PostgreSQL's regexes cost the background indexer about 0.2 ms of database CPU per page it reindexed.
 * SQLite keeps the application function of that name for migration 0270, which fills the index with it.
 */
export const searchTextInNode: Migration = {
  async up(db: Kysely<any>) {
    if (isPostgres(db)) await sql`drop function if exists folio_search_text(text)`.execute(db);
  },
};
