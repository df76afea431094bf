import { sql, type Compilable, type Kysely, type Selectable } from 'kysely';
import { isPostgres } from '../../db/dialect.js';
import type { Database } from '../../db/database.js';
import {
  perProofCondition,
  prepared,
  preparedUpdate,
  proofSql,
  withProofParams,
  type StatementProof,
} from '../../db/prepared.js';
import type { DB, NodeKind, PagesTable, WidgetsTable } from '../../db/schema.js';
import { foldersUnchanged, joinedPath, joinedPathParams } from '../tree/tree.repository.js';

export type PageRow = Selectable<PagesTable>;
/** A page row with the current page-doc epoch (its doc is trusted when `doc_epoch` equals it). */
export type PageDocRow = PageRow & { current_epoch: string | number };
export type WidgetRow = Selectable<WidgetsTable>;

/** A widget row with what a page shows of the shared asset it links (null columns when it links none). */
export interface WidgetWithAsset extends WidgetRow {
  asset_type: string | null;
  asset_fields: string | null;
  asset_name: string | null;
  asset_parent_id: string | null;
}

/** A node below a folder, with what bulk operations need to decide about it. */
export interface SubtreeNode {
  id: string;
  parent_id: string | null;
  kind: NodeKind;
  access_level: string | null;
  workflow_state: string | null;
}

/** How many ids go into one `in (…)` list (well below both dialects' parameter limits). */
const CHUNK = 500;

// Prepared (db/prepared.ts): the queries every read and write of a page runs.
const FIND_PAGE = prepared((db: Kysely<DB>, p: { nodeId: string }) =>
  db.selectFrom('pages').selectAll().where('node_id', '=', p.nodeId),
);
const UPDATE_PAGE = preparedUpdate<PageRow>('pages', 'node_id');
/** The page row and the current page-doc epoch, in one statement (one snapshot); locked on PostgreSQL. */
const PAGE_DOC = prepared(
  (db: Kysely<DB>, p: { nodeId: string }) =>
    sql<PageDocRow>`select p.*, e.value as current_epoch from pages p, page_doc_epoch e
    where p.node_id = ${p.nodeId} and e.id = 1`,
);
const LOCK_PAGE_DOC = prepared(
  (db: Kysely<DB>, p: { nodeId: string }) =>
    sql<PageDocRow>`select p.*, e.value as current_epoch from pages p, page_doc_epoch e
    where p.node_id = ${p.nodeId} and e.id = 1${sql.raw(isPostgres(db) ? ' for update of p' : '')}`,
);
/** What a GET needs of a page path: each segment's node (as far as the path resolves) and the page's doc. */
export interface PageDocByPath {
  /** Per segment: id, kind and access level of the node of that name, or null from the first missing one on. */
  chain: ({ id: string; kind: NodeKind; access_level: string | null } | null)[];
  doc: string | null;
  doc_epoch: string | number | null;
  doc_seq: string | number | null;
  current_epoch: string | number;
  /** `folder_doc_epoch`, read with the path: it advances when any access level or kind is set (migration 0130). */
  current_folder_epoch: string | number;
  /** The page row at the end of the path (with the current epoch), when there is one. */
  row: PageDocRow | null;
}

/** A page found by the path its trusted doc was last read at (migration 0090). */
export interface PageDocAtPath {
  node_id: string;
  doc: string;
  doc_etag: string;
}

/** The page whose trusted doc was last read at `path`, with the page's ETag there: one indexed read. */
const DOC_AT_PATH = prepared(
  (db: Kysely<DB>, p: { path: string }) =>
    sql<PageDocAtPath>`select node_id, doc, doc_etag from pages
    where doc_path = ${p.path} and doc is not null and doc_etag is not null
      and doc_epoch = (select value from page_doc_epoch where id = 1)`,
  { batched: true },
);
/** DOC_AT_PATH with a `proven` column: whether an ActorClaim's proof holds (one query per proof condition). */
const DOC_AT_PATH_PROVEN = perProofCondition((condition) =>
  prepared(
    (db: Kysely<DB>, p: Record<string, unknown>) =>
      sql<PageDocAtPath & { proven: boolean }>`select node_id, doc, doc_etag, ${proofSql(condition, p)} as proven
      from pages where doc_path = ${p.path} and doc is not null and doc_etag is not null
        and doc_epoch = (select value from page_doc_epoch where id = 1)`,
    { batched: true },
  ),
);

/**
 * Records where a trusted doc was read and the page's ETag there, if neither the row (`doc_seq`) nor the doc's
 * epoch changed since the statement that resolved the path read them.
 */
