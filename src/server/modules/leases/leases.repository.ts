import { sql, type Kysely } from 'kysely';
import type { LeaseKind } from '../../../shared/api/leases.js';
import type { DB } from '../../db/schema.js';
import { recordChanges } from '../../lib/change-log.js';

/** Where a lease or presence row belongs: the item's kind and path (segments joined by `/`). */
export interface ItemKey {
  kind: string;
  path: string;
}

export interface LeaseRow {
  item_id: string;
  username: string;
  acquired_at: number;
  expires_at: number;
  taken_from: string | null;
}

/** The item tables whose rows mirror their lease (`checked_out`, `checked_out_user`). */
const ITEM_TABLE = { page: 'pages', asset: 'assets' } as const satisfies Record<LeaseKind, string>;
/** The columns a lease change sets besides the mirror: the row changed, so its stored doc is made again. */
const DOC_STALE = sql.raw('doc = null, doc_etag = null, doc_path = null, doc_seq = doc_seq + 1');

export interface PresenceRow {
  username: string;
  since: number;
  expires_at: number;
}

const num = (v: unknown) => Number(v);
export const leaseOf = (r: Record<string, unknown>): LeaseRow => ({
  item_id: String(r.item_id),
  username: String(r.username),
  acquired_at: num(r.acquired_at),
  expires_at: num(r.expires_at),
  taken_from: (r.taken_from as string | null) ?? null,
});

/**
 * SQL of leases and presence (migrations 0260, 0261); takes a db or a transaction. Rows past `expires_at` are
 * ignored, and swept (`sweep`).
 */
