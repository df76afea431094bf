import type { Lease, LeaseKind, LeaseState } from '../../../shared/api/leases.js';
import type { LeaseRow, PresenceRow } from './leases.repository.js';

const iso = (ms: number) => new Date(ms).toISOString();

/** A lease row as the contract shows it. */
export function presentLease(row: LeaseRow): Lease {
  return {
    username: row.username,
    since: iso(row.acquired_at),
    expiresAt: iso(row.expires_at),
    takenFrom: row.taken_from,
  };
}

/** A stored time as ISO 8601 (UTC), whatever form the database keeps it in. */
function isoOf(stored: string): string {
  const ms = Date.parse(stored);
  return Number.isNaN(ms) ? stored : iso(ms);
}

/**
 * What the lease routes answer: the item's live lease (`lease`, when it is for this item), whether it is the
 * caller's, who else has the item open, and who saved it last.
 */
export function presentLeaseState(
  item: { id: string; kind: LeaseKind; path: string },
  username: string,
  lease: LeaseRow | undefined,
  present: readonly PresenceRow[],
  saved: { by: string | null; at: string } | null,
): LeaseState {
  const live = lease && lease.item_id === item.id ? lease : undefined;
  return {
    kind: item.kind,
    path: item.path,
    id: item.id,
    lease: live ? presentLease(live) : null,
    mine: live?.username === username,
    present: present
      .filter((p) => p.username !== username)
      .map((p) => ({ username: p.username, since: iso(p.since), editing: live?.username === p.username })),
    lastSaved: saved && { by: saved.by, at: isoOf(saved.at) },
  };
}
