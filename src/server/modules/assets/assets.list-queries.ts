import { sql, type Kysely } from 'kysely';
import type { AssetListSort } from '../../../shared/api/assets.js';
import { BINARY_ASSET_TYPE_BY_UPLOAD } from '../../../shared/registry/index.js';
import { jsonTextField, textValue, toNumber } from '../../db/dialect.js';
import type { DB } from '../../db/schema.js';
import { parseSearch } from '../search/search.query.js';
import { searchRepository } from '../search/search.repository.js';
import { assetColumns, normalise, type ListedAssetRow } from './assets.repository.js';

/** What a listing page asks for. */
export interface ListFilter {
  folderId: string;
  /** `Assets/…` of the folder. */
  folderPath: string;
  recursive: boolean;
  /** Words to find with the search engine (stems; the last word also as a prefix while typing). */
  q?: string;
  type?: string;
  state?: string;
  /** Only images whose alt text is empty. */
  missingAltText?: boolean;
  sort: AssetListSort;
  order: 'asc' | 'desc';
}

/**
 * Keyset position: the sort value and id of the last row of the previous page, and its name for the sorts that
 * break ties by name (`type`, `state`, `size`).
 */
export interface ListPosition {
  value: string;
  id: string;
  name?: string;
}

/** Sorts read from an index range (the others sort the folder's rows: the key, then name, then id). */
const INDEXED_SORTS: ReadonlySet<AssetListSort> = new Set(['name', 'lastModifiedDate']);

/**
 * The columns a listing reads for its folder, sort value and id, as the sort's index holds them: the asset row's
 * own for dates (`assets_parent_updated`, `assets_updated`; migration 0190), the node's for every other sort (names
 * by `nodes_parent_kind_name`, `nodes_kind_name`; type, state and size sort the rows found that way). `byNodeKind`:
 * the node indexes hold the kind before the name, so those listings name it.
 */
function indexedColumnsOf(sort: AssetListSort) {
  return sort === 'lastModifiedDate'
    ? ({ folder: 'a.parent_id', sort: 'a.updated_at', id: 'a.node_id', byNodeKind: false } as const)
    : ({ folder: 'n.parent_id', sort: 'n.name', id: 'n.id', byNodeKind: true } as const);
}

/** The expression a non-indexed sort orders by; assets without a file have size -1 (first when ascending). */
function sortKey(sort: AssetListSort) {
  if (sort === 'type') return sql`a.type`;
  if (sort === 'state') return sql`a.workflow_state`;
  return sql`coalesce(a.size, -1)`;
}

/** The value of a row's sort key, as a cursor holds it. */
export function sortValueOf(row: ListedAssetRow, sort: AssetListSort): string {
  switch (sort) {
    case 'name':
      return row.name;
    case 'lastModifiedDate':
      return row.updated_at;
    case 'type':
      return row.type;
    case 'state':
      return row.workflow_state;
    case 'size':
      return String(row.size ?? -1);
  }
}

