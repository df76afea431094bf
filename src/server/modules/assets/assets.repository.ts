import { sql, type Kysely, type Selectable } from 'kysely';
import { forUpdate, toNumber } from '../../db/dialect.js';
import {
  mapAnswer,
  prepared,
  preparedUpdate,
  type Answer,
  type Later,
  type LookupMode,
  type StatementProof,
} from '../../db/prepared.js';
import type { AssetsTable, DB } from '../../db/schema.js';
import { dueScheduledIn } from '../tree/scheduled.js';
import { levelColumns, levelsOf, pathLookup, type JoinedPath } from '../tree/tree.repository.js';

/** An asset's node and detail row together. `updated_at` is the asset's last-modified time (migration 0190). */
export type AssetRow = Omit<Selectable<AssetsTable>, 'doc' | 'doc_etag' | 'doc_path' | 'parent_id'> & {
  id: string;
  name: string;
  parent_id: string;
};

/** An asset row of a listing, with the path of its folder. */
export type ListedAssetRow = AssetRow & { folder_path: string };

export type AssetPatch = Partial<
  Pick<
    AssetsTable,
    'fields' | 'workflow_state' | 'checked_out' | 'checked_out_user' | 'rejection' | 'publish_at' | 'unpublish_at'
  >
> & { updated_by?: string; revision?: number };

/** A binary asset's new file: its blob, what the rows say about it, and the workflow after the change. */
export type AssetFilePatch = Pick<
  AssetsTable,
  'blob_key' | 'content_type' | 'size' | 'sha256' | 'image' | 'file' | 'thumbnail' | 'thumb_blob_key'
> &
  Pick<AssetsTable, 'workflow_state' | 'checked_out' | 'checked_out_user' | 'rejection'> & { updated_by?: string };

/** Ids per `in (…)` list. */
const CHUNK = 500;

function chunks<T>(list: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += CHUNK) out.push(list.slice(i, i + CHUNK));
  return out;
}

/** The columns of an asset row with its node (listings name the tables `a` and `n`). */
export const assetColumns = [
  'a.node_id',
  'a.type',
  'a.fields',
  'a.workflow_name',
  'a.workflow_state',
  'a.checked_out',
  'a.checked_out_user',
  'a.rejection',
  'a.publish_at',
  'a.unpublish_at',
  'a.blob_key',
  'a.content_type',
  'a.size',
  'a.sha256',
  'a.image',
  'a.file',
  'a.thumbnail',
  'a.thumb_blob_key',
  'a.created_at',
  'a.updated_at',
  'a.doc_seq',
  'a.revision',
  'n.id',
  'n.name',
  'n.parent_id',
] as const;

/** An asset row with its node by node id (prepared, db/prepared.ts: every read and write of one asset runs it). */
const findAssetQuery = (db: Kysely<DB>, p: { id: string }) =>
  db
    .selectFrom('assets as a')
    .innerJoin('nodes as n', 'n.id', 'a.node_id')
    .select(assetColumns)
    .where('a.node_id', '=', p.id);
const FIND = prepared(findAssetQuery);

/** The columns of an asset row with its node, the node being the last of a joined path's. */
const assetColumnsAt = (path: JoinedPath) =>
  sql.raw(assetColumns.map((c) => c.replace(/^n\./, `n${path.depth - 1}.`)).join(', '));

/**
 * The asset at a path with its row, in one statement: the path's joined lookups, then the detail row of its last
 * node. No row when the path does not lead to an asset.
 */
const FIND_BY_PATH = pathLookup(
  (db, path) => sql<RawAssetRow>`select ${assetColumnsAt(path)} ${path.from}
    join assets a on a.node_id = ${path.last}.id ${path.where}`,
  { minDepth: 2 },
);
/** The stored metadata of the asset at a path (migration 0100), in one statement: only the doc's columns. */
const DOC_BY_PATH = pathLookup(
  (db, path, proven) => sql<StoredAssetDoc>`select a.doc, a.doc_etag, a.doc_path${proven} ${path.from}
    join assets a on a.node_id = ${path.last}.id ${path.where}`,
  { minDepth: 2, batched: true },
);
/**
 * What a PUT of an asset's metadata reads, in one statement: the path's levels (levelColumns), the asset's row and
 * its stored doc's ETag and path.
 */
