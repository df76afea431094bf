import { sql, type Kysely, type Migration } from 'kysely';
import { isPostgres } from '../dialect.js';

/**
 * Scheduled publishing: `publish_at` and `unpublish_at` of pages and assets (ISO 8601 UTC, as `toISOString()` writes
 * it, so text order is time order; null when nothing is scheduled). The scheduler (lib/scheduler.ts) finds the due
 * rows through the partial indexes, which hold only the rows with a time. The stored docs need no rule of their own:
 * a write of the columns goes through the write path, which stores the new doc, or clears it (migration 0240).
 */
export const workflowSchedule: Migration = {
  async up(db: Kysely<any>) {
    // Every text column compares bytewise on PostgreSQL (migration 0040).
    const collate = sql.raw(isPostgres(db) ? ' collate "C"' : '');
    for (const table of ['pages', 'assets']) {
      for (const column of ['publish_at', 'unpublish_at']) {
        await sql`alter table ${sql.table(table)} add column ${sql.id(column)} text${collate}`.execute(db);
        await sql`create index ${sql.id(`${table}_${column}`)} on ${sql.table(table)} (${sql.id(column)})
          where ${sql.id(column)} is not null`.execute(db);
      }
    }
  },
};
