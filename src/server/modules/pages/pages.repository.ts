import { sql, type Compilable, type Kysely, type Selectable } from 'kysely';
import { isPostgres } from '../../db/dialect.js';
import {
  mapAnswer,
  prepared,
  preparedUpdate,
  type Answer,
  type Later,
  type LookupMode,
  type StatementProof,
} from '../../db/prepared.js';
import type { DB, NodeKind, PagesTable, WidgetsTable } from '../../db/schema.js';
import { dueScheduledIn } from '../tree/scheduled.js';
import { foldersUnchanged, levelColumns, levelsOf, pathLookup } from '../tree/tree.repository.js';

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

/** How many ids go into one `in (…)` list (well below both dialects' parameter limits). */
const CHUNK = 500;

// Prepared (db/prepared.ts): the queries every read and write of a page runs.
const FIND_PAGE = prepared((db: Kysely<DB>, p: { nodeId: string }) =>
  db.selectFrom('pages').selectAll().where('node_id', '=', p.nodeId),
);
const UPDATE_PAGE = preparedUpdate<PageRow>('pages', 'node_id');
/** The page row and the current page-doc epoch, in one statement (one snapshot); `lock`: locked (PostgreSQL). */
const pageDoc = (lock: boolean) =>
  prepared(
    (db: Kysely<DB>, p: { nodeId: string }) =>
      sql<PageDocRow>`select p.*, e.value as current_epoch from pages p, page_doc_epoch e
      where p.node_id = ${p.nodeId} and e.id = 1${sql.raw(lock && isPostgres(db) ? ' for update of p' : '')}`,
  );
const PAGE_DOC = pageDoc(false);
const LOCK_PAGE_DOC = pageDoc(true);
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
  /** With a proof (LookupMode): whether it holds. */
  proven?: boolean;
}

/** The page whose trusted doc was last read at `path`, with the page's ETag there: one indexed read. */
const DOC_AT_PATH = prepared(
  (db: Kysely<DB>, p: { path: string }, proven) =>
    sql<PageDocAtPath>`select node_id, doc, doc_etag${proven} from pages
    where doc_path = ${p.path} and doc is not null and doc_etag is not null
      and doc_epoch = (select value from page_doc_epoch where id = 1)`,
  { batched: true },
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

/**
 * A page path and the page's doc in one statement: one indexed lookup per segment (left joins by parent and name,
 * so a path that stops resolving still answers how far it got), then the page row.
 */
const DOC_BY_PATH = pathLookup(
  (db, path) => sql<Record<string, string | number | null>>`select ${levelColumns(path.depth)}, pg.*,
      (select value from page_doc_epoch where id = 1) as current_epoch,
      (select value from folder_doc_epoch where id = 1) as current_folder_epoch
    ${path.from} left join pages pg on pg.node_id = ${path.last}.id ${path.where}`,
  { minDepth: 1 },
);

/** The columns of a DOC_BY_PATH row that are not the page row's. */
const NOT_PAGE_COLUMN = /^(?:id|kind|access)\d+$|^current_folder_epoch$/;

function docByPathOf(segments: readonly string[], row: Record<string, string | number | null>): PageDocByPath {
  let page: PageDocRow | null = null;
  if (row.node_id !== null) {
    const fields: Record<string, unknown> = {};
    for (const k in row) if (!NOT_PAGE_COLUMN.test(k)) fields[k] = row[k];
    page = fields as unknown as PageDocRow;
  }
  return {
    chain: levelsOf(row, segments.length),
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
  /** Ids of the pages due to be published or unpublished (lib/scheduler.ts): see `dueScheduledIn`. */
  dueScheduled(db: Kysely<DB>, now: string, limit: number): Promise<string[]> {
    return dueScheduledIn(db, 'pages', now, limit);
  },
  findPage(db: Kysely<DB>, nodeId: string) {
    return FIND_PAGE.first(db, { nodeId });
  },

  updatePage(db: Kysely<DB>, nodeId: string, patch: Partial<Omit<PageRow, 'node_id'>>) {
    return UPDATE_PAGE.run(db, nodeId, patch);
  },

  /**
   * The page row with the current page-doc epoch; with `lock`, locked until the transaction ends (PostgreSQL) so
   * concurrent writers of one page queue up.
   */
  findPageDoc(db: Kysely<DB>, nodeId: string, { lock = false } = {}) {
    return (lock ? LOCK_PAGE_DOC : PAGE_DOC).first(db, { nodeId });
  },

  /**
   * Nodes of `segments` and the doc of the page at their end (one statement); undefined when the site is missing or
   * the path is deeper than MAX_JOINED_DEPTH.
   */
  docByPath<M extends LookupMode = Later>(db: Kysely<DB>, segments: readonly string[], mode?: M) {
    return mapAnswer<M, Record<string, string | number | null> | undefined, PageDocByPath | undefined>(
      DOC_BY_PATH.first(db, segments, mode),
      (row) => row && docByPathOf(segments, row),
    );
  },

  /** The page whose trusted doc was last read at `path` (segments joined by `/`). */
  docAtPath<M extends LookupMode = Later>(
    db: Kysely<DB>,
    path: string,
    mode?: M,
  ): Answer<M, PageDocAtPath | undefined> {
    return DOC_AT_PATH.first(db, { path }, mode);
  },

  /** Stores where a doc was read (see STORE_DOC_PATH); false when the row or the epoch moved since. */
  async storeDocPath(
    db: Kysely<DB>,
    p: { nodeId: string; path: string; etag: string; seq: string | number; epoch: string | number },
  ) {
    return (await STORE_DOC_PATH.run(db, p)) > 0n;
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
};
