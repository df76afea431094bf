import type { Kysely, Migration } from 'kysely';

/**
 * Indexes for the asset library listing (keyset pagination by last-modified date): within one folder
 * (`parent_id, kind, updated_at, id`) and across the whole library (`kind, updated_at, id`). Listing by name
 * uses `nodes_parent_kind_name` and `nodes_kind_name` of the initial schema.
 */
export const assetsListIndexes: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createIndex('nodes_parent_kind_updated')
      .on('nodes')
      .columns(['parent_id', 'kind', 'updated_at', 'id'])
      .execute();
    await db.schema.createIndex('nodes_kind_updated').on('nodes').columns(['kind', 'updated_at', 'id']).execute();
    await db.schema.createIndex('nodes_kind_name_id').on('nodes').columns(['kind', 'name', 'id']).execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropIndex('nodes_kind_name_id').execute();
    await db.schema.dropIndex('nodes_kind_updated').execute();
    await db.schema.dropIndex('nodes_parent_kind_updated').execute();
  },
};