const WRITE_VIEW_BY_PATH = pathLookup(
  (db, path) => sql<Record<string, unknown>>`select ${levelColumns(path.depth)}, ${assetColumnsAt(path)},
    a.doc_etag, a.doc_path, (select value from folder_doc_epoch where id = 1) as folder_epoch ${path.from}
    join assets a on a.node_id = ${path.last}.id ${path.where}`,
  { minDepth: 2 },
);
/**
 * An asset row's metadata and its new doc, written only if `doc_seq` is unchanged (which it advances), bumping the
 * generation (see writeWithDoc).
 */
const UPDATE_WITH_DOC = preparedUpdate<Record<string, unknown>>('assets', 'node_id', ['doc_seq'], 'doc_seq', {
  bumpsGeneration: true,
  batched: true,
});

/** An asset's stored metadata, its ETag and the path it was made at; all null when none is stored. */
export interface StoredAssetDoc {
  doc: string | null;
  doc_etag: string | null;
  doc_path: string | null;
  /** With a proof (LookupMode): whether it holds. */
  proven?: boolean;
}

/** Stores an asset's metadata made from its row as read with `doc_seq` = `seq`, if the row has not changed since. */
const STORE_DOC = prepared(
  (db: Kysely<DB>, p: { id: string; doc: string; etag: string; path: string; seq: string | number }) =>
    db
      .updateTable('assets')
      .set({ doc: p.doc, doc_etag: p.etag, doc_path: p.path, doc_seq: sql`doc_seq + 1` })
      .where('node_id', '=', p.id)
      .where('doc_seq', '=', p.seq),
);

type RawAssetRow = Omit<AssetRow, 'size' | 'checked_out' | 'parent_id'> & {
  size: unknown;
  checked_out: unknown;
  parent_id: string | null;
};
const FIND_LOCKED = prepared((db: Kysely<DB>, p: { id: string }) => forUpdate(db, findAssetQuery(db, p)));

export function normalise<R extends { size: unknown; checked_out: unknown; parent_id: string | null }>(row: R) {
  return {
    ...row,
    size: row.size === null ? null : toNumber(row.size),
    checked_out: toNumber(row.checked_out),
    parent_id: row.parent_id ?? '',
  };
}