const STORE_DOC_PATH = prepared(
  (db: Kysely<DB>, p: { nodeId: string; path: string; etag: string; seq: string | number; epoch: string | number }) =>
    db
      .updateTable('pages')
      .set({ doc_path: p.path, doc_etag: p.etag, doc_seq: sql`doc_seq + 1` })
      .where('node_id', '=', p.nodeId)
      .where('doc_seq', '=', p.seq)
      .where('doc_epoch', '=', p.epoch),
);

/** Paths deeper than this take the general way (tree.repository's recursive walk). */
export const MAX_DOC_PATH_DEPTH = 12;

/**
 * A page path and the page's doc in one statement: one indexed lookup per segment (left joins by parent and name,
 * so a path that stops resolving still answers how far it got), then the page row. Prepared once per depth.
 */
const DOC_BY_PATH = Array.from({ length: MAX_DOC_PATH_DEPTH + 1 }, (_, depth) =>
  depth < 1
    ? undefined
    : prepared((db: Kysely<DB>, p: Record<string, string>) => {
        const levels = Array.from({ length: depth }, (_, i) => i);
        const columns = levels.map((i) =>
          sql.raw(`n${i}.id as id${i}, n${i}.kind as kind${i}, n${i}.access_level as access${i}`),
        );
        const path = joinedPath(depth, p);
        return sql<Record<string, string | number | null>>`select ${sql.join(columns)}, pg.*,
            (select value from page_doc_epoch where id = 1) as current_epoch,
            (select value from folder_doc_epoch where id = 1) as current_folder_epoch
          ${path.from} left join pages pg on pg.node_id = ${sql.raw(`n${depth - 1}`)}.id ${path.where}`;
      }),
);

function docByPathQuery(segments: readonly string[]) {
  const query = DOC_BY_PATH[segments.length];
  if (!query) throw new Error(`docByPath: depth ${segments.length} is not 1–${MAX_DOC_PATH_DEPTH}`);
  return query;
}

/**
 * The columns of DOC_BY_PATH that are not the page row's: the path's nodes (`id0`, `kind0`, `access0`, …) and the
 * folder epoch, per depth.
 */
const CHAIN_COLUMNS = Array.from(
  { length: MAX_DOC_PATH_DEPTH + 1 },
  (_, depth) =>
    new Set([
      ...Array.from({ length: depth }, (_, i) => [`id${i}`, `kind${i}`, `access${i}`]).flat(),
      'current_folder_epoch',
    ]),
);
const chainColumnsOf = (depth: number) => CHAIN_COLUMNS[depth]!;

function docByPathOf(segments: readonly string[], row: Record<string, string | number | null>): PageDocByPath {
  let missing = false;
  const chain = segments.map((_, i) => {
    if (missing || row[`id${i}`] === null) {
      missing = true;
      return null;
    }
    return {
      id: row[`id${i}`] as string,
      kind: row[`kind${i}`] as NodeKind,
      access_level: row[`access${i}`] as string | null,
    };
  });
  let page: PageDocRow | null = null;
  if (row.node_id !== null) {
    const chainColumns = chainColumnsOf(segments.length);
    const fields: Record<string, unknown> = {};
    for (const k in row) if (!chainColumns.has(k)) fields[k] = row[k];
    page = fields as unknown as PageDocRow;
  }
  return {
    chain,
    row: page,
    doc: row.doc as string | null,
    doc_epoch: row.doc_epoch,
    doc_seq: row.doc_seq,
    current_epoch: row.current_epoch as string | number,
    current_folder_epoch: row.current_folder_epoch as string | number,
  };
}

/**
 * The condition of a write made from a page read under these epochs: neither advanced since. Page docs and paths
 * are trusted under `page_doc_epoch` (migrations 0080, 0090); access levels and kinds on the path, under
 * `folder_doc_epoch` (0130).
 */
export function epochsUnchanged(pageEpoch: string | number, folderEpoch: string | number): StatementProof {
  const folders = foldersUnchanged(folderEpoch);
  return {
    condition: `(select value from page_doc_epoch where id = 1) = {} and ${folders.condition}`,
    values: [pageEpoch, ...folders.values],
  };
}

/** Sets the row and its doc in one statement; `doc_seq` advances, so the pages trigger keeps the doc. */
const UPDATE_PAGE_AND_DOC = preparedUpdate<PageRow>('pages', 'node_id', ['doc_seq']);
/**
 * The same, only if `doc_seq` is still the one read (outside a transaction: the write of a read-modify-write), and
 * bumping the change generation in the same statement (so the write needs no bump of its own after it).
 */
