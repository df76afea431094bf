import { sql, type Kysely, type Migration } from 'kysely';
import { isPostgres } from '../dialect.js';

/**
 * Where each stored page doc was last read (`pages.doc_path`, the page's path segments joined by `/`) and the
 * strong ETag of the page's JSON at that path (`doc_etag`), so that a GET of a page is one indexed read of
 * `pages` by its path (modules/pages/page-docs.ts). A stored path is trusted like the doc, under the current
 * epoch, and the database keeps it true:
 *
 * - Any change of the doc that does not set a new ETag in the same statement clears the path and the ETag (a
 *   new doc always has a new ETag: the ETag hashes the page's JSON, which holds the doc).
 * - A page's move clears its path (a rename already clears its doc).
 * - A rename or move of a site or section, or any change of a node's kind, advances `page_doc_epoch`, as the
 *   rename or move of a folder already did (migration 0080): every page below may have a new path.
 *
 * And a page's node shows its row's modification time: a write of `pages.updated_at` sets the node's too, in the
 * same statement (so a PUT of a page's fields is one `UPDATE`).
 *
 * Stores of a path are conditional on `doc_seq` and on the epoch read in the same statement as the path itself,
 * so a path read before a rename's commit is never trusted after it.
 */
export const pageDocPaths: Migration = {
  async up(db: Kysely<any>) {
    const pg = isPostgres(db);
    const collate = sql.raw(pg ? ' collate "C"' : '');
    await sql`alter table pages add column doc_path text${collate}`.execute(db);
    await sql`alter table pages add column doc_etag text${collate}`.execute(db);
    await sql`create index pages_doc_path on pages (doc_path)`.execute(db);

    if (pg) {
      // The doc's own trigger of 0080, plus: a doc that changes without a new ETag alongside loses its path.
      await sql`create or replace function folio_page_doc_own_write() returns trigger language plpgsql as $$
        begin
          if tg_op = 'INSERT' then
            new.doc := null;
            new.doc_path := null;
            new.doc_etag := null;
          else
            if new.doc_seq = old.doc_seq then
              new.doc := null;
              new.doc_seq := old.doc_seq + 1;
            end if;
            if new.doc is distinct from old.doc and new.doc_etag is not distinct from old.doc_etag then
              new.doc_path := null;
              new.doc_etag := null;
            end if;
          end if;
          return new;
        end $$`.execute(db);
      await sql`create function folio_page_doc_path_move() returns trigger language plpgsql as $$
        begin
          update pages set doc_path = null, doc_etag = null, doc_seq = doc_seq + 1 where node_id = new.id;
          return null;
        end $$`.execute(db);
      await sql`create trigger nodes_page_doc_path_move after update of parent_id on nodes for each row
        when (new.kind = 'page' and old.parent_id is distinct from new.parent_id)
        execute function folio_page_doc_path_move()`.execute(db);
      await sql`create trigger nodes_page_doc_epoch_path after update of name, parent_id, kind on nodes for each row
        when ((new.kind in ('site', 'section') and (old.name is distinct from new.name
          or old.parent_id is distinct from new.parent_id)) or old.kind is distinct from new.kind)
        execute function folio_page_doc_epoch()`.execute(db);
      await sql`create function folio_page_touch_node() returns trigger language plpgsql as $$
        begin
          update nodes set updated_at = new.updated_at where id = new.node_id;
          return null;
        end $$`.execute(db);
      await sql`create trigger pages_touch_node after update of updated_at on pages for each row
        when (old.updated_at is distinct from new.updated_at) execute function folio_page_touch_node()`.execute(db);
      return;
    }

    // SQLite: AFTER triggers; each update of pages advances doc_seq, so 0080's own-write trigger keeps the doc.
    await sql`create trigger pages_doc_path_stale after update of doc on pages
      when new.doc is not old.doc and new.doc_etag is old.doc_etag and new.doc_etag is not null
      begin
        update pages set doc_path = null, doc_etag = null, doc_seq = doc_seq + 1 where node_id = new.node_id;
      end`.execute(db);
    await sql`create trigger pages_doc_path_insert after insert on pages when new.doc_path is not null
      begin
        update pages set doc_path = null, doc_etag = null, doc_seq = doc_seq + 1 where node_id = new.node_id;
      end`.execute(db);
    await sql`create trigger nodes_page_doc_path_move after update of parent_id on nodes
      when new.kind = 'page' and old.parent_id is not new.parent_id
      begin
        update pages set doc_path = null, doc_etag = null, doc_seq = doc_seq + 1 where node_id = new.id;
      end`.execute(db);
    await sql`create trigger nodes_page_doc_epoch_path after update of name, parent_id, kind on nodes
      when (new.kind in ('site', 'section') and (old.name is not new.name or old.parent_id is not new.parent_id))
        or old.kind is not new.kind
      begin
        update page_doc_epoch set value = value + 1 where id = 1;
      end`.execute(db);
    await sql`create trigger pages_touch_node after update of updated_at on pages
      when old.updated_at is not new.updated_at
      begin
        update nodes set updated_at = new.updated_at where id = new.node_id;
      end`.execute(db);
  },
};
