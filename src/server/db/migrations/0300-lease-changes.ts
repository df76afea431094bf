import { sql, type Kysely, type Migration } from 'kysely';
import { isPostgres } from '../dialect.js';

/**
 * Lease changes are changes (issue 41): `changes.lease` is set on the row a lease service writes when an item's
 * check-out holder changes — the new holder's name, or `''` when the lease ended (released, swept, signed out).
 * Null on every other change. So the holder's editor learns a takeover from the live event at once, and listings
 * refresh their lock.
 */
export const leaseChanges: Migration = {
  async up(db: Kysely<any>) {
    const c = sql.raw(isPostgres(db) ? ' collate "C"' : '');
    await sql`alter table changes add column lease text${c}`.execute(db);
  },
};
