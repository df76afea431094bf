import type { LeaseKind } from '../../../shared/api/leases.js';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { Actor } from '../../lib/context.js';
import { AppError } from '../../lib/errors.js';
import { presentLease } from './leases.presenter.js';
import { leasesRepository as repo, type LeaseRow } from './leases.repository.js';

/*
 * What the page and asset writes need of check-out leases (docs/decisions.md → check-out is a lease). The lease
 * is a row of `item_leases`; the item's own `checked_out` / `checked_out_user` mirror it, written in the same
 * transaction as the lease row whenever the holder changes (a renewal touches only the lease row). So the stored
 * doc and every answer show the lease with no query of their own, and the ETag is of the bytes sent. A lease that
 * runs out stops showing at the next sweep (`leasesRepository.sweep`); until then, a write checks the lease table
 * only when the row names someone else (`assertLeaseFree`).
 */

/** 409 LEASE_HELD: someone else holds the lease; the problem names them (`lease`). */
export function leaseHeld(row: LeaseRow, what: string): AppError {
  const taken = row.taken_from ? ` (taken over from ${row.taken_from})` : '';
  const lease = presentLease(row);
  return new AppError(
    409,
    'LEASE_HELD',
    `${row.username} has this ${what} checked out since ${lease.since}${taken}. Take it over first, or wait ` +
      'until they are done.',
    undefined,
    { lease },
  );
}

/**
 * 409 LEASE_HELD when someone other than `actor` holds a live lease of the item. `holder` is the row's
 * `checked_out_user` as the write read it: the lease table is read only when it names someone else (their lease
 * may have run out before the sweep cleared the row: then the write goes on).
 */
export async function assertLeaseFree(
  db: Kysely<DB>,
  kind: LeaseKind,
  itemId: string,
  holder: string,
  actor: Actor,
  now: number,
): Promise<void> {
  if (!holder || holder === actor.username || actor.overridesLease) return;
  const row = await repo.liveOfItem(db, kind, itemId, now);
  if (row && row.username !== actor.username) throw leaseHeld(row, kind);
}

/**
 * The lease after a write that sent the spec's `workflow.checkedOut` (the row's columns are the write's own,
 * lib/workflow.ts): true takes the caller's lease (the write already refused when someone else holds a live one),
 * false ends it; nothing when it was not sent.
 */
export async function writeLeaseOfWrite(
  db: Kysely<DB>,
  item: { kind: LeaseKind; id: string; segments: readonly string[] },
  username: string,
  checkedOut: boolean | undefined,
  now: number,
  leaseMs: number,
): Promise<void> {
  if (checkedOut === undefined) return;
  if (!checkedOut) return repo.dropOfItem(db, item.kind, item.id);
  const key = { kind: item.kind, path: item.segments.join('/') };
  await repo.take(db, key, { itemId: item.id, username, now, expiresAt: now + leaseMs, takeover: true });
}

/** An item is deleted: its lease goes with it. */
export const dropLeases = (db: Kysely<DB>, kind: LeaseKind, itemId: string) => repo.dropOfItem(db, kind, itemId);
