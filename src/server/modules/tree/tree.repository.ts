import { sql, type Kysely, type RawBuilder, type Selectable } from 'kysely';
import { forUpdate, isPostgres } from '../../db/dialect.js';
import {
  prepared,
  type Answer,
  type Later,
  type LookupMode,
  type PreparedQuery,
  type StatementProof,
} from '../../db/prepared.js';
import { ROOT_NODE_ID } from '../../db/structure.js';
import type { DB, NodeKind, NodesTable } from '../../db/schema.js';

/** A node as read; `updated_by` may be left out of rows built in code (it is null then). */
export type NodeRow = Omit<Selectable<NodesTable>, 'updated_by'> & { updated_by?: string | null };

/** A fresh node row: the given identity and place, every optional column empty, both timestamps `ts`. */
export function newNodeRow(
  id: string,
  parentId: string,
  kind: NodeKind,
  name: string,
  ts: string,
): Selectable<NodesTable> {
  return {
    id,
    parent_id: parentId,
    kind,
    name,
    sort_order: 0,
    access_level: null,
    workflow: null,
    display_title: null,
    target_window: null,
    nav_class: null,
    template_name: null,
    external_url: null,
    link_target_id: null,
    landing_page_id: null,
    created_at: ts,
    updated_at: ts,
    updated_by: null,
  };
}

// Prepared (see db/prepared.ts): every path resolves through these, a segment at a time.
const BY_ID = prepared((db: Kysely<DB>, p: { id: string }) =>
  db.selectFrom('nodes').selectAll().where('id', '=', p.id),
);
const CHILD = prepared((db: Kysely<DB>, p: { parentId: string; name: string }) =>
  db.selectFrom('nodes').selectAll().where('parent_id', '=', p.parentId).where('name', '=', p.name),
);

/** The columns of a node, in the order of NodesTable. */
export const NODE_COLUMNS = [
  'id',
  'parent_id',
  'kind',
  'name',
  'sort_order',
  'access_level',
  'workflow',
  'display_title',
  'target_window',
  'nav_class',
  'template_name',
  'external_url',
  'link_target_id',
  'landing_page_id',
  'created_at',
  'updated_at',
  'updated_by',
] as const satisfies readonly (keyof NodesTable)[];

/** Paths deeper than this resolve through the recursive walk (RESOLVE_DEEP). */
export const MAX_JOINED_DEPTH = 12;

/**
 * A path of `depth` segments as left joins of `nodes` aliased `n0`, `n1`, … (`last` is the deepest): one indexed
 * lookup by (parent, name) per segment; a level that does not resolve leaves it and those below it null. `from`
 * goes after the select list (more joins may follow it), `where` last.
 */
export interface JoinedPath {
  depth: number;
  from: RawBuilder<unknown>;
  where: RawBuilder<unknown>;
  last: RawBuilder<unknown>;
}

function joinedPath(depth: number, p: Record<string, string>): JoinedPath {
  const joins = Array.from({ length: depth - 1 }, (_, k) => k + 1).map(
    (i) =>
      sql`left join nodes ${sql.raw(`n${i}`)} on ${sql.raw(`n${i}.parent_id = n${i - 1}.id and n${i}.name`)} = ${p[`n${i}`]}`,
  );
  return {
    depth,
    from: sql`from nodes n0 ${sql.join(joins, sql` `)}`,
    where: sql`where n0.parent_id = ${p.root} and n0.name = ${p.n0}`,
    last: sql.raw(`n${depth - 1}`),
  };
}

/**
 * A lookup of a path of any depth from `minDepth` to MAX_JOINED_DEPTH in one statement over its joined levels:
 * `build` writes the statement of one depth (prepared, db/prepared.ts, when first asked for and kept). `first`
 * answers undefined for a depth outside that range.
 */
