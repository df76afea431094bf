import { sql, type Kysely, type Migration } from 'kysely';
import { isPostgres } from '../dialect.js';

/**
 * An asset's own write may store its new metadata in the same statement (modules/assets/assets.metadata.ts): the
 * node's change that write makes by trigger (its modification time set to the row's, migration 0120) no longer
 * clears the stored doc (0100). The node's change still clears it when it moves or renames the asset, changes its
 * kind, or sets a time the asset's row does not have: the doc shows the node's name, place and time, and only a
 * write of the row itself (which stores or clears the doc in its own statement) sets the node's time to the row's.
 *
 * It also spares that write the second `doc_seq` advance, so the `doc_seq` a write leaves is the one it set.
 */
export const assetDocTouch: Migration = {
  async up(db: Kysely<any>) {
    const clear = sql.raw('doc = null, doc_etag = null, doc_path = null, doc_seq = doc_seq + 1');
    if (isPostgres(db)) {
      await sql`drop trigger nodes_asset_doc on nodes`.execute(db);
      await sql`create or replace function folio_asset_doc_node() returns trigger language plpgsql as $$
        begin
          if new.name is distinct from old.name or new.parent_id is distinct from old.parent_id
            or new.kind is distinct from old.kind
            or new.updated_at is distinct from (select updated_at from assets where node_id = new.id) then
            update assets set ${clear} where node_id = new.id;
          end if;
          return null;
        end $$`.execute(db);
      await sql`create trigger nodes_asset_doc after update on nodes for each row when (new.kind = 'asset')
        execute function folio_asset_doc_node()`.execute(db);
      return;
    }
    await sql`drop trigger nodes_asset_doc`.execute(db);
    await sql`create trigger nodes_asset_doc after update on nodes when new.kind = 'asset' and (
        new.name is not old.name or new.parent_id is not old.parent_id or new.kind is not old.kind
        or new.updated_at is not (select updated_at from assets where node_id = new.id))
      begin update assets set ${clear} where node_id = new.id; end`.execute(db);
  },
};
