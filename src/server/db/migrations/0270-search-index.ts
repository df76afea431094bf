import { sql, type Kysely, type Migration } from 'kysely';
import { isPostgres } from '../dialect.js';

/**
 * Full-text search (modules/search): one row per page, asset and folder item in `search_docs` — its title and the
 * words of everything editors wrote in it — indexed by the database's own engine: an FTS5 table over the rows on
 * SQLite (external content, Porter stemming), a weighted `tsvector` column with a GIN index on PostgreSQL (English).
 *
 * The rows are written by triggers on `nodes`, `pages`, `widgets` and `assets`, as the change log's are (migration
 * 0250): inside the statement that writes the content, so every write way (PUT, upload, rename, copy, bulk workflow,
 * delete) keeps the index true in its own transaction and no later one can forget it. A row holds the node id, not
 * a path: moves need no reindexing, and paths, folders and access are resolved through the tree when searching.
 *
 * - title: a page's display name, an asset's display title, a folder item's display title; else the item's name.
 * - body: the name; a page's summary, SEO fields and every local widget's fields; an asset's fields and its image
 *   or file data (the file name); rich text as text (`folio_search_text`, db/search-text.ts).
 *
 * Triggers and functions are named `*_search_*` (`folio_search_*`): a rule set apart from the stored docs'.
 */
export const searchIndex: Migration = {
  async up(db: Kysely<any>) {
    const pg = isPostgres(db);
    const c = sql.raw(pg ? ' collate "C"' : '');
    const id = sql.raw(pg ? 'bigserial primary key' : 'integer primary key');
    const field = (col: string, key: string) =>
      pg ? `(${col}::jsonb ->> '${key}')` : `json_extract(${col}, '$.${key}')`;
    const cat = (parts: string[]) => parts.map((p) => `coalesce(${p}, '')`).join(` || ' ' || `);

    if (pg) {
      await sql`create function folio_search_text(j text) returns text language sql immutable as $$
        select coalesce(string_agg(
          regexp_replace(
            replace(replace(replace(replace(replace(replace(
              regexp_replace(s #>> '{}', '<[^>]*>', ' ', 'g'),
              '&nbsp;', ' '), '&lt;', '<'), '&gt;', '>'), '&quot;', '"'), '&#39;', ''''), '&amp;', '&'),
            '[\\x01-\\x08\\x0e-\\x1f]', ' ', 'g'),
          ' '), '')
        from jsonb_path_query(j::jsonb, 'strict $.**') s
        where jsonb_typeof(s) = 'string'
      $$`.execute(db);
    }

    await sql`create table search_docs (
        id ${id},
        node_id text${c} not null unique references nodes(id) on delete cascade,
        kind text${c} not null,
        title text${c} not null,
        body text${c} not null
        ${sql.raw(
          pg
            ? `, tsv tsvector generated always as (
                setweight(to_tsvector('english', title), 'A') || setweight(to_tsvector('english', body), 'B')) stored`
            : '',
        )}
      )`.execute(db);
    if (pg) {
      await sql`create index search_docs_tsv on search_docs using gin (tsv)`.execute(db);
    } else {
      await sql`create virtual table search_fts using fts5(title, body, content='search_docs', content_rowid='id',
          tokenize='porter unicode61 remove_diacritics 2')`.execute(db);
      // The FTS table follows its content rows (external content: the text is stored once).
      await sql`create trigger search_docs_search_insert after insert on search_docs begin
          insert into search_fts (rowid, title, body) values (new.id, new.title, new.body);
        end`.execute(db);
      await sql`create trigger search_docs_search_delete after delete on search_docs begin
          insert into search_fts (search_fts, rowid, title, body) values ('delete', old.id, old.title, old.body);
        end`.execute(db);
      await sql`create trigger search_docs_search_update after update on search_docs begin
          insert into search_fts (search_fts, rowid, title, body) values ('delete', old.id, old.title, old.body);
          insert into search_fts (rowid, title, body) values (new.id, new.title, new.body);
        end`.execute(db);
    }

    const widgetsText = `(select ${pg ? "string_agg(folio_search_text(w.fields), ' ')" : "group_concat(folio_search_text(w.fields), ' ')"}
      from widgets w where w.page_id = n.id)`;
    /** Writes the search rows of the nodes `where` picks from their rows now. */
    const upsert = (where: string) => `
      insert into search_docs (node_id, kind, title, body)
      select n.id,
        case when n.kind in ('page', 'asset') then n.kind else 'folder' end,
        coalesce(nullif(p.display_name, ''), nullif(${field('a.fields', 'displaytitle')}, ''),
          nullif(n.display_title, ''), n.name),
        ${cat([
          'n.name',
          'p.summary',
          'folio_search_text(p.seo)',
          `case when p.node_id is not null then ${widgetsText} end`,
          'folio_search_text(a.fields)',
          'folio_search_text(a.image)',
          'folio_search_text(a.file)',
        ])}
      from nodes n
        left join pages p on p.node_id = n.id
        left join assets a on a.node_id = n.id
      where ${where}
      on conflict (node_id) do update set kind = excluded.kind, title = excluded.title, body = excluded.body`;

    /** Writes the search row of the node `idExpr` (nothing when the node is gone, or without a row and `onlyExisting`). */
    const refresh = (idExpr: string, onlyExisting = false) =>
      upsert(
        `n.id = ${idExpr} and n.kind <> 'root'` +
          (onlyExisting ? ` and exists (select 1 from search_docs e where e.node_id = ${idExpr})` : ''),
      );
    const changed = (cols: string[]) =>
      cols.map((col) => (pg ? `new.${col} is distinct from old.${col}` : `new.${col} is not old.${col}`)).join(' or ');
    // [table, event, when, statement]
    const rules: [string, 'insert' | 'update' | 'delete', string, string][] = [
      ['nodes', 'insert', `new.kind <> 'root'`, refresh('new.id')],
      ['nodes', 'update', changed(['name', 'display_title', 'kind']), refresh('new.id')],
      ['pages', 'insert', 'true', refresh('new.node_id')],
      ['pages', 'update', changed(['display_name', 'summary', 'seo']), refresh('new.node_id')],
      ['assets', 'insert', 'true', refresh('new.node_id')],
      ['assets', 'update', changed(['fields', 'image', 'file']), refresh('new.node_id')],
      ['widgets', 'insert', 'true', refresh('new.page_id', true)],
      ['widgets', 'update', changed(['fields', 'page_id']), refresh('new.page_id', true)],
      ['widgets', 'delete', 'true', refresh('old.page_id', true)],
    ];
    for (const [table, event, when, statement] of rules) {
      const name = `${table}_search_${event}`;
      if (pg) {
        await sql`create function ${sql.raw(`folio_search_${table}_${event}`)}() returns trigger language plpgsql as $$
            begin
              ${sql.raw(statement)};
              return null;
            end $$`.execute(db);
        await sql`create trigger ${sql.raw(name)} after ${sql.raw(event)} on ${sql.raw(table)} for each row
            ${sql.raw(when === 'true' ? '' : `when (${when})`)}
            execute function ${sql.raw(`folio_search_${table}_${event}`)}()`.execute(db);
      } else {
        await sql`create trigger ${sql.raw(name)} after ${sql.raw(event)} on ${sql.raw(table)}
            ${sql.raw(when === 'true' ? '' : `when ${when}`)}
            begin ${sql.raw(statement)}; end`.execute(db);
      }
    }

    // The content that exists already.
    await sql.raw(upsert(`n.kind <> 'root'`)).execute(db);
  },
};
