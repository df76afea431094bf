import { sql, type Kysely, type Migration } from 'kysely';
import { isPostgres } from '../dialect.js';
import {
  all,
  any,
  changed,
  distinct,
  later,
  renderDocTriggers,
  type DocRule,
  type RenderContext,
  type Sql,
} from '../doc-triggers.js';

/*
 * What keeps the stored docs true, as one description (doc-triggers.ts renders it for each dialect) instead of the
 * 27 SQLite triggers and 18 PostgreSQL triggers with 13 functions that migrations 0050–0200 had built up. What each
 * rule does is what those did (their comments say why); where the two dialects differed only in how much they
 * cleared, the rule clears the union:
 *
 * - A page's doc, path and ETag (`pages`, 0080/0090): a write of the row that does not advance `doc_seq` clears
 *   them; a doc changed without a new ETag loses its path; its widgets, its node's name and its node's place clear
 *   them; a shared asset's fields clear the docs of the pages that link it (0160/0180). `page_doc_epoch` advances
 *   at a rename or move of an asset, folder, site or section, a change of a node's kind, an asset's deletion and a
 *   template's change.
 * - An asset's doc (`assets`, 0100/0150/0190): the same for its row; its node's name, place, kind or time carry
 *   over to the row and clear it; a row takes its node's parent on insert.
 * - A folder's doc (`folder_docs`, 0130/0200): its `seq` advances (or its row is made at 1) at a change of a column
 *   its JSON shows, and at the insert, delete or change of a child's name, kind, place, order or link;
 *   `folder_doc_epoch` advances at a change of any access level or kind, and a rename or move of a container.
 * - How many assets each folder holds (`folder_asset_counts`, 0050).
 *
 * A folder's own columns now advance its `seq` when they change, not when an `UPDATE` merely names them: the
 * writes name only what changes (folders.write.ts `patchOf`), so the count is the same.
 */

const STORED_FOLDERS = `('root', 'library', 'site', 'folder', 'section', 'externallink')`;
const CONTAINERS = `('root', 'library', 'site', 'folder', 'section')`;
const FOLDER_OWN = [
  'name',
  'parent_id',
  'kind',
  'workflow',
  'access_level',
  'display_title',
  'target_window',
  'nav_class',
  'template_name',
  'external_url',
  'link_target_id',
  'landing_page_id',
];
const FOLDER_CHILD = ['parent_id', 'name', 'kind', 'sort_order', 'link_target_id', 'external_url'];

const bumpEpoch =
  (epoch: string): Sql =>
  (c) =>
    `update ${epoch} set value = value + 1 where id = 1 and ${c.guard}`;
const clearPageDoc =
  (pages: string): Sql =>
  (c) =>
    `update pages set doc = null, doc_seq = doc_seq + 1 where node_id ${pages} and ${c.guard}`;
const clearFolderDoc = 'doc = null, doc_etag = null, doc_path = null, doc_access = null';
/** Advances a folder doc's `seq` (clearing the doc), or makes its row at 1 when the node exists and has none. */
const bumpFolderDoc = (target: string): Sql[] => [
  (c) => `update folder_docs set seq = seq + 1, ${clearFolderDoc} where node_id = ${target} and ${c.guard}`,
  (c) => `insert into folder_docs (node_id, seq) select ${target}, 1
    where ${c.guard} and exists (select 1 from nodes where id = ${target})
      and not exists (select 1 from folder_docs where node_id = ${target})
    on conflict (node_id) do update set seq = folder_docs.seq + 1, ${clearFolderDoc}`,
];
const countAsset =
  (folder: string): Sql =>
  (c) =>
    `insert into folder_asset_counts (folder_id, n) select ${folder}, 1 where ${c.guard}
    on conflict (folder_id) do update set n = folder_asset_counts.n + 1`;
const uncountAsset =
  (folder: string): Sql =>
  (c) =>
    `update folder_asset_counts set n = n - 1 where folder_id = ${folder} and ${c.guard}`;

