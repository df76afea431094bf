import { sql, type Kysely, type Migration } from 'kysely';
import { isPostgres } from '../dialect.js';

/**
 * Fewer index entries per asset write. A PUT of an asset's metadata updates its `assets` row and, by trigger
 * (0120), its node's `updated_at`, which the asset library's date listings are indexed on: on PostgreSQL that
 * node update is never HOT, so it added an entry to each of the node table's nine indexes. Measured
 * (bench/README.md, "Asset writes and the node indexes"): the node update was a third of the write's cost.
 *
 * - `nodes_kind_name` goes: `nodes_kind_name_id` (0030) begins with the same columns and serves every query it did.
 * - `assets_updated` goes: nothing reads assets by their row's time (listings sort by the node's), and on
 *   PostgreSQL it kept every update of an asset row from being HOT.
 * - PostgreSQL: the indexes of the rare `landing_page_id` and `link_target_id` (foreign keys, looked up by value)
 *   hold only the rows that have one, so other rows' updates add nothing to them. SQLite updates only the indexes
 *   whose columns a statement changes, so it keeps them as they are.
 */
export const leanWriteIndexes: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.dropIndex('nodes_kind_name').execute();
    await db.schema.dropIndex('assets_updated').execute();
    if (isPostgres(db)) {
      for (const [name, column] of [
        ['nodes_landing_page', 'landing_page_id'],
        ['nodes_link_target', 'link_target_id'],
      ] as const) {
        await db.schema.dropIndex(name).execute();
        await sql`create index ${sql.id(name)} on nodes (${sql.id(column)}) where ${sql.id(column)} is not null`.execute(
          db,
        );
      }
    }
  },
};
