import { sql, type Kysely, type Migration } from 'kysely';
import { isPostgres } from '../dialect.js';
import {
  all,
  changed,
  distinct,
  renderDocTriggers,
  type DocRule,
  type RenderContext,
  type Sql,
} from '../doc-triggers.js';
import { DOC_ROW_KEYS, DOC_RULES } from './0240-doc-triggers.js';

/*
 * Everything the database writes beside a row, as one description (doc-triggers.ts renders it for each dialect)
 * instead of five written apart (issue 36 item 4): the stored docs (0240, whose list this takes as it shipped), the
 * change log (0250), the search queue (0360, on the changes 0270 indexed), SQLite's full-text tables following
 * `search_docs` (0270/0320) and the revisions (0280; on PostgreSQL once per statement for pages since 0370). What
 * each rule does is what those did (their comments say why).
 *
 * Each table now has one trigger per event on SQLite (35 triggers before, 16 after) and on PostgreSQL one BEFORE
 * and one AFTER trigger and function (23 triggers and 21 functions before, 8 and 8 after, `folio_search_text`
 * included). The AFTER rules of `pages` run once per statement over its transition tables, as 0370's did; that
 * takes one trigger per event (PostgreSQL allows transition tables on single-event triggers only).
 *
 * Within a table's trigger the rules run in the order of the list, the stored docs' first. On PostgreSQL the docs'
 * rules that set the written row are its BEFORE trigger, so the revision copies the doc as they left it (as it
 * did); on SQLite they clear a doc by an update after the write, and every rule reads the statement's `new` values
 * (as each trigger did).
 */

function text(s: Sql, c: RenderContext): string {
  return typeof s === 'string' ? s : s(c);
}

/** The change log (0250): an insert, or an update that moves the row's own `updated_at` (nodes: name or place). */
const logChange =
  (kind: string, id: string, etag: Sql, actor: string): Sql =>
  (c) => `insert into changes (kind, item_id, etag, actor, at)
    select ${kind}, ${id}, ${text(etag, c)}, ${actor}, new.updated_at ${c.rows} where ${c.guard}`;

/** An update's ETag: the new one when `doc_etag` moved. */
const movedEtag: Sql = (c) => `case when ${text(distinct('new.doc_etag', 'old.doc_etag'), c)} then new.doc_etag end`;

const ASSET_ACTOR = 'coalesce(new.updated_by, (select updated_by from nodes where id = new.node_id))';

const CHANGE_RULES: DocRule[] = [
  { table: 'pages', on: ['insert'], run: [logChange(`'page'`, 'new.node_id', 'new.doc_etag', 'new.updated_by')] },
  {
    table: 'pages',
    on: ['update'],
    when: changed('updated_at'),
    run: [logChange(`'page'`, 'new.node_id', movedEtag, 'new.updated_by')],
  },
  { table: 'assets', on: ['insert'], run: [logChange(`'asset'`, 'new.node_id', 'new.doc_etag', ASSET_ACTOR)] },
  {
    table: 'assets',
    on: ['update'],
    when: changed('updated_at'),
    run: [logChange(`'asset'`, 'new.node_id', movedEtag, ASSET_ACTOR)],
  },
  { table: 'templates', on: ['insert'], run: [logChange(`'template'`, 'new.name', 'null', 'new.updated_by')] },
  {
    table: 'templates',
    on: ['update'],
    when: changed('updated_at'),
    run: [logChange(`'template'`, 'new.name', 'null', 'new.updated_by')],
  },
  {
    table: 'nodes',
    on: ['insert'],
    when: `new.kind not in ('page', 'asset')`,
    run: [logChange('new.kind', 'new.id', 'null', 'new.updated_by')],
  },
  {
    table: 'nodes',
    on: ['update'],
    when: all(`new.kind <> 'asset'`, changed('updated_at', 'name', 'parent_id')),
    run: [logChange('new.kind', 'new.id', 'null', 'new.updated_by')],
  },
];

/** The search queue (0360): the item's id, when a column its search row shows changed. */
const queue =
  (id: string): Sql =>
  (c) =>
    `insert into search_queue (node_id) select ${id} ${c.rows} where ${c.guard} on conflict do nothing`;

const SEARCH_RULES: DocRule[] = [
  { table: 'nodes', on: ['insert'], when: `new.kind <> 'root'`, run: [queue('new.id')] },
  { table: 'nodes', on: ['update'], when: changed('name', 'display_title', 'kind'), run: [queue('new.id')] },
  { table: 'pages', on: ['insert'], run: [queue('new.node_id')] },
  { table: 'pages', on: ['update'], when: changed('display_name', 'summary', 'seo'), run: [queue('new.node_id')] },
  { table: 'assets', on: ['insert'], run: [queue('new.node_id')] },
  { table: 'assets', on: ['update'], when: changed('fields', 'image', 'file'), run: [queue('new.node_id')] },
  { table: 'widgets', on: ['insert'], run: [queue('new.page_id')] },
  { table: 'widgets', on: ['update'], when: changed('fields', 'page_id'), run: [queue('new.page_id')] },
  { table: 'widgets', on: ['delete'], run: [queue('old.page_id')] },
];

