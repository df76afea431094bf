import { sql, type Kysely, type Migration } from 'kysely';
import { isPostgres } from '../dialect.js';

/**
 * An asset's node shows its row's modification time: a write of `assets.updated_at` sets the node's too, in the
 * same statement (as 0090 does for pages), so a PUT of an asset's metadata is one `UPDATE`
 * (modules/assets/assets.metadata.ts). The node's change then clears the asset's stored doc (0100), as any write
 * of the row does.
 */
export const assetTouchNode: Migration = {
  async up(db: Kysely<any>) {
    if (isPostgres(db)) {
      await sql`create function folio_asset_touch_node() returns trigger language plpgsql as $$
        begin
          update nodes set updated_at = new.updated_at where id = new.node_id;
          return null;
        end $$`.execute(db);
      await sql`create trigger assets_touch_node after update of updated_at on assets for each row
        when (old.updated_at is distinct from new.updated_at) execute function folio_asset_touch_node()`.execute(db);
      return;
    }
    await sql`create trigger assets_touch_node after update of updated_at on assets
      when old.updated_at is not new.updated_at
      begin
        update nodes set updated_at = new.updated_at where id = new.node_id;
      end`.execute(db);
  },
};