export const DOC_RULES: readonly DocRule[] = [
  // pages: the row's own doc, path and ETag
  {
    table: 'pages',
    on: ['insert'],
    when: 'new.doc is not null or new.doc_path is not null or new.doc_etag is not null',
    set: { doc: 'null', doc_path: 'null', doc_etag: 'null', doc_seq: 'new.doc_seq + 1' },
  },
  {
    table: 'pages',
    on: ['update'],
    when: 'new.doc_seq = old.doc_seq',
    set: { doc: 'null', doc_path: 'null', doc_etag: 'null', doc_seq: 'new.doc_seq + 1' },
  },
  {
    table: 'pages',
    on: ['update'],
    when: all(
      changed('doc'),
      (c) => `not (${text(distinct('new.doc_etag', 'old.doc_etag'), c)})`,
      'new.doc_etag is not null',
    ),
    set: { doc_path: 'null', doc_etag: 'null' },
  },
  // widgets: the pages they are on
  { table: 'widgets', on: ['insert'], run: [clearPageDoc('= new.page_id')] },
  { table: 'widgets', on: ['update', 'delete'], run: [clearPageDoc('= old.page_id')] },
  { table: 'widgets', on: ['update'], when: changed('page_id'), run: [clearPageDoc('= new.page_id')] },
  // templates: every page
  { table: 'templates', on: ['update', 'delete'], run: [bumpEpoch('page_doc_epoch')] },
  // assets: the row's own doc, its folder, the pages linking it
  {
    table: 'assets',
    on: ['insert'],
    when: any(
      'new.doc is not null or new.doc_etag is not null or new.doc_path is not null',
      distinct('new.parent_id', '(select parent_id from nodes where id = new.node_id)'),
    ),
    set: {
      parent_id: '(select parent_id from nodes where id = new.node_id)',
      doc: 'null',
      doc_etag: 'null',
      doc_path: 'null',
      doc_seq: 'new.doc_seq + 1',
    },
  },
  {
    table: 'assets',
    on: ['update'],
    when: 'new.doc_seq = old.doc_seq',
    set: { doc: 'null', doc_etag: 'null', doc_path: 'null', doc_seq: 'new.doc_seq + 1' },
  },
  {
    table: 'assets',
    on: ['update'],
    when: all(changed('fields'), 'exists (select 1 from widgets where shared_asset_id = new.node_id)'),
    run: [clearPageDoc('in (select page_id from widgets where shared_asset_id = new.node_id)')],
  },
  // nodes: asset counts
  { table: 'nodes', on: ['insert'], when: `new.kind = 'asset'`, run: [countAsset('new.parent_id')] },
  { table: 'nodes', on: ['delete'], when: `old.kind = 'asset'`, run: [uncountAsset('old.parent_id')] },
  {
    table: 'nodes',
    on: ['update'],
    when: all(`new.kind = 'asset'`, changed('parent_id')),
    run: [uncountAsset('old.parent_id'), countAsset('new.parent_id')],
  },
  // nodes: page docs
  {
    table: 'nodes',
    on: ['update'],
    when: all(`new.kind = 'page'`, changed('name')),
    run: [clearPageDoc('= new.id')],
  },
  {
    table: 'nodes',
    on: ['update'],
    when: all(`new.kind = 'page'`, changed('parent_id')),
    run: [
      (c) =>
        `update pages set doc_path = null, doc_etag = null, doc_seq = doc_seq + 1 where node_id = new.id and ${c.guard}`,
    ],
  },
  {
    table: 'nodes',
    on: ['update'],
    when: any(all(`new.kind in ('asset', 'folder', 'site', 'section')`, changed('name', 'parent_id')), changed('kind')),
    run: [bumpEpoch('page_doc_epoch')],
  },
  { table: 'nodes', on: ['delete'], when: `old.kind = 'asset'`, run: [bumpEpoch('page_doc_epoch')] },
  // nodes: asset docs
  {
    table: 'nodes',
    on: ['update'],
    when: all(`new.kind = 'asset'`, changed('name', 'parent_id', 'kind', 'updated_at')),
    run: [
      (
        c,
      ) => `update assets set parent_id = new.parent_id, updated_at = ${text(later('updated_at', 'new.updated_at'), c)},
        doc = null, doc_etag = null, doc_path = null, doc_seq = doc_seq + 1 where node_id = new.id and ${c.guard}`,
    ],
  },
  // nodes: folder docs
  { table: 'nodes', on: ['insert'], run: bumpFolderDoc('new.parent_id') },
  {
    table: 'nodes',
    on: ['delete'],
    run: [(c) => `delete from folder_docs where node_id = old.id and ${c.guard}`, ...bumpFolderDoc('old.parent_id')],
  },
  {
    table: 'nodes',
    on: ['update'],
    when: all(`new.kind in ${STORED_FOLDERS}`, changed(...FOLDER_OWN)),
    run: bumpFolderDoc('new.id'),
  },
  { table: 'nodes', on: ['update'], when: changed(...FOLDER_CHILD), run: bumpFolderDoc('old.parent_id') },
  {
    table: 'nodes',
    on: ['update'],
    when: changed('parent_id'),
    run: bumpFolderDoc('new.parent_id'),
  },
  {
    table: 'nodes',
    on: ['update'],
    when: any(changed('access_level', 'kind'), all(`new.kind in ${CONTAINERS}`, changed('name', 'parent_id'))),
    run: [bumpEpoch('folder_doc_epoch')],
  },
];

