import { sql, type Kysely } from 'kysely';
import { containsIgnoringCase, isPostgres, jsonTextField } from '../../db/dialect.js';
import {
  allOf,
  mapAnswer,
  prepared,
  preparedUpdate,
  type Answer,
  type Later,
  type LookupMode,
  type StatementProof,
} from '../../db/prepared.js';
import type { DB, NodeKind } from '../../db/schema.js';
import { ROOT_NODE_ID } from '../../db/structure.js';
import type { AccessLevel } from '../tree/access.js';
import {
  chainOfJoinedRow,
  foldersUnchanged,
  joinedColumns,
  pathLookup,
  type NodeRow,
} from '../tree/tree.repository.js';

/** What a folder listing needs of each child. */
export type ChildRow = Pick<NodeRow, 'id' | 'kind' | 'name' | 'sort_order' | 'link_target_id' | 'external_url'>;

/** What a table of a container's children needs of each (see `childSummaries`). */
export type ChildSummaryRow = Awaited<ReturnType<(typeof foldersRepository)['childSummaries']>>[number];

/** A recursive CTE `sub(id)`: the node and everything below it. */
export function subtreeCte(db: Kysely<DB>, id: string) {
  return db.withRecursive('sub(id)', (qb) =>
    qb
      .selectFrom('nodes')
      .select('id')
      .where('id', '=', id)
      .unionAll((q) => q.selectFrom('nodes').innerJoin('sub', 'sub.id', 'nodes.parent_id').select('nodes.id')),
  );
}

/**
 * The item at a path with every level's columns (tree.repository's joined lookups), its children as one JSON array
 * (text) of `[id, kind, name, sort_order, link_target_id, external_url]`, and the path of the doc stored for it
 * under the current epoch (migration 0130) with that row's `seq` and the epoch, in one statement (a GET that found
 * no doc answering by its path presents from this and stores).
 */
const WITH_CHILDREN_BY_PATH = pathLookup(
  (db, path, proven) => {
    const columns = sql.raw('c.id, c.kind, c.name, c.sort_order, c.link_target_id, c.external_url');
    const children = isPostgres(db)
      ? sql`coalesce(json_agg(json_build_array(${columns})), '[]')::text`
      : sql`json_group_array(json_array(${columns}))`;
    return sql<Record<string, unknown>>`select ${joinedColumns(path.depth)},
      (select ${children} from nodes c where c.parent_id = ${path.last}.id) as children_json,
      fd.seq as doc_seq, case when fd.doc is not null and fd.doc_epoch = e.value then fd.doc_path end as doc_path,
      e.value as epoch${proven}
      ${path.from} left join folder_docs fd on fd.node_id = ${path.last}.id
      cross join folder_doc_epoch e ${path.where} and e.id = 1`;
  },
  { minDepth: 1 },
);

/** What one read of an item at a path found (see withChildrenByPathQueries). */
export interface FolderRead {
  chain: NodeRow[];
  children: ChildRow[];
  /** The path a doc is stored at for the item under the current epoch; null when none is. */
  storedPath: string | null;
  /** The doc row's `seq` as read with the rest; null when there was no row. */
  seq: string | number | null;
  /** `folder_doc_epoch` as read with the rest (a doc made from these rows is stored under it). */
  epoch: string | number;
}

/** A WITH_CHILDREN_BY_PATH row; undefined when the path did not resolve all the way. */
function withChildrenOf(row: Record<string, unknown> | undefined, depth: number): FolderRead | undefined {
  const chain = chainOfJoinedRow(row, depth);
  if (!row || chain.length < depth) return undefined;
  const children = (JSON.parse(row.children_json as string) as ChildTuple[]).map(
    ([id, kind, name, sort_order, link_target_id, external_url]): ChildRow => ({
      id,
      kind,
      name,
      sort_order: Number(sort_order),
      link_target_id,
      external_url,
    }),
  );
  return {
    chain,
    children,
    storedPath: (row.doc_path as string | null) ?? null,
    seq: (row.doc_seq as string | number | null) ?? null,
    epoch: row.epoch as string | number,
  };
}

