import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Search rows made again for the separator between fields (db/search-text.ts `FIELD_SEPARATOR`: snippets read
 * "Arctic guide · ice · Walrus" instead of one run of words): a new pass of migration 0393's, where pages or assets
 * are indexed.
 */
export const searchFieldSeparator: Migration = {
  async up(db: Kysely<any>) {
    await sql`update search_backfill set next_after = ''
      where exists (select 1 from search_docs where kind in ('page', 'asset'))`.execute(db);
  },
};
