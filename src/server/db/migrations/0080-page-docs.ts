import { sql, type Kysely, type Migration } from 'kysely';
import { isPostgres } from '../dialect.js';

/**
 * The stored representation of each page (`pages.doc`): the page's JSON without its location (`id`, `name`,
 * `siteName`, `folderPath`, which a GET takes from the URL it resolved), so that reading a page is one indexed
 * read. See modules/pages/page-docs.ts for how it is read, written and trusted.
 *
 * - `doc_seq` changes with every write of the row. A write that does not set the doc itself (the pages trigger
 *   sees `doc_seq` unchanged) clears it and advances `doc_seq`, so a doc computed from rows read before that write
 *   can no longer be stored (stores are conditional on the `doc_seq` read first).
 * - Writes to what a page shows besides its own row clear it the same way: its widgets, its own node's name (the
 *   display name defaults to it).
 * - Writes that can change many pages' docs (a template's regions, a shared asset's fields, name or folder, an
 *   asset folder's name or place) advance `page_doc_epoch` instead: a doc is trusted only when stored under the
 *   current epoch. The epoch is a row, not a sequence, so the advance becomes visible only when the writer
 *   commits: a doc computed from data read before that commit carries an older epoch.
 * - A page inserted with a doc (a copy) has it cleared.
 */
export const pageDocs: Migration = {
  async up(db: Kysely<any>) {
    const pg = isPostgres(db);
    await sql`alter table pages add column doc text${sql.raw(pg ? ' collate "C"' : '')}`.execute(db);
    await sql`alter table pages add column doc_epoch bigint`.execute(db);
    await sql`alter table pages add column doc_seq bigint not null default 0`.execute(db);
    await sql`create table page_doc_epoch (id integer primary key, value bigint not null)`.execute(db);
    await sql`insert into page_doc_epoch (id, value) values (1, 1)`.execute(db);

    if (pg) {
      await sql`create function folio_page_doc_own_write() returns trigger language plpgsql as $$
        begin
          if tg_op = 'INSERT' then
            new.doc := null;
          elsif new.doc_seq = old.doc_seq then
            new.doc := null;
            new.doc_seq := old.doc_seq + 1;
          end if;
          return new;
        end $$`.execute(db);
      await sql`create trigger pages_doc_own_write before insert or update on pages for each row
        execute function folio_page_doc_own_write()`.execute(db);

      await sql`create function folio_page_doc_widget() returns trigger language plpgsql as $$
        begin
          if tg_op <> 'INSERT' then
            update pages set doc = null, doc_seq = doc_seq + 1 where node_id = old.page_id;
          end if;
          if tg_op <> 'DELETE' and (tg_op = 'INSERT' or new.page_id is distinct from old.page_id) then
            update pages set doc = null, doc_seq = doc_seq + 1 where node_id = new.page_id;
          end if;
          return null;
        end $$`.execute(db);
      await sql`create trigger widgets_page_doc after insert or update or delete on widgets for each row
        execute function folio_page_doc_widget()`.execute(db);

      await sql`create function folio_page_doc_page_name() returns trigger language plpgsql as $$
        begin
          update pages set doc = null, doc_seq = doc_seq + 1 where node_id = new.id;
          return null;
        end $$`.execute(db);
      await sql`create trigger nodes_page_doc_name after update of name on nodes for each row
        when (new.kind = 'page' and old.name is distinct from new.name)
        execute function folio_page_doc_page_name()`.execute(db);

      await sql`create function folio_page_doc_epoch() returns trigger language plpgsql as $$
        begin
          update page_doc_epoch set value = value + 1 where id = 1;
          return null;
        end $$`.execute(db);
      await sql`create trigger nodes_page_doc_epoch_move after update of name, parent_id on nodes for each row
        when (new.kind in ('asset', 'folder') and (old.name is distinct from new.name
          or old.parent_id is distinct from new.parent_id))
        execute function folio_page_doc_epoch()`.execute(db);
      await sql`create trigger nodes_page_doc_epoch_delete after delete on nodes for each row
        when (old.kind = 'asset') execute function folio_page_doc_epoch()`.execute(db);
      await sql`create trigger assets_page_doc_epoch after update of fields on assets for each row
        when (old.fields is distinct from new.fields) execute function folio_page_doc_epoch()`.execute(db);
      await sql`create trigger templates_page_doc_epoch after update or delete on templates for each row
        execute function folio_page_doc_epoch()`.execute(db);
      return;
    }

    // SQLite: AFTER triggers (recursive_triggers is off, so the pages trigger does not fire for its own update).
    await sql`create trigger pages_doc_insert after insert on pages when new.doc is not null
      begin
        update pages set doc = null, doc_seq = doc_seq + 1 where node_id = new.node_id;
      end`.execute(db);
    await sql`create trigger pages_doc_own_write after update on pages when new.doc_seq = old.doc_seq
      begin
        update pages set doc = null, doc_seq = doc_seq + 1 where node_id = new.node_id;
      end`.execute(db);
    await sql`create trigger widgets_page_doc_insert after insert on widgets
      begin
        update pages set doc = null, doc_seq = doc_seq + 1 where node_id = new.page_id;
      end`.execute(db);
    await sql`create trigger widgets_page_doc_update after update on widgets
      begin
        update pages set doc = null, doc_seq = doc_seq + 1 where node_id in (old.page_id, new.page_id);
      end`.execute(db);
    await sql`create trigger widgets_page_doc_delete after delete on widgets
      begin
        update pages set doc = null, doc_seq = doc_seq + 1 where node_id = old.page_id;
      end`.execute(db);
    await sql`create trigger nodes_page_doc_name after update of name on nodes
      when new.kind = 'page' and old.name is not new.name
      begin
        update pages set doc = null, doc_seq = doc_seq + 1 where node_id = new.id;
      end`.execute(db);
    const bump = sql.raw('update page_doc_epoch set value = value + 1 where id = 1;');
    await sql`create trigger nodes_page_doc_epoch_move after update of name, parent_id on nodes
      when new.kind in ('asset', 'folder') and (old.name is not new.name or old.parent_id is not new.parent_id)
      begin ${bump} end`.execute(db);
    await sql`create trigger nodes_page_doc_epoch_delete after delete on nodes when old.kind = 'asset'
      begin ${bump} end`.execute(db);
    await sql`create trigger assets_page_doc_epoch after update of fields on assets
      when old.fields is not new.fields
      begin ${bump} end`.execute(db);
    await sql`create trigger templates_page_doc_epoch_update after update on templates begin ${bump} end`.execute(db);
    await sql`create trigger templates_page_doc_epoch_delete after delete on templates begin ${bump} end`.execute(db);
  },
};