/** What a store of a folder's GET answer writes (see storeDoc). */
export interface FolderDocStore {
  id: string;
  doc: string;
  etag: string;
  path: string;
  access: AccessLevel;
  /** The strictest access level set on the path (null: none). */
  cap: AccessLevel | null;
  /** `folder_doc_epoch` and the doc row's `seq` as read with the rows the doc was made from (seq null: no row). */
  epoch: string | number;
  seq: string | number | null;
}

/**
 * Stores a folder's GET answer made from rows read with the doc row's `seq` (null: no row then), only if nothing it
 * shows has changed since: the row's `seq` is still the one read, or there is still no row (and the node exists).
 */
const STORE_DOC_AT_SEQ = prepared((db: Kysely<DB>, p: Omit<FolderDocStore, 'seq'> & { seq: string | number }) =>
  db
    .updateTable('folder_docs')
    .set({
      doc: p.doc,
      doc_etag: p.etag,
      doc_path: p.path,
      doc_access: p.access,
      doc_cap: p.cap,
      doc_epoch: p.epoch,
    })
    .where('node_id', '=', p.id)
    .where('seq', '=', p.seq),
);
const STORE_DOC_NEW = prepared(
  (db: Kysely<DB>, p: Omit<FolderDocStore, 'seq'>) =>
    sql`insert into folder_docs (node_id, seq, doc, doc_etag, doc_path, doc_access, doc_cap, doc_epoch)
      select ${p.id}, 1, ${p.doc}, ${p.etag}, ${p.path}, ${p.access}, ${p.cap}, ${p.epoch}
      where exists (select 1 from nodes where id = ${p.id})
      on conflict (node_id) do nothing`,
);

/**
 * An update of a node's own columns outside a transaction that also bumps the change generation (PostgreSQL), under
 * the conditions its proof adds (see writeFieldsIf); runs that arrive together go out as one statement.
 */
const UPDATE_NODE_FIELDS = preparedUpdate<NodeRow>('nodes', 'id', [], undefined, {
  bumpsGeneration: true,
  batched: true,
});

/**
 * The condition that nothing a node's folder JSON shows changed since its doc row's `seq` was read (null: there was
 * no row then). Any write of a column the JSON shows, or of a child it lists, advances that `seq` or makes the row.
 */
function docSeqUnchanged(id: string, seq: string | number | null): StatementProof {
  return seq === null
    ? { condition: 'not exists (select 1 from folder_docs where node_id = {})', values: [id] }
    : { condition: '(select seq from folder_docs where node_id = {}) = {}', values: [id, seq] };
}

/** A stored folder doc found by its path under the current epoch (DOC_AT_PATH). */
export interface FolderDocAtPath {
  doc: string;
  doc_etag: string;
  doc_access: AccessLevel;
  doc_cap: AccessLevel | null;
  /** With a proof (LookupMode): whether it holds. */
  proven?: boolean;
}
/**
 * The doc stored at a path under the current epoch: one indexed read. Its path led to its node when it was made,
 * and no rename, move or access level since (the epoch) nor change of what it shows (which clears it).
 */
const DOC_AT_PATH = prepared(
  (db: Kysely<DB>, p: { path: string }, proven) =>
    sql<FolderDocAtPath>`select doc, doc_etag, doc_access, doc_cap${proven} from folder_docs
      where doc_path = ${p.path} and doc is not null and doc_etag is not null and doc_access is not null
        and doc_epoch = (select value from folder_doc_epoch where id = 1)`,
  { batched: true },
);
type ChildTuple = [string, NodeKind, string, number, string | null, string | null];

