import { sql, type Kysely, type Migration } from 'kysely';
import { isPostgres } from '../dialect.js';

/**
 * The stored representation of each asset's metadata (`assets.doc`: the exact JSON a GET answers, with its strong
 * ETag `doc_etag` and the path it was made at, `doc_path`), so that a GET of an asset's metadata reads one row and
 * presents nothing (modules/assets/assets.metadata.ts). A doc is trusted only when read at its own `doc_path`, through
 * the path's lookups in the same statement: the path then leads to this asset now, and the JSON's `name` and
 * `folderPath`, made at that path, are right. The database keeps the rest true:
 *
 * - Any write of the row that does not advance `doc_seq` itself clears the doc and advances it (a store advances
 *   it, and is conditional on the `doc_seq` read with the row it was made from).
 * - Any write of the asset's node (its name, place, modification time) clears it the same way.
 * - A row inserted with a doc (a copy) has it cleared.
 */
export const assetDocs: Migration = {
  async up(db: Kysely<any>) {
    const pg = isPostgres(db);
    // Every text column compares bytewise on PostgreSQL (migration 0040).
    const collate = sql.raw(pg ? ' collate "C"' : '');
    await sql`alter table assets add column doc text${collate}`.execute(db);
    await sql`alter table assets add column doc_etag text${collate}`.execute(db);
    await sql`alter table assets add column doc_path text${collate}`.execute(db);
    await sql`alter table assets add column doc_seq bigint not null default 0`.execute(db);

    if (pg) {
      await sql`create function folio_asset_doc_own_write() returns trigger language plpgsql as $$
        begin
          if tg_op = 'INSERT' or new.doc_seq = old.doc_seq then
            new.doc := null;
            new.doc_etag := null;
            new.doc_path := null;
            if tg_op = 'UPDATE' then
              new.doc_seq := old.doc_seq + 1;
            end if;
          end if;
          return new;
        end $$`.execute(db);
      await sql`create trigger assets_doc_own_write before insert or update on assets for each row
        execute function folio_asset_doc_own_write()`.execute(db);
      await sql`create function folio_asset_doc_node() returns trigger language plpgsql as $$
        begin
          update assets set doc = null, doc_etag = null, doc_path = null, doc_seq = doc_seq + 1
            where node_id = new.id;
          return null;
        end $$`.execute(db);
      await sql`create trigger nodes_asset_doc after update on nodes for each row when (new.kind = 'asset')
        execute function folio_asset_doc_node()`.execute(db);
      return;
    }

    // SQLite: AFTER triggers (recursive_triggers is off, so a trigger's own update does not fire it again).
    const clear = sql.raw('doc = null, doc_etag = null, doc_path = null, doc_seq = doc_seq + 1');
    await sql`create trigger assets_doc_insert after insert on assets when new.doc is not null
      begin update assets set ${clear} where node_id = new.node_id; end`.execute(db);
    await sql`create trigger assets_doc_own_write after update on assets when new.doc_seq = old.doc_seq
      begin update assets set ${clear} where node_id = new.node_id; end`.execute(db);
    await sql`create trigger nodes_asset_doc after update on nodes when new.kind = 'asset'
      begin update assets set ${clear} where node_id = new.id; end`.execute(db);
  },
};
