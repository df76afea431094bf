import { sql, type Kysely } from 'kysely';
import { prepared, type Later, type LookupMode } from '../../db/prepared.js';
import type { DB, SessionsTable } from '../../db/schema.js';

/** A session with its user's current name and role (prepared: every session request whose generation moved). */
const FIND_SESSION = prepared((db: Kysely<DB>, p: { idHash: string }) =>
  db
    .selectFrom('sessions')
    .innerJoin('users', 'users.username', 'sessions.username')
    .select(['sessions.last_seen_at', 'sessions.expires_at', 'sessions.csrf_token', 'users.username', 'users.role'])
    .where('sessions.id_hash', '=', p.idHash),
);

/** SQL of sessions and of the sign-in rate limit; takes a db or a transaction. */
export const authRepository = {
  findFailures(db: Kysely<DB>, key: string) {
    return db.selectFrom('login_failures').selectAll().where('key', '=', key).executeTakeFirst();
  },

  /**
   * Counts one failure in a single atomic upsert, so concurrent failures on any number of nodes are all counted:
   * a failure after the window starts a new count; reaching `maxFailures` inside it locks until `lockedUntil`.
   */
  async recordFailure(
    db: Kysely<DB>,
    key: string,
    p: { now: number; windowMs: number; maxFailures: number; lockedUntil: number },
  ) {
    const windowOver = sql<boolean>`${sql.val(p.now)} - login_failures.first_failure_at > ${sql.val(p.windowMs)}`;
    await db
      .insertInto('login_failures')
      .values({ key, failures: 1, first_failure_at: p.now, locked_until: 0 })
      .onConflict((oc) =>
        oc.column('key').doUpdateSet({
          failures: sql`case when ${windowOver} then 1 else login_failures.failures + 1 end`,
          first_failure_at: sql`case when ${windowOver} then cast(${sql.val(p.now)} as bigint) else login_failures.first_failure_at end`,
          locked_until: sql`case when not (${windowOver}) and login_failures.failures + 1 >= ${sql.val(p.maxFailures)}
            then cast(${sql.val(p.lockedUntil)} as bigint) else 0 end`,
        }),
      )
      .execute();
  },

  clearFailures(db: Kysely<DB>, key: string) {
    return db.deleteFrom('login_failures').where('key', '=', key).execute();
  },

  insertSession(db: Kysely<DB>, row: SessionsTable) {
    return db.insertInto('sessions').values(row).execute();
  },

  /** A session with its user's current name and role. */
  findSession<M extends LookupMode = Later>(db: Kysely<DB>, idHash: string, mode?: M) {
    return FIND_SESSION.first(db, { idHash }, mode);
  },

  touchSession(db: Kysely<DB>, idHash: string, now: number) {
    return db.updateTable('sessions').set({ last_seen_at: now }).where('id_hash', '=', idHash).execute();
  },

  deleteSession(db: Kysely<DB>, idHash: string) {
    return db.deleteFrom('sessions').where('id_hash', '=', idHash).execute();
  },

  /** Ends every session of a user (password or role changed). */
  deleteSessionsOf(db: Kysely<DB>, username: string) {
    return db.deleteFrom('sessions').where('username', '=', username).execute();
  },
  /** Ends every session of a user but one (the one that changed the password). */
  deleteOtherSessionsOf(db: Kysely<DB>, username: string, keepIdHash: string) {
    return db.deleteFrom('sessions').where('username', '=', username).where('id_hash', '<>', keepIdHash).execute();
  },
};