/** SQL of the folders module (Kysely only). Every listing reads one parent's children through the parent index. */
export const foldersRepository = {
  /** Direct children of a node, with only the columns a listing needs. */
  children(db: Kysely<DB>, parentId: string): Promise<ChildRow[]> {
    return db
      .selectFrom('nodes')
      .select(['id', 'kind', 'name', 'sort_order', 'link_target_id', 'external_url'])
      .where('parent_id', '=', parentId)
      .execute();
  },

  /**
   * The chain of the item at `segments` and its children in one statement (with `proven` as LookupMode says);
   * `found` undefined when the path does not resolve all the way or is deeper than the joined lookups go.
   */
  withChildrenByPath<M extends LookupMode = Later>(db: Kysely<DB>, segments: readonly string[], mode?: M) {
    return mapAnswer<M, Record<string, unknown> | undefined, { found: FolderRead | undefined; proven: boolean }>(
      WITH_CHILDREN_BY_PATH.first(db, segments, mode),
      (row) => ({ found: withChildrenOf(row, segments.length), proven: row?.proven === true }),
    );
  },

  /** Stores a folder's GET answer made from a FolderRead's rows (see STORE_DOC_AT_SEQ); a no-op when they changed. */
  async storeDoc(db: Kysely<DB>, p: FolderDocStore): Promise<void> {
    if (p.seq === null) await STORE_DOC_NEW.run(db, p);
    else await STORE_DOC_AT_SEQ.run(db, { ...p, seq: p.seq });
  },

  /**
   * Writes `patch` on the node `id` only if nothing its JSON shows changed since `read` (its doc row's `seq` and the
   * folder-doc epoch as read with it) and, with a `proof`, only if that holds too (an ActorClaim's); the change
   * generation is bumped in the same statement (PostgreSQL). Answers whether the row was written.
   */
  async writeFieldsIf(
    db: Kysely<DB>,
    id: string,
    patch: Partial<NodeRow>,
    read: Pick<FolderRead, 'seq' | 'epoch'>,
    proof?: StatementProof,
  ): Promise<boolean> {
    const condition = allOf(docSeqUnchanged(id, read.seq), foldersUnchanged(read.epoch), proof)!;
    return (await UPDATE_NODE_FIELDS.run(db, id, patch, undefined, condition)) > 0n;
  },

  /** The doc stored at `path` under the current epoch (DOC_AT_PATH). */
  docAtPath<M extends LookupMode = Later>(
    db: Kysely<DB>,
    path: string,
    mode?: M,
  ): Answer<M, FolderDocAtPath | undefined> {
    return DOC_AT_PATH.first(db, { path }, mode);
  },

  /** Blob keys (content and thumbnails) of every asset in a subtree. */
  async subtreeBlobKeys(db: Kysely<DB>, id: string): Promise<string[]> {
    const rows = await subtreeCte(db, id)
      .selectFrom('assets')
      .select(['assets.blob_key', 'assets.thumb_blob_key'])
      .where('assets.node_id', 'in', (eb) => eb.selectFrom('sub').select('sub.id'))
      .execute();
    return rows.flatMap((r) => [r.blob_key, r.thumb_blob_key]).filter((k): k is string => !!k);
  },

  templateExists(db: Kysely<DB>, name: string) {
    return db.selectFrom('templates').select('name').where('name', '=', name).executeTakeFirst();
  },

  /** Every site. */
  sites(db: Kysely<DB>) {
    return db
      .selectFrom('nodes')
      .select(['id', 'name', 'display_title'])
      .where('parent_id', '=', ROOT_NODE_ID)
      .where('kind', '=', 'site')
      .execute();
  },

  /**
   * Items whose name or title contains `text` (any case): a node's name or display title, a page's display name,
   * an asset's display title or alt text (in its fields). Shortest names first.
   */
  find(db: Kysely<DB>, text: string, kinds: readonly NodeKind[], limit: number) {
    return db
      .selectFrom('nodes')
      .leftJoin('pages', 'pages.node_id', 'nodes.id')
      .leftJoin('assets', 'assets.node_id', 'nodes.id')
      .select(['nodes.id', 'nodes.kind', 'nodes.name', 'nodes.display_title', 'pages.display_name', 'assets.fields'])
      .where('nodes.kind', 'in', kinds)
      .where((eb) =>
        eb.or([
          containsIgnoringCase(db, 'nodes.name', text),
          containsIgnoringCase(db, 'nodes.display_title', text),
          containsIgnoringCase(db, 'pages.display_name', text),
          containsIgnoringCase(db, jsonTextField(db, 'assets.fields', 'displaytitle'), text),
          containsIgnoringCase(db, jsonTextField(db, 'assets.fields', 'alttext'), text),
        ]),
      )
      .orderBy(sql`length(nodes.name)`)
      .orderBy('nodes.name')
      .orderBy('nodes.id')
      .limit(limit)
      .execute();
  },

  /** The direct children of a node with what a table of them shows: titles, workflow states, who changed them when. */
  childSummaries(db: Kysely<DB>, parentId: string, kinds?: readonly NodeKind[]) {
    return db
      .selectFrom('nodes')
      .leftJoin('pages', 'pages.node_id', 'nodes.id')
      .leftJoin('assets', 'assets.node_id', 'nodes.id')
      .select([
        'nodes.id',
        'nodes.kind',
        'nodes.name',
        'nodes.sort_order',
        'nodes.display_title',
        'nodes.updated_at',
        'nodes.updated_by',
        'pages.display_name',
        'pages.workflow_state as page_state',
        'pages.updated_at as page_updated_at',
        'pages.updated_by as page_updated_by',
        'assets.workflow_state as asset_state',
        'assets.updated_at as asset_updated_at',
        'pages.publish_at as page_publish_at',
        'pages.unpublish_at as page_unpublish_at',
        'assets.publish_at as asset_publish_at',
        'assets.unpublish_at as asset_unpublish_at',
        // The lease mirror (modules/leases): who has the page or asset checked out, '' when nobody.
        sql<string | null>`coalesce(pages.checked_out_user, assets.checked_out_user)`.as('checked_out_user'),
      ])
      .where('nodes.parent_id', '=', parentId)
      .$if(kinds !== undefined, (q) => q.where('nodes.kind', 'in', kinds!))
      .execute();
  },

  /** Ids of a node and all its ancestors up to the root, read fresh (one recursive query). */
  async ancestorIds(db: Kysely<DB>, id: string): Promise<string[]> {
    const rows = await sql<{ id: string }>`
      with recursive up(id, parent_id) as (
        select id, parent_id from nodes where id = ${id}
        union all
        select n.id, n.parent_id from nodes n join up on n.id = up.parent_id
      )
      select id from up`.execute(db);
    return rows.rows.map((r) => r.id);
  },

  /** Sets `sort_order` of many nodes (navigation order). */
  async setSortOrders(db: Kysely<DB>, orders: readonly { id: string; sort_order: number }[]): Promise<void> {
    for (const o of orders) {
      await db.updateTable('nodes').set({ sort_order: o.sort_order }).where('id', '=', o.id).execute();
    }
  },

  /** Sets an asset's last change (a rename). */
  touchAsset(db: Kysely<DB>, id: string, now: string) {
    return db.updateTable('assets').set({ updated_at: now }).where('node_id', '=', id).execute();
  },

  /**
   * What changes whenever a page or asset changes (its node, its page or asset row): compared to tell that
   * nothing happened to it between an ETag check and a write. Null when the item is gone.
   */
  async itemStamp(db: Kysely<DB>, id: string): Promise<string | null> {
    const r = await db
      .selectFrom('nodes')
      .leftJoin('pages', 'pages.node_id', 'nodes.id')
      .leftJoin('assets', 'assets.node_id', 'nodes.id')
      .select([
        'nodes.updated_at as n',
        'nodes.name',
        'nodes.parent_id',
        'pages.updated_at as p',
        'assets.updated_at as a',
      ])
      .where('nodes.id', '=', id)
      .executeTakeFirst();
    return r ? JSON.stringify([r.n, r.name, r.parent_id, r.p, r.a]) : null;
  },
};
