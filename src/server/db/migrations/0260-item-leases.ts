import { sql, type Kysely, type Migration } from 'kysely';
import { isPostgres } from '../dialect.js';

/**
 * Check-out as a lease, and who has an item open (modules/leases): `item_leases` holds at most one lease per item,
 * `item_presence` one row per person who has the item open. Both are keyed by the item's kind and path (what the
 * editor and the by-path routes know) and keep the item's id; both end by time (`expires_at`, milliseconds since
 * the epoch, compared with the clock of the node that reads), so no sweeper is needed: a row past its time is
 * ignored and replaced by the next write.
 *
 * The old check-out columns (`pages` and `assets`: `checked_out`, `checked_out_user`) are emptied: writes no
 * longer set them (lib/workflow.ts) and the answers show the live lease instead. The stored docs of the rows
 * emptied are dropped, so they are made again from the rows.
 */
export const itemLeases: Migration = {
  async up(db: Kysely<any>) {
    // Every text column compares bytewise on PostgreSQL (migration 0040).
    const text = sql.raw(isPostgres(db) ? 'text collate "C"' : 'text');
    await sql`create table item_leases (
        kind ${text} not null,
        path ${text} not null,
        item_id ${text} not null,
        username ${text} not null,
        acquired_at bigint not null,
        expires_at bigint not null,
        taken_from ${text},
        primary key (kind, path)
      )`.execute(db);
    await sql`create index item_leases_username on item_leases (username)`.execute(db);
    await sql`create table item_presence (
        kind ${text} not null,
        path ${text} not null,
        username ${text} not null,
        since bigint not null,
        expires_at bigint not null,
        primary key (kind, path, username)
      )`.execute(db);
    const emptied = sql.raw(
      "checked_out = 0, checked_out_user = '', doc = null, doc_etag = null, doc_path = null, doc_seq = doc_seq + 1",
    );
    await sql`update pages set ${emptied} where checked_out <> 0 or checked_out_user <> ''`.execute(db);
    await sql`update assets set ${emptied} where checked_out <> 0 or checked_out_user <> ''`.execute(db);
  },
};
