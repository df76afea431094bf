import { sql, type Kysely } from 'kysely';
import type { ChangeEvent, ChangeKind } from '../../shared/api/events.js';
import { ROOT_NODE_ID } from '../db/structure.js';
import type { DB } from '../db/schema.js';

/**
 * The change log: one row per change of a page, folder item, asset or template, written in the transaction — in
 * the statement — of the write itself. It is the one write hook: live events (`modules/events/`) read it, and
 * revisions and search index updates attach here too (a trigger beside the change log's in migration 0250 for
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
  /** The item's path (segments joined by `/`). */
  path: string;
  deleted: boolean;
  etag?: string | null;
  actor: string | null;
  /** ISO-8601 UTC. */
  at: string;
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
      })),
    )
    .execute();
}

/** The highest change id in the log (0 when empty). */
export async function lastChangeId(db: Kysely<DB>): Promise<number> {
  const row = await db
    .selectFrom('changes')
    .select((eb) => eb.fn.max('id').as('max'))
    .executeTakeFirst();
  return Number(row?.max ?? 0);
}

/** The highest change id pruned: a resume from before it has lost events. */
export async function prunedUpTo(db: Kysely<DB>): Promise<number> {
  const row = await db.selectFrom('changes_pruned').select('up_to').where('id', '=', 1).executeTakeFirst();
  return Number(row?.up_to ?? 0);
}

/**
 * Deletes the rows written before `before` (ISO-8601), keeping at least the newest `keep`, and remembers the
 * highest id deleted. One transaction; safe to run on several nodes at once.
 */
export async function pruneChanges(db: Kysely<DB>, before: string, keep: number): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const newest = await lastChangeId(trx);
    const old = await trx
      .selectFrom('changes')
      .select((eb) => eb.fn.max('id').as('max'))
      .where('at', '<', before)
      .where('id', '<=', newest - keep)
      .executeTakeFirst();
    const upTo = Number(old?.max ?? 0);
    if (!upTo) return 0;
    const deleted = await trx.deleteFrom('changes').where('id', '<=', upTo).executeTakeFirst();
    await trx
      .updateTable('changes_pruned')
      .set({ up_to: sql`case when up_to < ${upTo} then ${upTo} else up_to end` })
      .where('id', '=', 1)
      .execute();
    return Number(deleted.numDeletedRows);
  });
}

/**
 * The changes with an id above `after` (in id order, at most `limit`), as events: paths of items the triggers
 * recorded are resolved now (where the item is), in one query for the batch. A change of an item that no longer
 * exists is left out: its delete is in the log too.
 */
export async function readChanges(db: Kysely<DB>, after: number, limit: number): Promise<ChangeEvent[]> {
  const rows = await db.selectFrom('changes').selectAll().where('id', '>', after).orderBy('id').limit(limit).execute();
  if (!rows.length) return [];
  const unresolved = rows.filter((r) => r.path === null && r.kind !== 'template').map((r) => r.item_id);
  const paths = unresolved.length ? await pathsOf(db, unresolved) : new Map<string, string>();
  const events: ChangeEvent[] = [];
  for (const r of rows) {
    const path = r.path ?? (r.kind === 'template' ? r.item_id : paths.get(r.item_id));
    if (path === undefined) continue;
    events.push({
      id: Number(r.id),
      kind: r.kind as ChangeKind,
      itemId: r.item_id,
      path,
      etag: r.etag,
      deleted: r.deleted === 1 || (r.deleted as unknown) === '1',
      by: r.actor,
      at: r.at,
    });
  }
  return events;
}

/** Paths of nodes (names from the site or `Assets` down) in one recursive query; missing nodes are left out. */
async function pathsOf(db: Kysely<DB>, ids: readonly string[]): Promise<Map<string, string>> {
  const unique = [...new Set(ids)];
  const rows = await sql<{ start_id: string; name: string; depth: number | string }>`
    with recursive up(start_id, id, parent_id, name, depth) as (
      select id, id, parent_id, name, 0 from nodes where id in (${sql.join(unique)})
      union all
      select up.start_id, n.id, n.parent_id, n.name, up.depth + 1 from nodes n join up on n.id = up.parent_id
    )
    select start_id, name, depth from up where id <> ${ROOT_NODE_ID}`.execute(db);
  const byStart = new Map<string, { name: string; depth: number }[]>();
  for (const r of rows.rows) {
    const list = byStart.get(r.start_id) ?? [];
    list.push({ name: r.name, depth: Number(r.depth) });
    byStart.set(r.start_id, list);
  }
  const out = new Map<string, string>();
  for (const [id, list] of byStart) {
    out.set(
      id,
      list
        .sort((a, b) => b.depth - a.depth)
        .map((x) => x.name)
        .join('/'),
    );
  }
  return out;
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