/** SQLite's full-text tables (external content) follow `search_docs` (0320); the title one when the title changes. */
const FULL_TEXT_RULES: DocRule[] = [
  {
    table: 'search_docs',
    on: ['insert'],
    only: 'sqlite',
    run: [
      'insert into search_fts (rowid, title, body) values (new.id, new.title, new.body)',
      'insert into search_title_fts (rowid, title) values (new.id, new.title)',
    ],
  },
  {
    table: 'search_docs',
    on: ['delete'],
    only: 'sqlite',
    run: [
      `insert into search_fts (search_fts, rowid, title, body) values ('delete', old.id, old.title, old.body)`,
      `insert into search_title_fts (search_title_fts, rowid, title) values ('delete', old.id, old.title)`,
    ],
  },
  {
    table: 'search_docs',
    on: ['update'],
    only: 'sqlite',
    run: [
      `insert into search_fts (search_fts, rowid, title, body) values ('delete', old.id, old.title, old.body)`,
      'insert into search_fts (rowid, title, body) values (new.id, new.title, new.body)',
    ],
  },
  {
    table: 'search_docs',
    on: ['update'],
    only: 'sqlite',
    when: changed('title'),
    run: [
      (c) => `insert into search_title_fts (search_title_fts, rowid, title)
        select 'delete', old.id, old.title where ${c.guard}`,
      (c) => `insert into search_title_fts (rowid, title) select new.id, new.title where ${c.guard}`,
    ],
  },
];

/** The revisions (0280): what a write that moves `revision` records. */
const FILE_COLUMNS = [
  'fields',
  'blob_key',
  'thumb_blob_key',
  'content_type',
  'size',
  'sha256',
  'image',
  'file',
  'thumbnail',
];

/** The revision `new.revision` of the row: its doc, state, time, who, and (assets) its file. */
const record =
  (kind: 'page' | 'asset', savedBy: string): Sql =>
  (c) => {
    const files = kind === 'asset' ? FILE_COLUMNS.map((col) => `new.${col}`) : FILE_COLUMNS.map(() => 'null');
    return `insert into revisions (item_id, revision, kind, saved_at, saved_by, state, doc, ${FILE_COLUMNS.join(', ')})
    select new.node_id, new.revision, '${kind}', new.updated_at, ${savedBy}, new.workflow_state, new.doc,
      ${files.join(', ')}
    ${c.rows} where ${c.guard}`;
  };

/** Public: this revision is live now; Archive: none is. */
const live: Sql[] = [
  (c) => `insert into live_revisions (item_id, revision) select new.node_id, new.revision
    ${c.rows} where new.workflow_state = 'Public' and ${c.guard}
    on conflict (item_id) do update set revision = excluded.revision`,
  (c) => `delete from live_revisions
    where item_id in (select new.node_id ${c.rows} where new.workflow_state = 'Archive' and ${c.guard})`,
];

/** The ISO time `days` days before `at`, in the format every `updated_at` has. */
const daysBefore = (at: string, days: string, pg: boolean) =>
  pg
    ? `to_char((${at}::timestamptz - make_interval(days => ${days}::int)) at time zone 'UTC', ` +
      `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`
    : `strftime('%Y-%m-%dT%H:%M:%fZ', ${at}, '-' || ${days} || ' days')`;

/**
 * Removes the item's revisions beyond the retention, but the live one and the one just written. The item's id
 * comes first by itself, so its revisions are found by the key.
 */
export const prune: Sql = (c) => `delete from revisions
    where item_id in (select new.node_id ${c.rows} where ${c.guard})
      and exists (select 1 ${c.rows} where new.node_id = revisions.item_id and revisions.revision < new.revision
        and revisions.revision <> coalesce((select l.revision from live_revisions l where l.item_id = new.node_id), -1)
        and exists (select 1 from revision_retention r where r.id = 1 and (
          (r.keep_count is not null and revisions.revision <= new.revision - r.keep_count)
          or (r.keep_days is not null and revisions.saved_at < ${daysBefore('new.updated_at', 'r.keep_days', c.pg)})))
        and ${c.guard})`;

export const RETAINING = `exists (select 1 from revision_retention where id = 1 and
  (keep_count is not null or keep_days is not null))`;