/** The SQL of an asset listing (assets.listing.ts): keyset pages and counts. */
export const assetListQueries = {
  /**
   * One page of a listing by keyset: rows after `after` in the sort order, `limit` of them. Within one folder
   * names are unique, so name order needs no tie-breaker there; otherwise the id breaks ties. Every page is an
   * index range scan from its cursor, so page 2,000 costs what page 1 costs.
   */
  listPageQuery(db: Kysely<DB>, f: ListFilter, after: ListPosition | null, limit: number) {
    if (!INDEXED_SORTS.has(f.sort)) return assetListQueries.sortedPageQuery(db, f, after, limit);
    const { sort: sortColumn, id: idColumn } = indexedColumnsOf(f.sort);
    const tieBreak = f.recursive || f.sort !== 'name';
    const cmp = f.order === 'asc' ? '>' : '<';
    let q = assetListQueries
      .base(db, f)
      .select(assetColumns)
      .select(f.recursive ? sql<string>`sub.path`.as('folder_path') : textValue(db, f.folderPath).as('folder_path'));
    if (after) {
      // A row-value comparison (both dialects) so the index range starts right at the cursor.
      q = tieBreak
        ? q.where((eb) => eb(eb.refTuple(sortColumn, idColumn), cmp, eb.tuple(after.value, after.id)))
        : q.where(sortColumn, cmp, after.value);
    }
    q = q.orderBy(sortColumn, f.order);
    if (tieBreak) q = q.orderBy(idColumn, f.order);
    return q.limit(limit);
  },

  /**
   * A page by a key no index holds (type, state, size): the folder's matching rows are sorted by the key, then
   * name, then id, and the page starts after the cursor's row by a row-value comparison.
   */
  sortedPageQuery(db: Kysely<DB>, f: ListFilter, after: ListPosition | null, limit: number) {
    const key = sortKey(f.sort);
    const dir = sql.raw(f.order);
    let q = assetListQueries
      .base(db, f)
      .select(assetColumns)
      .select(f.recursive ? sql<string>`sub.path`.as('folder_path') : textValue(db, f.folderPath).as('folder_path'));
    if (after) {
      const value = f.sort === 'size' ? Number(after.value) : after.value;
      const cmp = sql.raw(f.order === 'asc' ? '>' : '<');
      q = q.where(sql<boolean>`(${key}, n.name, n.id) ${cmp} (${value}, ${after.name ?? ''}, ${after.id})`);
    }
    return q
      .orderBy(sql`${key} ${dir}`)
      .orderBy('n.name', f.order)
      .orderBy('n.id', f.order)
      .limit(limit);
  },

  async listPage(db: Kysely<DB>, f: ListFilter, after: ListPosition | null, limit: number): Promise<ListedAssetRow[]> {
    const rows = await assetListQueries.listPageQuery(db, f, after, limit).execute();
    return rows.map((r) => normalise(r) as ListedAssetRow);
  },

  /**
   * How many assets a listing matches in all. Without filters, the per-folder counters that triggers keep exact
   * (`folder_asset_counts`, migration 0050) answer: one row, or one per folder of the subtree. With a filter
   * (type, state, text), the matching rows are counted.
   */
  async listCount(db: Kysely<DB>, f: ListFilter): Promise<number> {
    if (!f.type && !f.state && !f.q && !f.missingAltText) {
      const r = f.recursive
        ? await sql<{ n: number | string | null }>`
            with recursive sub(id) as (
              select id from nodes where id = ${f.folderId}
              union all
              select d.id from nodes d join sub on d.parent_id = sub.id where d.kind = 'folder'
            )
            select sum(c.n) as n from folder_asset_counts c where c.folder_id in (select id from sub)`.execute(db)
        : await sql<{ n: number | string }>`
            select n from folder_asset_counts where folder_id = ${f.folderId}`.execute(db);
      return toNumber(r.rows[0]?.n ?? 0);
    }
    const r = await assetListQueries
      .base(db, f)
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    return toNumber(r.n);
  },

  /** FROM and WHERE of a listing; the recursive one names each folder's path `sub.path`. */
  base(db: Kysely<DB>, f: ListFilter) {
    const { folder: folderColumn, byNodeKind } = indexedColumnsOf(f.sort);
    let q = f.recursive
      ? db
          .withRecursive('sub(id, path)', (qb) =>
            qb
              .selectFrom('nodes')
              .select(['id', textValue(db, f.folderPath).as('path')])
              .where('id', '=', f.folderId)
              .unionAll((r) =>
                r
                  .selectFrom('nodes as d')
                  .innerJoin('sub', 'sub.id', 'd.parent_id')
                  .select(['d.id', sql<string>`sub.path || '/' || d.name`.as('path')])
                  .where('d.kind', '=', 'folder'),
              ),
          )
          .selectFrom('assets as a')
          .innerJoin('nodes as n', 'n.id', 'a.node_id')
          .innerJoin('sub', 'sub.id', folderColumn)
      : db.selectFrom('assets as a').innerJoin('nodes as n', 'n.id', 'a.node_id').where(folderColumn, '=', f.folderId);
    // An asset row is an asset's: the kind only lets the node index's range start at the folder's assets.
    if (byNodeKind) q = q.where('n.kind', '=', 'asset');
    if (f.type) q = q.where('a.type', '=', f.type);
    if (f.state) q = q.where('a.workflow_state', '=', f.state);
    if (f.q) {
      q = q.where(sql<boolean>`a.node_id in (${searchRepository.matchingNodes(db, parseSearch(f.q), 'asset')})`);
    }
    if (f.missingAltText) {
      q = q
        .where('a.type', '=', BINARY_ASSET_TYPE_BY_UPLOAD.image)
        .where(sql<boolean>`coalesce(trim(${jsonTextField(db, 'a.fields', 'alttext')}), '') = ''`);
    }
    return q;
  },
};
