import { sql, type Kysely, type Migration } from 'kysely';
import { isPostgres } from '../dialect.js';

/**
 * `pages.rejection` and `assets.rejection`: why the item was last rejected, as JSON `{reason, by, at}` (null when it
 * was not, or has moved on since: any other transition clears it; `lib/workflow.ts`).
 */
export const workflowRejection: Migration = {
  async up(db: Kysely<any>) {
    // Every text column compares bytewise on PostgreSQL (migration 0040).
    const collate = sql.raw(isPostgres(db) ? ' collate "C"' : '');
    await sql`alter table pages add column rejection text${collate}`.execute(db);
    await sql`alter table assets add column rejection text${collate}`.execute(db);
  },
};
