import { sql, type Kysely, type Migration } from 'kysely';
import { isPostgres } from '../dialect.js';

/**
 * How many assets each folder holds directly (`folder_asset_counts`), so an asset listing without filters answers
 * its exact `total` without counting the folder's rows (100k assets: ~3 ms on SQLite per page, more on
 * PostgreSQL). Triggers on `nodes` keep it exact on every write path — creating, deleting (also by cascade when a
 * folder goes), moving (a change of `parent_id`), copying — in the same transaction as the write, so it cannot
 * drift. A folder without a row holds no assets. Existing counts are filled in here.
 */
export const folderAssetCounts: Migration = {
  async up(db: Kysely<any>) {
    await sql`create table folder_asset_counts (
      folder_id text ${sql.raw(isPostgres(db) ? 'collate "C" ' : '')}primary key references nodes (id) on delete cascade,
      n bigint not null
    )`.execute(db);
    await sql`insert into folder_asset_counts (folder_id, n)
      select parent_id, count(*) from nodes where kind = 'asset' and parent_id is not null group by parent_id`.execute(
      db,
    );
    if (isPostgres(db)) {
      await sql`create function folio_count_folder_assets() returns trigger language plpgsql as $$
        begin
          if tg_op <> 'INSERT' then
            update folder_asset_counts set n = n - 1 where folder_id = old.parent_id;
          end if;
          if tg_op <> 'DELETE' then
            insert into folder_asset_counts (folder_id, n) values (new.parent_id, 1)
              on conflict (folder_id) do update set n = folder_asset_counts.n + 1;
          end if;
          return null;
        end $$`.execute(db);
      await sql`create trigger nodes_asset_count_insert after insert on nodes for each row
        when (new.kind = 'asset') execute function folio_count_folder_assets()`.execute(db);
      await sql`create trigger nodes_asset_count_delete after delete on nodes for each row
        when (old.kind = 'asset') execute function folio_count_folder_assets()`.execute(db);
      await sql`create trigger nodes_asset_count_move after update of parent_id on nodes for each row
        when (new.kind = 'asset' and old.parent_id is distinct from new.parent_id)
        execute function folio_count_folder_assets()`.execute(db);
      return;
    }
    await sql`create trigger nodes_asset_count_insert after insert on nodes when new.kind = 'asset'
      begin
        insert into folder_asset_counts (folder_id, n) values (new.parent_id, 1)
          on conflict (folder_id) do update set n = n + 1;
      end`.execute(db);
    await sql`create trigger nodes_asset_count_delete after delete on nodes when old.kind = 'asset'
      begin
        update folder_asset_counts set n = n - 1 where folder_id = old.parent_id;
      end`.execute(db);
    await sql`create trigger nodes_asset_count_move after update of parent_id on nodes
      when new.kind = 'asset' and old.parent_id is not new.parent_id
      begin
        update folder_asset_counts set n = n - 1 where folder_id = old.parent_id;
        insert into folder_asset_counts (folder_id, n) values (new.parent_id, 1)
          on conflict (folder_id) do update set n = n + 1;
      end`.execute(db);
  },
  async down(db: Kysely<any>) {
    for (const name of ['nodes_asset_count_insert', 'nodes_asset_count_delete', 'nodes_asset_count_move']) {
      await sql`drop trigger if exists ${sql.id(name)}${sql.raw(isPostgres(db) ? ' on nodes' : '')}`.execute(db);
    }
    if (isPostgres(db)) await sql`drop function if exists folio_count_folder_assets()`.execute(db);
    await sql`drop table folder_asset_counts`.execute(db);
  },
};