export function pathLookup<R>(
  build: (db: Kysely<DB>, path: JoinedPath, proven: RawBuilder<unknown>) => RawBuilder<R>,
  opts: { minDepth: number; batched?: boolean },
) {
  const byDepth = new Map<number, PreparedQuery<Record<string, string>, R>>();
  return {
    first<M extends LookupMode = Later>(
      db: Kysely<DB>,
      segments: readonly string[],
      mode?: M,
    ): Answer<M, R | undefined> {
      const depth = segments.length;
      if (depth < opts.minDepth || depth > MAX_JOINED_DEPTH) {
        return (mode?.now ? undefined : Promise.resolve(undefined)) as Answer<M, R | undefined>;
      }
      let query = byDepth.get(depth);
      if (!query) {
        query = prepared((db: Kysely<DB>, p, proven) => build(db, joinedPath(depth, p), proven), opts);
        byDepth.set(depth, query);
      }
      const params: Record<string, string> = { root: ROOT_NODE_ID };
      segments.forEach((name, i) => (params[`n${i}`] = name));
      return query.first(db, params, mode);
    },
  };
}

/** A select list of the id, kind and access level of each of a joined path's levels (`id<i>`, `kind<i>`, …). */
export function levelColumns(depth: number) {
  return sql.raw(
    Array.from(
      { length: depth },
      (_, i) => `n${i}.id as id${i}, n${i}.kind as kind${i}, n${i}.access_level as access${i}`,
    ).join(', '),
  );
}

/** The levels of a row with levelColumns: id, kind and access level of each node, null from the first missing one. */
export function levelsOf(row: Record<string, unknown>, depth: number) {
  const chain: ({ id: string; kind: NodeKind; access_level: string | null } | null)[] = [];
  for (let i = 0; i < depth; i++) {
    const id = chain[i - 1] === null ? null : (row[`id${i}`] as string | null);
    chain.push(
      id === null ? null : { id, kind: row[`kind${i}`] as NodeKind, access_level: row[`access${i}`] as string | null },
    );
  }
  return chain;
}

/**
 * A path in one statement without recursion, each level's columns prefixed `l<i>_`, so that a path that stops
 * resolving answers how far it got (cheaper to run than the recursive walk: ~20 vs ~50 µs on SQLite).
 */
const RESOLVE_JOINED = pathLookup(
  (db, path) => sql<Record<string, unknown>>`select ${joinedColumns(path.depth)} ${path.from} ${path.where}`,
  { minDepth: 2 },
);

/** The chain of a row of joined levels (`l<i>_<column>`, joinedColumns): the levels that resolved, top first. */
export function chainOfJoinedRow(row: Record<string, unknown> | undefined, depth: number): NodeRow[] {
  const chain: NodeRow[] = [];
  for (let i = 0; row && i < depth && row[`l${i}_id`] !== null; i++) {
    const node: Record<string, unknown> = {};
    for (const c of NODE_COLUMNS) node[c] = row[`l${i}_${c}`];
    chain.push(node as NodeRow);
  }
  return chain;
}

/** A select list of every node column of each of a joined path's levels, prefixed `l<i>_`. */
export function joinedColumns(depth: number) {
  return sql.join(
    Array.from({ length: depth }, (_, i) => i).flatMap((i) =>
      NODE_COLUMNS.map((c) => sql.raw(`n${i}.${c} as l${i}_${c}`)),
    ),
  );
}

/**
 * A whole path in one query, for paths deeper than MAX_JOINED_DEPTH: the walk goes down one level per segment
 * (`names` is the JSON array of segments) and stops at the first that does not exist, so the rows are the chain
 * that resolved, top first.
 */