function text(s: Sql, c: RenderContext): string {
  return typeof s === 'string' ? s : s(c);
}

/** Where a rule that sets columns finds the written row (SQLite). */
export const DOC_ROW_KEYS = { pages: 'node_id', assets: 'node_id' };

/** The triggers and functions migrations 0050–0200 left, by dialect. */
const SQLITE_BEFORE = [
  'assets_doc_insert',
  'assets_doc_own_write',
  'assets_page_docs',
  'assets_parent',
  'nodes_asset_count_delete',
  'nodes_asset_count_insert',
  'nodes_asset_count_move',
  'nodes_asset_doc',
  'nodes_folder_doc_child',
  'nodes_folder_doc_delete',
  'nodes_folder_doc_epoch',
  'nodes_folder_doc_insert',
  'nodes_folder_doc_own',
  'nodes_page_doc_epoch_delete',
  'nodes_page_doc_epoch_move',
  'nodes_page_doc_epoch_path',
  'nodes_page_doc_name',
  'nodes_page_doc_path_move',
  'pages_doc_insert',
  'pages_doc_own_write',
  'pages_doc_path_insert',
  'pages_doc_path_stale',
  'templates_page_doc_epoch_delete',
  'templates_page_doc_epoch_update',
  'widgets_page_doc_delete',
  'widgets_page_doc_insert',
  'widgets_page_doc_update',
];
const PG_TRIGGERS_BEFORE: [string, string][] = [
  ['assets', 'assets_doc_own_write'],
  ['assets', 'assets_page_docs'],
  ['assets', 'assets_parent'],
  ['nodes', 'nodes_asset_count_delete'],
  ['nodes', 'nodes_asset_count_insert'],
  ['nodes', 'nodes_asset_count_move'],
  ['nodes', 'nodes_asset_doc'],
  ['nodes', 'nodes_folder_doc'],
  ['nodes', 'nodes_folder_doc_epoch'],
  ['nodes', 'nodes_folder_doc_update'],
  ['nodes', 'nodes_page_doc_epoch_delete'],
  ['nodes', 'nodes_page_doc_epoch_move'],
  ['nodes', 'nodes_page_doc_epoch_path'],
  ['nodes', 'nodes_page_doc_name'],
  ['nodes', 'nodes_page_doc_path_move'],
  ['pages', 'pages_doc_own_write'],
  ['templates', 'templates_page_doc_epoch'],
  ['widgets', 'widgets_page_doc'],
];
const PG_FUNCTIONS_BEFORE = [
  'folio_asset_doc_node()',
  'folio_asset_doc_own_write()',
  'folio_asset_fields_page_docs()',
  'folio_asset_parent()',
  'folio_count_folder_assets()',
  'folio_folder_doc_bump(text)',
  'folio_folder_doc_epoch()',
  'folio_folder_doc_nodes()',
  'folio_page_doc_epoch()',
  'folio_page_doc_own_write()',
  'folio_page_doc_page_name()',
  'folio_page_doc_path_move()',
  'folio_page_doc_widget()',
];

export const docTriggers: Migration = {
  async up(db: Kysely<any>) {
    const pg = isPostgres(db);
    if (pg) {
      for (const [table, name] of PG_TRIGGERS_BEFORE) {
        await sql`drop trigger if exists ${sql.id(name)} on ${sql.table(table)}`.execute(db);
      }
      for (const fn of PG_FUNCTIONS_BEFORE) await sql.raw(`drop function if exists ${fn}`).execute(db);
    } else {
      for (const name of SQLITE_BEFORE) await sql`drop trigger if exists ${sql.id(name)}`.execute(db);
    }
    for (const statement of renderDocTriggers(DOC_RULES, DOC_ROW_KEYS, pg).create) {
      await sql.raw(statement).execute(db);
    }
  },
};
