import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import type { Actor } from './context.js';
import { AppError } from './errors.js';

/*
 * Check-out leases as the item rows see them (docs/decisions.md → check-out is a lease). The lease itself is a row
 * of `item_leases` (modules/leases); the item's own `checked_out` / `checked_out_user` columns mirror it, written in
 * the same transaction as the lease row whenever the holder changes (a renewal touches only the lease row). So the
 * stored doc and every answer show the lease with no query of their own, and the ETag is of the bytes sent. A lease
 * that runs out stops showing at the next sweep (`sweepLeases`); until then, a write checks the lease table only
 * when the row names someone else (`assertLeaseFree`).
 */

export type ItemKind = 'page' | 'asset';

export interface LeaseRow {
  item_id: string;
  username: string;
  acquired_at: number;
  expires_at: number;
  taken_from: string | null;
}

const iso = (ms: number) => new Date(ms).toISOString();

export const leaseOf = (r: Record<string, unknown>): LeaseRow => ({
  item_id: String(r.item_id),
  username: String(r.username),
  acquired_at: Number(r.acquired_at),
  expires_at: Number(r.expires_at),
  taken_from: (r.taken_from as string | null) ?? null,
});

/** The lease as the contract shows it. */
export function leaseJson(row: LeaseRow) {
  return {
    username: row.username,
    since: iso(row.acquired_at),
    expiresAt: iso(row.expires_at),
    takenFrom: row.taken_from,
  };
}

/** 409 LEASE_HELD: someone else holds the lease; the problem names them (`lease`). */
export function leaseHeld(row: LeaseRow, what: string): AppError {
  const taken = row.taken_from ? ` (taken over from ${row.taken_from})` : '';
  return new AppError(
    409,
    'LEASE_HELD',
    `${row.username} has this ${what} checked out since ${iso(row.acquired_at)}${taken}. Take it over first, or ` +
      'wait until they are done.',
    undefined,
    { lease: leaseJson(row) },
  );
}

/**
 * 409 LEASE_HELD when someone other than `actor` holds a live lease of the item. `holder` is the row's
 * `checked_out_user` as the write read it: the lease table is read only when it names someone else (their lease
 * may have run out before the sweep cleared the row: then the write goes on).
 */
export async function assertLeaseFree(
  db: Kysely<DB>,
  kind: ItemKind,
  itemId: string,
  holder: string,
  actor: Actor,
  now: number,
): Promise<void> {
  if (!holder || holder === actor.username) return;
  const row = await db
    .selectFrom('item_leases')
    .select(['item_id', 'username', 'acquired_at', 'expires_at', 'taken_from'])
    .where('kind', '=', kind)
    .where('item_id', '=', itemId)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  if (row && row.username !== actor.username) throw leaseHeld(leaseOf(row), kind);
}

const TABLE = { page: 'pages', asset: 'assets' } as const;
/** The columns a lease change sets besides the mirror: the row changed, so its stored doc is made again. */
const DOC_STALE = sql.raw('doc = null, doc_etag = null, doc_path = null, doc_seq = doc_seq + 1');

/**
 * Mirrors the item's lease into its row: `username` holds it, or (null) nobody does. With `onlyIf`, the row is
 * changed only while it names that holder (a release by someone who no longer holds it changes nothing).
 * Answers whether the row changed.
 */
export async function mirrorLease(
  db: Kysely<DB>,
  kind: ItemKind,
  itemId: string,
  username: string | null,
  onlyIf?: string,
): Promise<boolean> {
  const table = sql.table(TABLE[kind]);
  const holder = sql`checked_out = ${username ? 1 : 0}, checked_out_user = ${username ?? ''}`;
  const same = sql`checked_out = ${username ? 1 : 0} and checked_out_user = ${username ?? ''}`;
  const guard = onlyIf === undefined ? sql`` : sql` and checked_out_user = ${onlyIf}`;
  const res = await sql`update ${table} set ${holder}, ${DOC_STALE}
    where node_id = ${itemId} and not (${same})${guard}`.execute(db);
  return (res.numAffectedRows ?? 0n) > 0n;
}

