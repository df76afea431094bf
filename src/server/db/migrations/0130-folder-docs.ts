import { sql, type Kysely, type Migration } from 'kysely';
import { isPostgres } from '../dialect.js';

/**
 * The stored representation of a site, folder, section, external link or asset folder (`folder_docs`: the exact
 * JSON a GET answers, its strong ETag, the path it was made at, the access level it shows and the lowest access
 * level set on that path), so that a GET of one is one indexed read by its path, however many children it lists
 * (modules/folders/folders.read.ts). The database keeps a doc true:
 *
 * - `seq` advances with every change of what the JSON shows: a write of a column of the item's own node that it
 *   shows, and the insert, delete or change of a child's name, kind, place, order or link (a row with no doc is
 *   inserted when there is none, so a reader who saw no row cannot store afterwards). A store is conditional on the `seq` read with the
 *   rows it was made from (or, with no row read, on there still being none).
 * - A doc is trusted only under the current `folder_doc_epoch`, which advances when a container is renamed or
 *   moved (every path below changes) or any access level is set (the levels below change). The epoch is a row, so
 *   its advance is seen when the writer commits: a doc made from rows read before carries the older epoch.
 * - Deleting a node deletes its row; rows are made only for nodes that exist.
 *
 * A separate table, not columns of `nodes`: the path lookups read nodes on every request, and stay narrow.
 */
export const folderDocs: Migration = {
  async up(db: Kysely<any>) {
    const pg = isPostgres(db);
    const collate = sql.raw(pg ? ' collate "C"' : '');
    await sql`create table folder_docs (
      node_id text${collate} primary key,
      seq bigint not null,
      doc text${collate},
      doc_etag text${collate},
      doc_path text${collate},
      doc_access text${collate},
      doc_cap text${collate},
      doc_epoch bigint
    )`.execute(db);
    await sql`create index folder_docs_path on folder_docs (doc_path)`.execute(db);
    await sql`create table folder_doc_epoch (id integer primary key, value bigint not null)`.execute(db);
    await sql`insert into folder_doc_epoch (id, value) values (1, 1)`.execute(db);

    // The kinds a GET of a folder answers from a stored doc (section links show their target's path: never).
    const stored = sql.raw(`('root', 'library', 'site', 'folder', 'section', 'externallink')`);
    // Containers: what may have folders below it.
    const containers = sql.raw(`('root', 'library', 'site', 'folder', 'section')`);
    // The columns of a node that its own JSON shows (not its modification time, which writes of pages and assets
    // below touch), and those of a child that its parent's JSON shows: triggers on updates of anything else never run.
    const ownColumns = sql.raw(
      'name, parent_id, kind, workflow, access_level, display_title, target_window, nav_class, template_name, ' +
        'external_url, link_target_id, landing_page_id',
    );
    const childColumns = sql.raw('parent_id, name, kind, sort_order, link_target_id, external_url');
    // Which changes of a child the parent's JSON shows.
    const childChanged = (distinct: string) =>
      sql.raw(
        ['parent_id', 'name', 'kind', 'sort_order', 'link_target_id', 'external_url']
          .map((c) => `old.${c} ${distinct} new.${c}`)
          .join(' or '),
      );

    if (pg) {
      await sql`create function folio_folder_doc_bump(target text) returns void language sql as $$
        insert into folder_docs (node_id, seq) select target, 1 where exists (select 1 from nodes where id = target)
        on conflict (node_id) do update set seq = folder_docs.seq + 1,
          doc = null, doc_etag = null, doc_path = null, doc_access = null
      $$`.execute(db);
      await sql`create function folio_folder_doc_nodes() returns trigger language plpgsql as $$
        begin
          if tg_op = 'INSERT' then
            if new.parent_id is not null then perform folio_folder_doc_bump(new.parent_id); end if;
          elsif tg_op = 'DELETE' then
            delete from folder_docs where node_id = old.id;
            if old.parent_id is not null then perform folio_folder_doc_bump(old.parent_id); end if;
          else
            if new.kind in ${stored} then perform folio_folder_doc_bump(new.id); end if;
            if ${childChanged('is distinct from')} then
              if old.parent_id is not null then perform folio_folder_doc_bump(old.parent_id); end if;
              if new.parent_id is distinct from old.parent_id and new.parent_id is not null then
                perform folio_folder_doc_bump(new.parent_id);
              end if;
            end if;
          end if;
          return null;
        end $$`.execute(db);
      await sql`create trigger nodes_folder_doc after insert or delete on nodes for each row
        execute function folio_folder_doc_nodes()`.execute(db);
      await sql`create trigger nodes_folder_doc_update after update of ${ownColumns}, sort_order on nodes for each row
        execute function folio_folder_doc_nodes()`.execute(db);
      await sql`create function folio_folder_doc_epoch() returns trigger language plpgsql as $$
        begin
          update folder_doc_epoch set value = value + 1 where id = 1;
          return null;
        end $$`.execute(db);
      await sql`create trigger nodes_folder_doc_epoch after update of name, parent_id, kind, access_level on nodes
        for each row when (old.access_level is distinct from new.access_level or old.kind is distinct from new.kind
          or (new.kind in ${containers} and (old.name is distinct from new.name
            or old.parent_id is distinct from new.parent_id)))
        execute function folio_folder_doc_epoch()`.execute(db);
      return;
    }

    // SQLite: one upsert per parent to advance (rows only for nodes that exist).
    const bump = (target: string) =>
      sql.raw(`insert into folder_docs (node_id, seq) select ${target}, 1 where exists
        (select 1 from nodes where id = ${target})
        on conflict (node_id) do update set seq = seq + 1,
          doc = null, doc_etag = null, doc_path = null, doc_access = null;`);
    await sql`create trigger nodes_folder_doc_insert after insert on nodes when new.parent_id is not null
      begin ${bump('new.parent_id')} end`.execute(db);
    await sql`create trigger nodes_folder_doc_delete after delete on nodes
      begin
        delete from folder_docs where node_id = old.id;
        ${bump('old.parent_id')}
      end`.execute(db);
    await sql`create trigger nodes_folder_doc_own after update of ${ownColumns} on nodes when new.kind in ${stored}
      begin ${bump('new.id')} end`.execute(db);
    await sql`create trigger nodes_folder_doc_epoch after update of name, parent_id, kind, access_level on nodes
      when old.access_level is not new.access_level or old.kind is not new.kind
        or (new.kind in ${containers} and (old.name is not new.name or old.parent_id is not new.parent_id))
      begin
        update folder_doc_epoch set value = value + 1 where id = 1;
      end`.execute(db);
    await sql`create trigger nodes_folder_doc_child after update of ${childColumns} on nodes
      when ${childChanged('is not')}
      begin
        ${bump('old.parent_id')}
        ${bump('new.parent_id')}
      end`.execute(db);
  },
};