const UPDATE_PAGE_AND_DOC_IF = preparedUpdate<PageRow>('pages', 'node_id', ['doc_seq'], 'doc_seq', {
  bumpsGeneration: true,
  batched: true,
});
/** Stores a doc computed from rows read when `doc_seq` was `seq`; nothing when the row was written since. */
const STORE_DOC = prepared(
  (
    db: Kysely<DB>,
    p: {
      nodeId: string;
      doc: string;
      epoch: string | number;
      seq: string | number;
      path: string | null;
      etag: string | null;
    },
  ) =>
    db
      .updateTable('pages')
      .set({ doc: p.doc, doc_epoch: p.epoch, doc_path: p.path, doc_etag: p.etag, doc_seq: sql`doc_seq + 1` })
      .where('node_id', '=', p.nodeId)
      .where('doc_seq', '=', p.seq),
);
const WIDGETS = prepared((db: Kysely<DB>, p: { pageId: string }): Compilable<WidgetWithAsset> =>
  db
    .selectFrom('widgets')
    .leftJoin('assets', 'assets.node_id', 'widgets.shared_asset_id')
    .leftJoin('nodes', 'nodes.id', 'widgets.shared_asset_id')
    .selectAll('widgets')
    .select([
      'assets.type as asset_type',
      'assets.fields as asset_fields',
      'nodes.name as asset_name',
      'nodes.parent_id as asset_parent_id',
    ])
    .where('widgets.page_id', '=', p.pageId)
    .orderBy('widgets.region')
    .orderBy('widgets.position')
    .orderBy('widgets.id'),
);