/** SQL of the asset library: asset rows and where they are used (listings: assets.list-queries.ts). Takes a database or a transaction. */
export const assetsRepository = {
  /** Ids of the assets due to be published or unpublished (lib/scheduler.ts): see `dueScheduledIn`. */
  dueScheduled(db: Kysely<DB>, now: string, limit: number): Promise<string[]> {
    return dueScheduledIn(db, 'assets', now, limit);
  },
  /**
   * Every blob key an asset or a revision of one refers to (contents and thumbnails), for the orphan blob sweep:
   * a blob stays while a revision refers to it (migration 0280).
   */
  async blobKeysInUse(db: Kysely<DB>): Promise<Set<string>> {
    const rows = await db
      .selectFrom('assets')
      .select(['blob_key', 'thumb_blob_key'])
      .where((eb) => eb.or([eb('blob_key', 'is not', null), eb('thumb_blob_key', 'is not', null)]))
      .unionAll(
        db
          .selectFrom('revisions')
          .select(['blob_key', 'thumb_blob_key'])
          .where((eb) => eb.or([eb('blob_key', 'is not', null), eb('thumb_blob_key', 'is not', null)])),
      )
      .execute();
    const keys = new Set<string>();
    for (const r of rows) {
      if (r.blob_key) keys.add(r.blob_key);
      if (r.thumb_blob_key) keys.add(r.thumb_blob_key);
    }
    return keys;
  },
  /**
   * The asset at `segments` (the library's name first) in one statement, or undefined: when nothing or something
   * other than an asset is there, and for paths deeper than the joined lookup takes (`find` after
   * tree.repository's walk answers those).
   */
  findByPath<M extends LookupMode = Later>(db: Kysely<DB>, segments: readonly string[], mode?: M) {
    return mapAnswer<M, RawAssetRow | undefined, AssetRow | undefined>(FIND_BY_PATH.first(db, segments, mode), (row) =>
      row ? (normalise(row) as AssetRow) : undefined,
    );
  },

  /** The stored metadata of the asset at `segments` (see DOC_BY_PATH); undefined when no asset is there. */
  docByPath<M extends LookupMode = Later>(
    db: Kysely<DB>,
    segments: readonly string[],
    mode?: M,
  ): Answer<M, StoredAssetDoc | undefined> {
    return DOC_BY_PATH.first(db, segments, mode);
  },

  /** Stores metadata made from the row read with `doc_seq` = `seq` (see STORE_DOC); false when it changed since. */
  async storeDoc(db: Kysely<DB>, p: { id: string; doc: string; etag: string; path: string; seq: string | number }) {
    return (await STORE_DOC.run(db, p)) > 0n;
  },

  /** An asset by its node id, locked until the transaction ends when `lock` (PostgreSQL). */
  async find(db: Kysely<DB>, id: string, lock = false): Promise<AssetRow | undefined> {
    const row = await (lock ? FIND_LOCKED : FIND).first(db, { id });
    return row ? (normalise(row) as AssetRow) : undefined;
  },

  /** Updates an asset's detail row (its fields, workflow, or file) and its node's last-modified time together. */
  async update(db: Kysely<DB>, id: string, patch: AssetPatch | AssetFilePatch, at: string): Promise<void> {
    // The node's modification time follows by trigger (migration 0120).
    await db
      .updateTable('assets')
      .set({ ...patch, updated_at: at })
      .where('node_id', '=', id)
      .execute();
  },

  /**
   * `update` with the asset's new metadata stored (`doc`, its ETag, the path it was made at), only if the row's
   * `doc_seq` is still `seq` (the write of a read-modify-write outside a transaction; it leaves `seq` + 1), with
   * the change generation bumped in the same statement (PostgreSQL) and, with a `proof`, only if it holds too
   * (foldersUnchanged, an ActorClaim's: db/prepared.ts allOf). `at` must differ from the row's `updated_at`: the
   * node then takes it (0120) and keeps the doc (0150). Answers whether the row was written.
   */
  async writeWithDoc(
    db: Kysely<DB>,
    id: string,
    patch: AssetPatch,
    at: string,
    seq: string | number,
    stored: { doc: string; etag: string; path: string },
    proof?: StatementProof,
  ): Promise<boolean> {
    const set = { ...patch, updated_at: at, doc: stored.doc, doc_etag: stored.etag, doc_path: stored.path };
    return (await UPDATE_WITH_DOC.run(db, id, set, seq, proof)) > 0n;
  },

  /**
   * The asset at `segments` with its row, the stored doc's ETag and path, the id, kind and access level of each
   * node on the path, and the folder-doc epoch they were read under, in one statement (see WRITE_VIEW_BY_PATH); undefined when the path does not lead to
   * an asset or is deeper than the joined lookups go.
   */
  async writeViewByPath(db: Kysely<DB>, segments: readonly string[]) {
    const row = await WRITE_VIEW_BY_PATH.first(db, segments);
    if (!row) return undefined;
    const chain = levelsOf(row, segments.length).map((level) => level!);
    const asset = normalise(row as unknown as RawAssetRow) as AssetRow;
    return {
      chain,
      row: asset,
      docEtag: row.doc_etag as string | null,
      docPath: row.doc_path as string | null,
      folderEpoch: row.folder_epoch as string | number,
    };
  },

  /** The folders of a subtree of the asset library (the folder itself first) with their access levels. */
  async folderSubtree(db: Kysely<DB>, folderId: string) {
    const rows = await sql<{ id: string; parent_id: string | null; access_level: string | null }>`
      with recursive sub(id, parent_id, access_level) as (
        select id, parent_id, access_level from nodes where id = ${folderId}
        union all
        select n.id, n.parent_id, n.access_level from nodes n join sub on n.parent_id = sub.id
        where n.kind = 'folder'
      )
      select id, parent_id, access_level from sub`.execute(db);
    return rows.rows;
  },

  /** Ids and workflow states of the assets directly in the given folders. */
  async assetsIn(db: Kysely<DB>, folderIds: readonly string[]) {
    const out: { id: string; parent_id: string; workflow_state: string }[] = [];
    for (const part of chunks(folderIds)) {
      out.push(
        ...(await db
          .selectFrom('nodes as n')
          .innerJoin('assets as a', 'a.node_id', 'n.id')
          .select(['n.id', 'a.workflow_state', sql<string>`n.parent_id`.as('parent_id')])
          .where('n.parent_id', 'in', part)
          .where('n.kind', '=', 'asset')
          .execute()),
      );
    }
    return out;
  },
};