const revisionRules = (table: 'pages' | 'assets', kind: 'page' | 'asset', savedBy: string): DocRule[] => [
  { table, on: ['update'], when: changed('revision'), run: [record(kind, savedBy), ...live] },
  { table, on: ['update'], when: all(changed('revision'), RETAINING), run: [prune] },
];

const REVISION_RULES: DocRule[] = [
  ...revisionRules('pages', 'page', 'new.updated_by'),
  ...revisionRules('assets', 'asset', ASSET_ACTOR),
];

/** Every rule, in the order each table's trigger runs them. */
export const TRIGGER_RULES: readonly DocRule[] = [
  ...DOC_RULES,
  ...CHANGE_RULES,
  ...SEARCH_RULES,
  ...REVISION_RULES,
  ...FULL_TEXT_RULES,
];
export const TRIGGER_ROW_KEYS = DOC_ROW_KEYS;
/** PostgreSQL: the tables whose AFTER rules run once per statement (0370). */
export const PER_STATEMENT = ['pages'];

/** The triggers migrations 0240–0370 left on SQLite. */
const SQLITE_BEFORE = [
  'assets_change_insert',
  'assets_change_update',
  'assets_search_insert',
  'assets_search_update',
  'docs_assets_insert',
  'docs_assets_update',
  'revisions_assets_update',
  'docs_nodes_delete',
  'docs_nodes_insert',
  'docs_nodes_update',
  'nodes_change_insert',
  'nodes_change_update',
  'nodes_search_insert',
  'nodes_search_update',
  'docs_pages_insert',
  'docs_pages_update',
  'pages_change_insert',
  'pages_change_update',
  'pages_search_insert',
  'pages_search_update',
  'revisions_pages_update',
  'search_docs_search_delete',
  'search_docs_search_insert',
  'search_docs_search_title_update',
  'search_docs_search_update',
  'docs_templates_delete',
  'docs_templates_update',
  'templates_change_insert',
  'templates_change_update',
  'docs_widgets_delete',
  'docs_widgets_insert',
  'docs_widgets_update',
  'widgets_search_delete',
  'widgets_search_insert',
  'widgets_search_update',
];
/** The triggers and their functions migrations 0240–0370 left on PostgreSQL. */
const PG_TRIGGERS_BEFORE: [string, string][] = [
  ['assets', 'assets_change_insert'],
  ['assets', 'assets_change_update'],
  ['assets', 'assets_search_insert'],
  ['assets', 'assets_search_update'],
  ['assets', 'docs_assets_after'],
  ['assets', 'docs_assets_before'],
  ['assets', 'revisions_assets_after'],
  ['nodes', 'docs_nodes_after'],
  ['nodes', 'nodes_change_insert'],
  ['nodes', 'nodes_change_update'],
  ['nodes', 'nodes_search_insert'],
  ['nodes', 'nodes_search_update'],
  ['pages', 'docs_pages_before'],
  ['pages', 'pages_change_insert'],
  ['pages', 'pages_search_insert'],
  ['pages', 'revisions_pages_after'],
  ['templates', 'docs_templates_after'],
  ['templates', 'templates_change_insert'],
  ['templates', 'templates_change_update'],
  ['widgets', 'docs_widgets_after'],
  ['widgets', 'widgets_search_delete'],
  ['widgets', 'widgets_search_insert'],
  ['widgets', 'widgets_search_update'],
];
const PG_FUNCTIONS_BEFORE = [
  'folio_change_asset',
  'folio_change_node',
  'folio_change_page',
  'folio_change_template',
  'folio_docs_assets_after',
  'folio_docs_assets_before',
  'folio_docs_nodes_after',
  'folio_docs_pages_before',
  'folio_docs_templates_after',
  'folio_docs_widgets_after',
  'folio_revisions_assets_after',
  'folio_revisions_pages_after',
  'folio_search_assets_insert',
  'folio_search_assets_update',
  'folio_search_nodes_insert',
  'folio_search_nodes_update',
  'folio_search_pages_insert',
  'folio_search_widgets_delete',
  'folio_search_widgets_insert',
  'folio_search_widgets_update',
];

export const foldedTriggers: Migration = {
  async up(db: Kysely<any>) {
    const pg = isPostgres(db);
    if (pg) {
      for (const [table, name] of PG_TRIGGERS_BEFORE) {
        await sql`drop trigger ${sql.id(name)} on ${sql.table(table)}`.execute(db);
      }
      for (const fn of PG_FUNCTIONS_BEFORE) await sql`drop function ${sql.id(fn)}()`.execute(db);
    } else {
      for (const name of SQLITE_BEFORE) await sql`drop trigger ${sql.id(name)}`.execute(db);
    }
    for (const statement of renderDocTriggers(TRIGGER_RULES, TRIGGER_ROW_KEYS, pg, 'docs', PER_STATEMENT).create) {
      await sql.raw(statement).execute(db);
    }
  },
};