/**
 * The lease row after a write that sent the spec's `workflow.checkedOut` (the row's columns are the write's own,
 * lib/workflow.ts): true takes the caller's lease (the write already refused when someone else holds a live one),
 * false ends it; nothing when it was not sent.
 */
export async function writeLeaseOfWrite(
  db: Kysely<DB>,
  item: { kind: ItemKind; id: string; segments: readonly string[] },
  username: string,
  checkedOut: boolean | undefined,
  now: number,
  leaseMs: number,
): Promise<void> {
  if (checkedOut === undefined) return;
  const { kind, id: itemId } = item;
  const path = item.segments.join('/');
  if (!checkedOut) {
    await dropLeases(db, kind, itemId);
    return;
  }
  const mine = sql`(item_leases.expires_at > ${now} and item_leases.item_id = excluded.item_id
    and item_leases.username = excluded.username)`;
  await sql`
    insert into item_leases (kind, path, item_id, username, acquired_at, expires_at, taken_from)
    values (${kind}, ${path}, ${itemId}, ${username}, ${now}, ${now + leaseMs}, null)
    on conflict (kind, path) do update set
      item_id = excluded.item_id,
      username = excluded.username,
      acquired_at = case when ${mine} then item_leases.acquired_at else excluded.acquired_at end,
      expires_at = excluded.expires_at,
      taken_from = case when ${mine} then item_leases.taken_from else null end`.execute(db);
}

/** An item is deleted: its lease goes with it. */
export async function dropLeases(db: Kysely<DB>, kind: ItemKind, itemId: string): Promise<void> {
  await db.deleteFrom('item_leases').where('kind', '=', kind).where('item_id', '=', itemId).execute();
}

/**
 * Ends the leases that ran out by `now`, in one transaction: the rows that still show one of them (and no live
 * lease) are cleared, then the lease rows and the presence rows past their end are deleted. Idempotent, safe on
 * several nodes at once. Answers how many item rows changed (the caller bumps the change generation then).
 */
export async function sweepLeases(db: Kysely<DB>, now: number): Promise<number> {
  return db.transaction().execute(async (trx) => {
    let changed = 0;
    for (const kind of ['page', 'asset'] as const) {
      const table = sql.table(TABLE[kind]);
      const res = await sql`update ${table} set checked_out = 0, checked_out_user = '', ${DOC_STALE}
        where node_id in (select item_id from item_leases where kind = ${kind} and expires_at <= ${now})
          and checked_out <> 0
          and not exists (select 1 from item_leases l
            where l.kind = ${kind} and l.item_id = ${table}.node_id and l.expires_at > ${now})`.execute(trx);
      changed += Number(res.numAffectedRows ?? 0n);
    }
    await trx.deleteFrom('item_leases').where('expires_at', '<=', now).execute();
    await trx.deleteFrom('item_presence').where('expires_at', '<=', now).execute();
    return changed;
  });
}

/**
 * The ETag an `If-Match` is compared with: the current one, or — when the request names the ETag the item had
 * with other check-out fields (free, or held by the caller) — that one. Taking or ending a lease changes the
 * item's bytes and so its ETag, but it never makes its holder's `If-Match` stale: the content is the same.
 */
export function etagForIfMatch(ifMatch: string | undefined, current: string, variants: () => string[]): string {
  if (ifMatch === undefined || ifMatchNames(ifMatch, current)) return current;
  return variants().find((v) => ifMatchNames(ifMatch, v)) ?? current;
}

/** True when `If-Match` names `etag` or `*`. */
export function ifMatchNames(ifMatch: string, etag: string): boolean {
  return ifMatch.split(',').some((t) => {
    const tag = t.trim().replace(/^W\//, '');
    return tag === '*' || tag === etag;
  });
}
