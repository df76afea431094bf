import type { Kysely, Selectable } from 'kysely';
import type { DB, RevisionsTable } from '../../db/schema.js';

export type RevisionRow = Selectable<RevisionsTable>;
/** A row of the list: what a summary shows. */
export type RevisionListRow = Pick<RevisionRow, 'revision' | 'saved_at' | 'saved_by' | 'state'>;

/** SQL of revisions (written by the triggers of migration 0280, never here) and of the live revision. */
export const revisionsRepository = {
  /** The item's revisions newest first, below `before` when given, at most `limit`. */
  list(db: Kysely<DB>, itemId: string, limit: number, before?: number): Promise<RevisionListRow[]> {
    let q = db
      .selectFrom('revisions')
      .select(['revision', 'saved_at', 'saved_by', 'state'])
      .where('item_id', '=', itemId);
    if (before !== undefined) q = q.where('revision', '<', before);
    return q.orderBy('revision', 'desc').limit(limit).execute();
  },

  /** Revision `revision` of the item, or undefined (never written, or pruned). */
  find(db: Kysely<DB>, itemId: string, revision: number): Promise<RevisionRow | undefined> {
    return db
      .selectFrom('revisions')
      .selectAll()
      .where('item_id', '=', itemId)
      .where('revision', '=', revision)
      .executeTakeFirst();
  },

  /** The number of the item's live revision, or null when it has none. */
  async live(db: Kysely<DB>, itemId: string): Promise<number | null> {
    const row = await db
      .selectFrom('live_revisions')
      .select('revision')
      .where('item_id', '=', itemId)
      .executeTakeFirst();
    return row ? Number(row.revision) : null;
  },

  /** Sets the retention every write prunes by (`CMS_REVISIONS_KEEP`); nulls keep everything. */
  async setRetention(db: Kysely<DB>, keep: { count: number | null; days: number | null }): Promise<void> {
    await db
      .updateTable('revision_retention')
      .set({ keep_count: keep.count, keep_days: keep.days })
      .where('id', '=', 1)
      .execute();
  },
};
