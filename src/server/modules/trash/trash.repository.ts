import { sql, type Kysely, type Selectable } from 'kysely';
import { forUpdate } from '../../db/dialect.js';
import type { DB, TrashTable } from '../../db/schema.js';

/** A trash entry (its id as a number) with the access level set on its item's own node. */
export type TrashRow = Omit<Selectable<TrashTable>, 'id'> & { id: number; access_level: string | null };

/** An entry as the list reads it: with what its title comes from (the node's, its page's or asset's row). */
export type TrashListRow = TrashRow & {
  display_title: string | null;
  display_name: string | null;
  fields: string | null;
};

const subtree = (db: Kysely<DB>, id: string) =>
  db.withRecursive('sub(id)', (qb) =>
    qb
      .selectFrom('nodes')
      .select('id')
      .where('id', '=', id)
      .unionAll((q) => q.selectFrom('nodes').innerJoin('sub', 'sub.id', 'nodes.parent_id').select('nodes.id')),
  );

const normalise = <R extends { id: number | string }>(r: R): Omit<R, 'id'> & { id: number } => ({
  ...r,
  id: Number(r.id),
});

/** The trash table, and the moves and deletes of the nodes it holds. */
export const trashRepository = {
  /** Records an entry; answers its id. */
  async insert(
    db: Kysely<DB>,
    entry: { node_id: string; kind: string; parent_id: string; name: string; path: string; by: string; at: string },
  ): Promise<number> {
    const r = await db
      .insertInto('trash')
      .values({
        node_id: entry.node_id,
        kind: entry.kind,
        parent_id: entry.parent_id,
        name: entry.name,
        path: entry.path,
        deleted_by: entry.by,
        deleted_at: entry.at,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(r.id);
  },

  /** Puts a node under `parentId` as `name` (the trash root, under its entry's id; or back). */
  async moveNode(db: Kysely<DB>, nodeId: string, parentId: string, name: string): Promise<void> {
    await db.updateTable('nodes').set({ parent_id: parentId, name }).where('id', '=', nodeId).execute();
  },

  /** Entries newest first, those with an id below `before` when given, at most `limit`. */
  async list(db: Kysely<DB>, before: number | null, limit: number): Promise<TrashListRow[]> {
    let q = db
      .selectFrom('trash as t')
      .innerJoin('nodes as n', 'n.id', 't.node_id')
      .leftJoin('pages as p', 'p.node_id', 't.node_id')
      .leftJoin('assets as a', 'a.node_id', 't.node_id')
      .selectAll('t')
      .select(['n.access_level', 'n.display_title', 'p.display_name', 'a.fields']);
    if (before !== null) q = q.where('t.id', '<', before);
    return (await q.orderBy('t.id', 'desc').limit(limit).execute()).map(normalise);
  },

  /** The entry, locked until the transaction ends on PostgreSQL (SQLite serialises writers). */
  async lock(db: Kysely<DB>, id: number): Promise<TrashRow | undefined> {
    const r = await forUpdate(
      db,
      db
        .selectFrom('trash as t')
        .innerJoin('nodes as n', 'n.id', 't.node_id')
        .selectAll('t')
        .select('n.access_level')
        .where('t.id', '=', id),
    ).executeTakeFirst();
    return r && normalise(r);
  },

  deleteEntry(db: Kysely<DB>, id: number) {
    return db.deleteFrom('trash').where('id', '=', id).execute();
  },

  /** Ids of entries deleted before `at` (oldest first), at most `limit`. */
  async dueIds(db: Kysely<DB>, at: string, limit: number): Promise<number[]> {
    const rows = await db
      .selectFrom('trash')
      .select('id')
      .where('deleted_at', '<', at)
      .orderBy('deleted_at')
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map((r) => Number(r.id));
  },

  /** Section links outside the node's subtree that point into it: they go with a delete (as a cascade did). */
  async deleteLinksInto(db: Kysely<DB>, id: string): Promise<void> {
    await subtree(db, id)
      .deleteFrom('nodes')
      .where('nodes.kind', '=', 'sectionlink')
      .where('nodes.link_target_id', 'in', (eb) => eb.selectFrom('sub').select('sub.id'))
      .where('nodes.id', 'not in', (eb) => eb.selectFrom('sub').select('sub.id'))
      .execute();
  },

  /** The blob keys the assets of a subtree and their revisions hold. */
  async subtreeBlobKeys(db: Kysely<DB>, id: string): Promise<string[]> {
    const { rows } = await sql<{ blob_key: string | null; thumb_blob_key: string | null }>`
      with recursive sub(id) as (
        select id from nodes where id = ${id}
        union all
        select n.id from nodes n join sub on n.parent_id = sub.id
      )
      select blob_key, thumb_blob_key from assets where node_id in (select id from sub)
      union all
      select blob_key, thumb_blob_key from revisions where item_id in (select id from sub)`.execute(db);
    return [...new Set(rows.flatMap((r) => [r.blob_key, r.thumb_blob_key]).filter((k): k is string => !!k))];
  },

  /**
   * Deletes a node for good: first the widgets anywhere that link an asset of its subtree (they would block it),
   * then the node; the foreign keys cascade to everything below it, its rows and trash entry, and the nodes' delete
   * trigger takes each item's revisions (migration 0391).
   */
  async deleteNode(db: Kysely<DB>, id: string): Promise<void> {
    await subtree(db, id)
      .deleteFrom('widgets')
      .where('widgets.shared_asset_id', 'in', (eb) =>
        eb
          .selectFrom('assets')
          .select('assets.node_id')
          .where('assets.node_id', 'in', eb.selectFrom('sub').select('sub.id')),
      )
      .execute();
    await db.deleteFrom('nodes').where('id', '=', id).execute();
  },

  /** Those of `keys` that an asset or a revision still refers to. */
  async referencedKeys(db: Kysely<DB>, keys: readonly string[]): Promise<Set<string>> {
    const out = new Set<string>();
    if (!keys.length) return out;
    const list = sql.join([...keys]);
    const { rows } = await sql<{ k: string }>`
      select blob_key as k from assets where blob_key in (${list})
      union select thumb_blob_key from assets where thumb_blob_key in (${list})
      union select blob_key from revisions where blob_key in (${list})
      union select thumb_blob_key from revisions where thumb_blob_key in (${list})`.execute(db);
    for (const r of rows) out.add(r.k);
    return out;
  },
};
