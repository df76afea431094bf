import { sql, type Kysely, type Migration } from 'kysely';
import { isPostgres } from '../dialect.js';

/**
 * `nodes.updated_by`: who last changed a site, folder, section or link (created it, changed its properties,
 * renamed or moved it), for the explorer's "last modified by". Null for rows written before this migration and
 * for nodes whose own table records it (pages keep `pages.updated_by`).
 */
export const nodeUpdatedBy: Migration = {
  async up(db: Kysely<any>) {
    const collate = isPostgres(db) ? sql.raw(' collate "C"') : sql.raw('');
    await sql`alter table nodes add column updated_by text${collate}`.execute(db);
  },
};