const RESOLVE_DEEP = prepared((db: Kysely<DB>, p: { root: string; names: string; count: number }) => {
  const nameAt = (depth: RawBuilder<unknown>) =>
    isPostgres(db)
      ? sql`(cast(${p.names} as jsonb) ->> ${depth})`
      : sql`json_extract(${p.names}, '$[' || ${depth} || ']')`;
  return sql<NodeRow & { depth: number }>`
    with recursive walk(depth, id) as (
      select 0, n.id from nodes n where n.parent_id = ${p.root} and n.name = ${nameAt(sql`0`)}
      union all
      select w.depth + 1, n.id from walk w
        join nodes n on n.parent_id = w.id and n.name = ${nameAt(sql`(w.depth + 1)`)}
        where w.depth + 1 < ${p.count}
    )
    select n.*, w.depth from walk w join nodes n on n.id = w.id order by w.depth`;
});

/** Ids per recursive path query (bound parameters stay far below every dialect's limit). */
const PATHS_CHUNK = 500;

/**
 * SQL of the tree that every item lives in (sites, folders, sections, links, pages, asset folders, assets).
 * Every lookup is by (parent_id, name) or parent_id, both indexed; nothing walks a whole site.
 */
export const treeRepository = {
  findById(db: Kysely<DB>, id: string) {
    return BY_ID.first(db, { id });
  },

  findChild(db: Kysely<DB>, parentId: string, name: string) {
    return CHILD.first(db, { parentId, name });
  },

  /**
   * The chain of nodes named by `segments`, from the top (a site or the asset library) down; null when any
   * segment does not exist. `found` tells how many segments resolved (for "which part is missing").
   */
  async resolve(db: Kysely<DB>, segments: readonly string[]): Promise<{ chain: NodeRow[]; found: number }> {
    if (segments.length === 0) return { chain: [], found: 0 };
    if (segments.length === 1) {
      const node = await CHILD.first(db, { parentId: ROOT_NODE_ID, name: segments[0]! });
      return node ? { chain: [node], found: 1 } : { chain: [], found: 0 };
    }
    if (segments.length <= MAX_JOINED_DEPTH) {
      const chain = chainOfJoinedRow(await RESOLVE_JOINED.first(db, segments), segments.length);
      return { chain, found: chain.length };
    }
    const rows = await RESOLVE_DEEP.all(db, {
      root: ROOT_NODE_ID,
      names: JSON.stringify(segments),
      count: segments.length,
    });
    const chain = rows.map(({ depth: _depth, ...node }) => node as NodeRow);
    return { chain, found: chain.length };
  },

  /** Direct children, optionally of some kinds, by navigation order then name. */
  children(db: Kysely<DB>, parentId: string, kinds?: readonly NodeKind[]) {
    let q = db.selectFrom('nodes').selectAll().where('parent_id', '=', parentId);
    if (kinds?.length) q = q.where('kind', 'in', kinds);
    return q.orderBy('sort_order').orderBy('name').execute();
  },

  /** Names from the top (site or `Assets`) down to the node itself, walking up its parents; null in the trash. */
  async pathOf(db: Kysely<DB>, id: string): Promise<string[] | null> {
    const names: string[] = [];
    let current = await treeRepository.findById(db, id);
    while (current && current.id !== ROOT_NODE_ID) {
      names.unshift(current.name);
      if (!current.parent_id) break;
      current = await treeRepository.findById(db, current.parent_id);
    }
    // A node below the trash root (TRASH_NODE_ID) has no path: only what the hidden root holds has one.
    return current?.id === ROOT_NODE_ID ? names : null;
  },

  /** Ids of the node and everything below it (one recursive query). */
  async subtreeIds(db: Kysely<DB>, id: string): Promise<string[]> {
    const rows = await db
      .withRecursive('sub(id)', (qb) =>
        qb
          .selectFrom('nodes')
          .select('id')
          .where('id', '=', id)
          .unionAll((q) => q.selectFrom('nodes').innerJoin('sub', 'sub.id', 'nodes.parent_id').select('nodes.id')),
      )
      .selectFrom('sub')
      .select('id')
      .execute();
    return rows.map((r) => r.id);
  },

  /**
   * Reads a node and, on PostgreSQL, locks its row until the transaction ends, so that a check (If-Match, "is
   * it empty") and the write that follows are one step even across server nodes. SQLite serialises writers.
   */
  lock(db: Kysely<DB>, id: string) {
    return forUpdate(db, db.selectFrom('nodes').selectAll().where('id', '=', id)).executeTakeFirst();
  },

  /**
   * Paths (names from the site or `Assets` down) of many nodes in one recursive query walking up their parents;
   * nodes that no longer exist, or wait in the trash (their walk ends elsewhere than the root), are missing.
   */
  async pathsOf(db: Kysely<DB>, ids: readonly string[]): Promise<Map<string, string[]>> {
    const byStart = new Map<string, { name: string; depth: number }[]>();
    const rooted = new Set<string>();
    const unique = [...new Set(ids)];
    for (let i = 0; i < unique.length; i += PATHS_CHUNK) {
      const chunk = unique.slice(i, i + PATHS_CHUNK);
      const rows = await sql<{ start_id: string; id: string; name: string; depth: number | string }>`
        with recursive up(start_id, id, parent_id, name, depth) as (
          select id, id, parent_id, name, 0 from nodes where id in (${sql.join(chunk)})
          union all
          select up.start_id, n.id, n.parent_id, n.name, up.depth + 1 from nodes n join up on n.id = up.parent_id
        )
        select start_id, id, name, depth from up`.execute(db);
      for (const r of rows.rows) {
        if (r.id === ROOT_NODE_ID) {
          rooted.add(r.start_id);
          continue;
        }
        const list = byStart.get(r.start_id) ?? [];
        list.push({ name: r.name, depth: Number(r.depth) });
        byStart.set(r.start_id, list);
      }
    }
    const out = new Map<string, string[]>();
    for (const [id, list] of byStart) {
      if (!rooted.has(id)) continue;
      out.set(
        id,
        list.sort((a, b) => b.depth - a.depth).map((x) => x.name),
      );
    }
    return out;
  },

  /** The node and everything below it with its depth below the node (0 for the node), parents before children. */
  async subtree(
    db: Kysely<DB>,
    id: string,
  ): Promise<{ id: string; parent_id: string | null; kind: NodeKind; depth: number }[]> {
    const rows = await sql<{ id: string; parent_id: string | null; kind: NodeKind; depth: number | string }>`
      with recursive sub(id, parent_id, kind, depth) as (
        select id, parent_id, kind, 0 from nodes where id = ${id}
        union all
        select n.id, n.parent_id, n.kind, sub.depth + 1 from nodes n join sub on n.parent_id = sub.id
      )
      select id, parent_id, kind, depth from sub`.execute(db);
    return rows.rows.map((r) => ({ ...r, depth: Number(r.depth) })).sort((a, b) => a.depth - b.depth);
  },

  insert(db: Kysely<DB>, row: NodeRow) {
    return db.insertInto('nodes').values(row).execute();
  },

  update(db: Kysely<DB>, id: string, patch: Partial<Omit<NodeRow, 'id'>>) {
    return db.updateTable('nodes').set(patch).where('id', '=', id).execute();
  },

  /** The highest `sort_order` among a parent's children (new navigation entries go after it). */
  async maxSortOrder(db: Kysely<DB>, parentId: string): Promise<number> {
    const r = await db
      .selectFrom('nodes')
      .select((eb) => eb.fn.max('sort_order').as('m'))
      .where('parent_id', '=', parentId)
      .executeTakeFirst();
    return Number(r?.m ?? 0);
  },
};

/**
 * The condition that no container was renamed or moved and no access level or kind set since `folderEpoch` was
 * read (`folder_doc_epoch`, migration 0130): the paths below and the access levels on them are as they were then.
 * A write made from rows read under that epoch carries it (pages and assets remembered or read before).
 */
export function foldersUnchanged(folderEpoch: string | number): StatementProof {
  return { condition: FOLDERS_UNCHANGED, values: [folderEpoch] };
}
const FOLDERS_UNCHANGED = '(select value from folder_doc_epoch where id = 1) = {}';