/** SQL of pages and their widgets; takes a db or a transaction. */
export const pagesRepository = {
  findPage(db: Kysely<DB>, nodeId: string) {
    return FIND_PAGE.first(db, { nodeId });
  },

  updatePage(db: Kysely<DB>, nodeId: string, patch: Partial<Omit<PageRow, 'node_id'>>) {
    return UPDATE_PAGE.run(db, nodeId, patch);
  },

  /** The page row with the current page-doc epoch. */
  findPageDoc(db: Kysely<DB>, nodeId: string) {
    return PAGE_DOC.first(db, { nodeId });
  },

  /** Nodes of `segments` and the doc of the page at their end (one statement); undefined when the site is missing. */
  async docByPath(db: Kysely<DB>, segments: readonly string[]): Promise<PageDocByPath | undefined> {
    const row = await docByPathQuery(segments).first(db, joinedPathParams(segments));
    return row && docByPathOf(segments, row);
  },

  /** `docByPath` read now through `readNow` (Database.readNow, SQLite): the same statement, run synchronously. */
  docByPathNow(
    db: Kysely<DB>,
    readNow: NonNullable<Database['readNow']>,
    segments: readonly string[],
  ): PageDocByPath | undefined {
    const row = docByPathQuery(segments).firstNow(db, readNow, joinedPathParams(segments));
    return row && docByPathOf(segments, row);
  },

  /** The page whose trusted doc was last read at `path` (segments joined by `/`). */
  docAtPath(db: Kysely<DB>, path: string) {
    return DOC_AT_PATH.first(db, { path });
  },

  /** `docAtPath`, and whether `proof` holds (an ActorClaim's) in the same statement. */
  docAtPathProven(db: Kysely<DB>, path: string, proof: StatementProof) {
    return DOC_AT_PATH_PROVEN(proof).first(db, withProofParams({ path }, proof));
  },

  /** `docAtPath` read now through `readNow` (Database.readNow, SQLite). */
  docAtPathNow(db: Kysely<DB>, readNow: NonNullable<Database['readNow']>, path: string) {
    return DOC_AT_PATH.firstNow(db, readNow, { path });
  },

  /** Stores where a doc was read (see STORE_DOC_PATH); false when the row or the epoch moved since. */
  async storeDocPath(
    db: Kysely<DB>,
    p: { nodeId: string; path: string; etag: string; seq: string | number; epoch: string | number },
  ) {
    return (await STORE_DOC_PATH.run(db, p)) > 0n;
  },

  /** `findPageDoc`, locked until the transaction ends (PostgreSQL) so concurrent writers of one page queue up. */
  lockPageDoc(db: Kysely<DB>, nodeId: string) {
    return LOCK_PAGE_DOC.first(db, { nodeId });
  },

  /**
   * Writes `patch` and the page's new doc (stored under `epoch`) in one statement, with the path it was made at
   * and the page's ETag there when the caller read that path in the same snapshot as `epoch` (else null). The
   * path is written only when it differs from `storedPath`, the row's (its index entry then stays as it is).
   */
  updatePageAndDoc(
    db: Kysely<DB>,
    nodeId: string,
    patch: Partial<Omit<PageRow, 'node_id' | 'doc' | 'doc_epoch' | 'doc_seq' | 'doc_path' | 'doc_etag'>>,
    doc: string,
    epoch: string | number,
    at: { path: string; etag: string } | null,
    storedPath: string | null,
    /**
     * Write only if the row's `doc_seq` is still this (answers 0n otherwise); the statement then also bumps the
     * change generation (on PostgreSQL, in any case).
     */
    ifSeq?: string | number,
    /** With `ifSeq`: write only if this holds too (epochsUnchanged, an ActorClaim's proof: db/prepared.ts allOf). */
    proof?: StatementProof,
  ): Promise<bigint> {
    const path = at?.path ?? null;
    const set = {
      ...patch,
      doc,
      doc_epoch: epoch,
      doc_etag: at?.etag ?? null,
      ...(path !== storedPath ? { doc_path: path } : {}),
    };
    return ifSeq === undefined
      ? UPDATE_PAGE_AND_DOC.run(db, nodeId, set)
      : UPDATE_PAGE_AND_DOC_IF.run(db, nodeId, set, ifSeq, proof);
  },

  /** Stores a doc read from rows at `doc_seq` = `seq` (a GET's miss); false when the row was written since. */
  async storeDoc(
    db: Kysely<DB>,
    nodeId: string,
    doc: string,
    epoch: string | number,
    seq: string | number,
    at: { path: string; etag: string } | null = null,
  ) {
    return (await STORE_DOC.run(db, { nodeId, doc, epoch, seq, path: at?.path ?? null, etag: at?.etag ?? null })) > 0n;
  },

  /** Widgets of a page in region and position order, with the shared asset each links. */
  widgets(db: Kysely<DB>, pageId: string): Promise<WidgetWithAsset[]> {
    return WIDGETS.all(db, { pageId });
  },

  insertWidget(db: Kysely<DB>, row: WidgetRow) {
    return db.insertInto('widgets').values(row).execute();
  },

  updateWidget(db: Kysely<DB>, id: string, patch: Partial<Omit<WidgetRow, 'id' | 'page_id'>>) {
    return db.updateTable('widgets').set(patch).where('id', '=', id).execute();
  },

  async deleteWidgets(db: Kysely<DB>, ids: readonly string[]) {
    for (let i = 0; i < ids.length; i += CHUNK) {
      await db
        .deleteFrom('widgets')
        .where('id', 'in', ids.slice(i, i + CHUNK))
        .execute();
    }
  },

  /** The asset row of a node, when the node is an asset. */
  /**
   * The asset a widget links; with `share`, under a share lock until the transaction ends (PostgreSQL): an update
   * of its fields then waits for the page write, and finds the page's new link (migration 0160).
   */
  findAsset(db: Kysely<DB>, nodeId: string, share = false) {
    const query = db.selectFrom('assets').select(['node_id', 'type', 'fields']).where('node_id', '=', nodeId);
    return (share && isPostgres(db) ? query.forShare() : query).executeTakeFirst();
  },

  /** True when a site or section has this page as its landing page. */
  async isLandingPage(db: Kysely<DB>, pageId: string): Promise<boolean> {
    const r = await db.selectFrom('nodes').select('id').where('landing_page_id', '=', pageId).executeTakeFirst();
    return !!r;
  },

  deleteNode(db: Kysely<DB>, id: string) {
    return db.deleteFrom('nodes').where('id', '=', id).execute();
  },

  /** Every node below `rootId` (not itself), with the workflow state of pages: one recursive query. */
  subtree(db: Kysely<DB>, rootId: string): Promise<SubtreeNode[]> {
    return db
      .withRecursive('sub(id, parent_id, kind, access_level)', (qb) =>
        qb
          .selectFrom('nodes')
          .select(['id', 'parent_id', 'kind', 'access_level'])
          .where('parent_id', '=', rootId)
          .unionAll((q) =>
            q
              .selectFrom('nodes')
              .innerJoin('sub', 'sub.id', 'nodes.parent_id')
              .select(['nodes.id', 'nodes.parent_id', 'nodes.kind', 'nodes.access_level']),
          ),
      )
      .selectFrom('sub')
      .leftJoin('pages', 'pages.node_id', 'sub.id')
      .select(['sub.id', 'sub.parent_id', 'sub.kind', 'sub.access_level', 'pages.workflow_state'])
      .execute() as Promise<SubtreeNode[]>;
  },

  /** Sets the workflow of many pages at once. */
  async setWorkflow(
    db: Kysely<DB>,
    ids: readonly string[],
    patch: Pick<PageRow, 'workflow_state' | 'updated_at' | 'updated_by'> &
      Partial<Pick<PageRow, 'checked_out' | 'checked_out_user' | 'rejection'>>,
  ) {
    for (let i = 0; i < ids.length; i += CHUNK) {
      const chunk = ids.slice(i, i + CHUNK);
      await db.updateTable('pages').set(patch).where('node_id', 'in', chunk).execute();
    }
  },
};