export const leasesRepository = {
  /** The live lease of the item at `key` at `now`, if any. */
  async live(db: Kysely<DB>, key: ItemKey, now: number): Promise<LeaseRow | undefined> {
    const row = await db
      .selectFrom('item_leases')
      .select(['item_id', 'username', 'acquired_at', 'expires_at', 'taken_from'])
      .where('kind', '=', key.kind)
      .where('path', '=', key.path)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return row && leaseOf(row);
  },

  /**
   * Takes or renews the lease for `username` in one statement: it is written when there is none, it has ended,
   * it is for another item that was at this path, it is the caller's own (renewed: `acquired_at` kept), or
   * `takeover` (then `taken_from` names the holder it was taken from). Answers the lease written, or undefined
   * when someone else holds it (nothing written).
   */
  async take(
    db: Kysely<DB>,
    key: ItemKey,
    a: { itemId: string; username: string; now: number; expiresAt: number; takeover: boolean },
  ): Promise<LeaseRow | undefined> {
    const live = sql`(item_leases.expires_at > ${a.now} and item_leases.item_id = excluded.item_id)`;
    const mine = sql`(${live} and item_leases.username = excluded.username)`;
    const { rows } = await sql<Record<string, unknown>>`
      insert into item_leases (kind, path, item_id, username, acquired_at, expires_at, taken_from)
      values (${key.kind}, ${key.path}, ${a.itemId}, ${a.username}, ${a.now}, ${a.expiresAt}, null)
      on conflict (kind, path) do update set
        item_id = excluded.item_id,
        username = excluded.username,
        acquired_at = case when ${mine} then item_leases.acquired_at else excluded.acquired_at end,
        expires_at = excluded.expires_at,
        taken_from = case when ${mine} then item_leases.taken_from
          when ${live} then item_leases.username else null end
      where not ${live} or item_leases.username = excluded.username or ${a.takeover ? sql`true` : sql`false`}
      returning item_id, username, acquired_at, expires_at, taken_from`.execute(db);
    return rows[0] && leaseOf(rows[0]);
  },

  /** Ends `username`'s lease of the item (nothing when another holds it); whether there was one. */
  async release(db: Kysely<DB>, key: ItemKey, username: string): Promise<boolean> {
    const res = await db
      .deleteFrom('item_leases')
      .where('kind', '=', key.kind)
      .where('path', '=', key.path)
      .where('username', '=', username)
      .executeTakeFirst();
    return (res.numDeletedRows ?? 0n) > 0n;
  },

  /** Notes that `username` has the item open until `expiresAt` (`since` kept while the row is live). */
  async touchPresence(db: Kysely<DB>, key: ItemKey, a: { username: string; now: number; expiresAt: number }) {
    await sql`
      insert into item_presence (kind, path, username, since, expires_at)
      values (${key.kind}, ${key.path}, ${a.username}, ${a.now}, ${a.expiresAt})
      on conflict (kind, path, username) do update set
        since = case when item_presence.expires_at > ${a.now} then item_presence.since else excluded.since end,
        expires_at = excluded.expires_at`.execute(db);
  },

  async leavePresence(db: Kysely<DB>, key: ItemKey, username: string): Promise<void> {
    await db
      .deleteFrom('item_presence')
      .where('kind', '=', key.kind)
      .where('path', '=', key.path)
      .where('username', '=', username)
      .execute();
  },

  /** The live lease of the item `itemId` (wherever it is now) at `now`, if any. */
  async liveOfItem(db: Kysely<DB>, kind: LeaseKind, itemId: string, now: number): Promise<LeaseRow | undefined> {
    const row = await db
      .selectFrom('item_leases')
      .select(['item_id', 'username', 'acquired_at', 'expires_at', 'taken_from'])
      .where('kind', '=', kind)
      .where('item_id', '=', itemId)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return row && leaseOf(row);
  },

  /** The item is deleted: its lease goes with it. */
  async dropOfItem(db: Kysely<DB>, kind: LeaseKind, itemId: string): Promise<void> {
    await db.deleteFrom('item_leases').where('kind', '=', kind).where('item_id', '=', itemId).execute();
  },

  /**
   * Mirrors the item's lease into its row: `username` holds it, or (null) nobody does. With `onlyIf`, the row is
   * changed only while it names that holder (a release by someone who no longer holds it changes nothing).
   * Answers whether the row changed.
   */
  async mirror(db: Kysely<DB>, kind: LeaseKind, itemId: string, username: string | null, onlyIf?: string) {
    const table = sql.table(ITEM_TABLE[kind]);
    const holder = sql`checked_out = ${username ? 1 : 0}, checked_out_user = ${username ?? ''}`;
    const same = sql`checked_out = ${username ? 1 : 0} and checked_out_user = ${username ?? ''}`;
    const guard = onlyIf === undefined ? sql`` : sql` and checked_out_user = ${onlyIf}`;
    const res = await sql`update ${table} set ${holder}, ${DOC_STALE}
      where node_id = ${itemId} and not (${same})${guard}`.execute(db);
    return (res.numAffectedRows ?? 0n) > 0n;
  },

  /** Who saved the item last and when. */
  async lastSaved(db: Kysely<DB>, kind: string, id: string): Promise<{ by: string | null; at: string } | null> {
    const row = await db
      .selectFrom(kind === 'page' ? 'pages' : 'assets')
      .select(['updated_by', 'updated_at'])
      .where('node_id', '=', id)
      .executeTakeFirst();
    return row ? { by: row.updated_by, at: row.updated_at } : null;
  },

  /** Who has the item open at `now`, earliest first. */
  async present(db: Kysely<DB>, key: ItemKey, now: number): Promise<PresenceRow[]> {
    const rows = await db
      .selectFrom('item_presence')
      .select(['username', 'since', 'expires_at'])
      .where('kind', '=', key.kind)
      .where('path', '=', key.path)
      .where('expires_at', '>', now)
      .orderBy('since')
      .orderBy('username')
      .execute();
    return rows.map((r) => ({ username: r.username, since: num(r.since), expires_at: num(r.expires_at) }));
  },

  /**
   * Ends every lease and presence of `username` (they signed out), in one transaction: the item rows that show
   * them as holder are cleared, with a lease change each (`by` them). Answers how many item rows changed.
   */
  async endAllOf(db: Kysely<DB>, username: string, at: string): Promise<number> {
    return db.transaction().execute(async (trx) => {
      const held = await trx
        .selectFrom('item_leases')
        .select(['kind', 'item_id', 'path'])
        .where('username', '=', username)
        .execute();
      const ended = [];
      for (const l of held) {
        const kind = l.kind as LeaseKind;
        if (await leasesRepository.mirror(trx, kind, l.item_id, null, username)) {
          ended.push(leaseChange(kind, l.item_id, l.path, username, at, null));
        }
      }
      await recordChanges(trx, ended);
      await trx.deleteFrom('item_leases').where('username', '=', username).execute();
      await trx.deleteFrom('item_presence').where('username', '=', username).execute();
      return ended.length;
    });
  },

  /**
   * Ends the leases that ran out by `now`, in one transaction: the rows that still show one of them (and no live
   * lease) are cleared, each with a lease change (`by` the holder whose lease ran out), then the lease rows and
   * the presence rows past their end are deleted. Idempotent, safe on several nodes at once. Answers how many
   * item rows changed (the caller bumps the change generation then).
   */
  async sweep(db: Kysely<DB>, now: number): Promise<number> {
    const at = new Date(now).toISOString();
    return db.transaction().execute(async (trx) => {
      let changed = 0;
      for (const kind of ['page', 'asset'] as const) {
        const table = sql.table(ITEM_TABLE[kind]);
        const ranOut = sql`node_id in (select item_id from item_leases where kind = ${kind} and expires_at <= ${now})
            and checked_out <> 0
            and not exists (select 1 from item_leases l
              where l.kind = ${kind} and l.item_id = ${table}.node_id and l.expires_at > ${now})`;
        const { rows } = await sql<{ node_id: string; checked_out_user: string }>`
          select node_id, checked_out_user from ${table} where ${ranOut}`.execute(trx);
        if (!rows.length) continue;
        const res = await sql`update ${table} set checked_out = 0, checked_out_user = '', ${DOC_STALE}
          where ${ranOut}`.execute(trx);
        changed += Number(res.numAffectedRows ?? 0n);
        await recordChanges(
          trx,
          rows.map((r) => leaseChange(kind, r.node_id, null, r.checked_out_user || null, at, null)),
        );
      }
      await trx.deleteFrom('item_leases').where('expires_at', '<=', now).execute();
      await trx.deleteFrom('item_presence').where('expires_at', '<=', now).execute();
      return changed;
    });
  },
};

/**
 * The change-log row (`recordChanges`) of `actor` setting an item's lease holder to `holder` (null: the lease
 * ended) at `at` (ISO-8601); `path` null: resolved when the event is read.
 */
export function leaseChange(
  kind: LeaseKind,
  itemId: string,
  path: string | null,
  actor: string | null,
  at: string,
  holder: string | null,
) {
  return { kind, itemId, path, deleted: false, actor, at, lease: { holder } };
}
