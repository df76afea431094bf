import type { Kysely } from 'kysely';
import type { ChangeKind } from '../../shared/api/events.js';
import type { DB } from '../db/schema.js';

/**
 * The change log: one row per change of a page, folder item, asset or template, written in the transaction — in
 * the statement — of the write itself. It is the one write hook: live events (`modules/events/`) read and prune
 * it, and revisions and search index updates attach here too (a trigger beside the change log's in migration 0250 for
 * what every write of a row must do, or `recordChanges` for what a service knows and a row does not).
 *
 * Two writers, one table:
 * - Triggers (migration 0250) on `pages`, `nodes`, `assets` and `templates` record every insert and every update
 *   that moves the row's `updated_at` (or a node's name or parent), with the row's new ETag when the write stored
 *   it, its `updated_by` and `updated_at`. They run inside the writing statement: the guarded single-statement
 *   `UPDATE` (lib/guarded-write.ts) and its batched form stay one round trip, on SQLite and PostgreSQL alike, and
 *   no write way — moves, renames, copies, link rewrites, bulk workflow, uploads — can forget them.
 * - `recordChanges(trx, changes)`, called by the services in the writing transaction, for what a row cannot tell:
 *   deletes (who, and the path the item had; one row for the item, not one per row a cascade removes).
 */
export interface RecordedChange {
  kind: ChangeKind;
  /** Node id; a template's name. */
  itemId: string;
  /** The item's path (segments joined by `/`); null: where the item is when the change is read. */
  path: string | null;
  deleted: boolean;
  etag?: string | null;
  actor: string | null;
  /** ISO-8601 UTC. */
  at: string;
  /** A change of the item's check-out lease: who holds it now, or null when it ended (migration 0300). */
  lease?: { holder: string | null };
}

/** Writes `changes` to the log; call it inside the transaction that makes them. */
export async function recordChanges(trx: Kysely<DB>, changes: readonly RecordedChange[]): Promise<void> {
  if (!changes.length) return;
  await trx
    .insertInto('changes')
    .values(
      changes.map((c) => ({
        kind: c.kind,
        item_id: c.itemId,
        path: c.path,
        etag: c.etag ?? null,
        deleted: c.deleted ? 1 : 0,
        actor: c.actor,
        at: c.at,
        lease: c.lease ? (c.lease.holder ?? '') : null,
      })),
    )
    .execute();
}

/** The change of a delete of `itemId` at `segments` (its path) by `actor` at `ms`, for `recordChanges`. */
export function deletion(
  kind: ChangeKind,
  itemId: string,
  segments: readonly string[],
  actor: string,
  ms: number,
): RecordedChange {
  return { kind, itemId, path: segments.join('/'), deleted: true, actor, at: new Date(ms).toISOString() };
}
