import { sql, type Kysely, type Migration } from 'kysely';
import { isPostgres } from '../dialect.js';

/**
 * Search speed on PostgreSQL (issue 39): the GIN indexes of `search_docs` keep new entries in a pending list
 * (`fastupdate`) until it reaches `gin_pending_list_limit` (4 MB by default) or a vacuum merges it, and every
 * search reads the whole list: a prefix over the title index took 9.6 ms with a full list, 0.05 ms after a vacuum.
 * The background indexer (modules/search) writes these rows in batches, off every request's path, so the list is
 * kept to 64 kB (the least): merged often, never long to read. SQLite's FTS5 tables are unchanged.
 */
export const searchGinPending: Migration = {
  async up(db: Kysely<any>) {
    if (!isPostgres(db)) return;
    for (const index of ['search_docs_tsv', 'search_docs_title_tsv']) {
      await sql`alter index ${sql.ref(index)} set (gin_pending_list_limit = 64)`.execute(db);
      await sql`select gin_clean_pending_list(${index}::regclass)`.execute(db);
    }
  },
};
