import { sql, type Kysely, type Selectable } from 'kysely';
import type { ChangesTable, DB } from '../../db/schema.js';
import { treeRepository } from '../tree/tree.repository.js';

export type ChangeRow = Selectable<ChangesTable>;

/** SQL of the change log's readers (migration 0250; the writers: lib/change-log.ts). */
export const eventsRepository = {
  /** The highest change id in the log (0 when empty). */
  async lastId(db: Kysely<DB>): Promise<number> {
    const row = await db
      .selectFrom('changes')
      .select((eb) => eb.fn.max('id').as('max'))
      .executeTakeFirst();
    return Number(row?.max ?? 0);
  },

  /**
   * PostgreSQL: the transactions running now (`pg_current_snapshot()`), taken after a read of the log: every id
   * missing below the read's highest was taken by one of them, or by one that rolled back.
   */
  async snapshot(db: Kysely<DB>): Promise<string> {
    const { rows } = await sql<{ snap: string }>`select pg_current_snapshot()::text as snap`.execute(db);
    return rows[0]!.snap;
  },

  /** PostgreSQL: whether every transaction running at `snapshot` has ended (committed or rolled back). */
  async ended(db: Kysely<DB>, snapshot: string): Promise<boolean> {
    const { rows } = await sql<{ done: boolean }>`
      select coalesce(bool_and(pg_xact_status(x) is distinct from 'in progress'), true) as done
      from pg_snapshot_xip(${snapshot}::pg_snapshot) as x`.execute(db);
    return rows[0]!.done;
  },

  /** The highest change id pruned: a resume from before it has lost events. */
  async prunedUpTo(db: Kysely<DB>): Promise<number> {
    const row = await db.selectFrom('changes_pruned').select('up_to').where('id', '=', 1).executeTakeFirst();
    return Number(row?.up_to ?? 0);
  },

  /**
   * Deletes the rows written before `before` (ISO-8601), keeping at least the newest `keep`, and remembers the
   * highest id deleted. One transaction; safe to run on several nodes at once.
   */
  async prune(db: Kysely<DB>, before: string, keep: number): Promise<number> {
    return db.transaction().execute(async (trx) => {
      const newest = await eventsRepository.lastId(trx);
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
  },

  /**
   * The rows with an id above `after` (in id order, at most `limit`), each with its item's path: as recorded (a
   * delete, a template), else where the item is now (one query for the batch). A change of a node that no longer
   * exists is left out (its delete is in the log too); `ids` and `lastId` count every row read, left out or not,
   * so a reader moves past them.
   */
  async after(
    db: Kysely<DB>,
    after: number,
    limit: number,
  ): Promise<{ found: { row: ChangeRow; path: string }[]; ids: number[]; lastId: number }> {
    const rows = await db
      .selectFrom('changes')
      .selectAll()
      .where('id', '>', after)
      .orderBy('id')
      .limit(limit)
      .execute();
    const unresolved = rows.filter((r) => r.path === null && r.kind !== 'template').map((r) => r.item_id);
    const paths = unresolved.length ? await treeRepository.pathsOf(db, unresolved) : new Map<string, string[]>();
    const found: { row: ChangeRow; path: string }[] = [];
    for (const row of rows) {
      const path = row.path ?? (row.kind === 'template' ? row.item_id : paths.get(row.item_id)?.join('/'));
      if (path !== undefined) found.push({ row, path });
    }
    const ids = rows.map((r) => Number(r.id));
    return { found, ids, lastId: ids.length ? ids[ids.length - 1]! : after };
  },
};
