import { sql, type Kysely, type Migration } from 'kysely';
import { isPostgres } from '../dialect.js';

/**
 * An asset's last-modified time and folder live on its own row, and the library's date listings are indexed
 * there: an edit of an asset's metadata writes its `assets` row alone.
 *
 * Before, the row's write set its node's `updated_at` by trigger (0120), which the date listings sorted by
 * (`nodes_parent_kind_updated`, `nodes_kind_updated`, 0030). On SQLite that touch made each edit dirty seven
 * pages instead of one (the node's row and an entry moved in each of two indexes over 100k rows), and the WAL
 * checkpoints write each of them back: a loop of the edit's statement on the benchmark data cost ~2.5× the CPU and
 * ~4.5× the time of the row's write alone (bench/README.md). On PostgreSQL the node's update was never HOT.
 *
 * - `assets.parent_id` is the asset node's parent, set on insert (a copied row's is corrected) and kept when the
 *   node moves.
 * - `assets.updated_at` is the asset's last-modified time: its own writes set it, and a write of its node (a
 *   rename, a move) carries the node's time over when later. The node's `updated_at` of an asset is the node's
 *   own last change.
 * - The date listings read `assets_parent_updated` (one folder) and `assets_updated` (the library, deep);
 *   the two node indexes they used go, as nothing else reads them.
 * - A write of the node clears the asset's stored doc as before (0150) when its name, place, kind or time changes.
 */
export const assetOwnTimes: Migration = {
  async up(db: Kysely<any>) {
    const pg = isPostgres(db);
    const clear = sql.raw('doc = null, doc_etag = null, doc_path = null, doc_seq = doc_seq + 1');
    if (pg) {
      await sql`drop trigger assets_touch_node on assets`.execute(db);
      await sql`drop function folio_asset_touch_node()`.execute(db);
      await sql`drop trigger nodes_asset_doc on nodes`.execute(db);
    } else {
      await sql`drop trigger assets_touch_node`.execute(db);
      await sql`drop trigger nodes_asset_doc`.execute(db);
    }
    // Every text column compares bytewise on PostgreSQL (migration 0040).
    await sql`alter table assets add column parent_id text${sql.raw(pg ? ' collate "C"' : '')}`.execute(db);
    // The stored docs stay: they show the node's time, which is what `updated_at` takes here (a node's time is
    // never earlier than its asset row's while 0120 held), and `doc_seq` advances so no trigger clears them.
    await sql`update assets set parent_id = n.parent_id,
        updated_at = case when n.updated_at > assets.updated_at then n.updated_at else assets.updated_at end,
        doc_seq = doc_seq + 1
      from nodes n where n.id = assets.node_id`.execute(db);
    await db.schema
      .createIndex('assets_parent_updated')
      .on('assets')
      .columns(['parent_id', 'updated_at', 'node_id'])
      .execute();
    await db.schema.createIndex('assets_updated').on('assets').columns(['updated_at', 'node_id']).execute();
    await db.schema.dropIndex('nodes_parent_kind_updated').execute();
    await db.schema.dropIndex('nodes_kind_updated').execute();

    if (pg) {
      await sql`create function folio_asset_parent() returns trigger language plpgsql as $$
        begin
          new.parent_id := (select parent_id from nodes where id = new.node_id);
          return new;
        end $$`.execute(db);
      await sql`create trigger assets_parent before insert on assets for each row
        execute function folio_asset_parent()`.execute(db);
      await sql`create or replace function folio_asset_doc_node() returns trigger language plpgsql as $$
        begin
          if new.name is distinct from old.name or new.parent_id is distinct from old.parent_id
            or new.kind is distinct from old.kind or new.updated_at is distinct from old.updated_at then
            update assets set parent_id = new.parent_id, updated_at = greatest(updated_at, new.updated_at), ${clear}
              where node_id = new.id;
          end if;
          return null;
        end $$`.execute(db);
      await sql`create trigger nodes_asset_doc after update on nodes for each row when (new.kind = 'asset')
        execute function folio_asset_doc_node()`.execute(db);
      return;
    }
    await sql`create trigger assets_parent after insert on assets
      when new.parent_id is not (select parent_id from nodes where id = new.node_id)
      begin
        update assets set parent_id = (select parent_id from nodes where id = new.node_id), ${clear}
          where node_id = new.node_id;
      end`.execute(db);
    await sql`create trigger nodes_asset_doc after update on nodes when new.kind = 'asset' and (
        new.name is not old.name or new.parent_id is not old.parent_id or new.kind is not old.kind
        or new.updated_at is not old.updated_at)
      begin
        update assets set parent_id = new.parent_id, updated_at = max(updated_at, new.updated_at), ${clear}
          where node_id = new.id;
      end`.execute(db);
  },
};
