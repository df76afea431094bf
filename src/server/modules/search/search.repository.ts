import { sql, type Kysely, type RawBuilder } from 'kysely';
import { isPostgres } from '../../db/dialect.js';
import type { DB } from '../../db/schema.js';
import type { SearchKind } from '../../../shared/api/search.js';
import { ROOT_NODE_ID } from '../../db/structure.js';
import { fts5Match, type ParsedSearch, type SearchTerm } from './search.query.js';

/** Where a page of hits starts: after the hit of this score and node id (scores ascend: lower is better). */
export interface SearchAfter {
  score: number;
  id: string;
}

export interface SearchFilter {
  kinds?: readonly SearchKind[];
  states?: readonly string[];
  type?: string;
  /** Only items strictly below this node (a site, a folder, the asset library). */
  underId?: string;
  after?: SearchAfter;
  limit: number;
}

export interface SearchRow {
  node_id: string;
  kind: SearchKind;
  title: string;
  score: number;
}

export interface HitDetails {
  node_id: string;
  type: string;
  state: string | null;
  modified: string | null;
  snippet: string;
}

/** Start and end of a matched run in a snippet, before escaping (search.presenter.ts turns them into `<mark>`). */
export const MARK_OPEN = '\u0001';
export const MARK_CLOSE = '\u0002';

// A title match weighs ten times a body match: best match first, title before body.
const PG_WEIGHTS = sql.raw(`'{0, 0, 0.1, 1.0}'`);

/** The PostgreSQL tsquery of the terms: each term's words bound as a parameter, never parsed as query syntax. */
function tsQuery(s: ParsedSearch): RawBuilder<unknown> {
  const term = (t: SearchTerm) =>
    t.prefix
      ? // Letters and digits only (search.query.ts): nothing in them is tsquery syntax.
        sql`to_tsquery('english', ${t.words.join(' <-> ') + ':*'})`
      : sql`phraseto_tsquery('english', ${t.words.join(' ')})`;
  const parts = s.include.map(term);
  for (const t of s.exclude) parts.push(sql`(!! ${term(t)})`);
  return sql`(${sql.join(parts, sql` && `)})`;
}

function filters(db: Kysely<DB>, f: SearchFilter): RawBuilder<unknown>[] {
  const out: RawBuilder<unknown>[] = [];
  if (f.kinds?.length) out.push(sql`d.kind in (${sql.join(f.kinds)})`);
  if (f.states?.length) {
    out.push(sql`(exists (select 1 from pages p where p.node_id = d.node_id and p.workflow_state in (${sql.join(f.states)}))
      or exists (select 1 from assets a where a.node_id = d.node_id and a.workflow_state in (${sql.join(f.states)})))`);
  }
  if (f.type) {
    out.push(sql`(exists (select 1 from widgets w where w.page_id = d.node_id and w.type = ${f.type})
      or exists (select 1 from assets a where a.node_id = d.node_id and a.type = ${f.type})
      or (d.kind = 'folder' and exists (select 1 from nodes n where n.id = d.node_id and n.kind = ${f.type})))`);
  }
  if (f.underId) {
    out.push(sql`d.node_id in (
      with recursive sub(id) as (
        select id from nodes where parent_id = ${f.underId}
        union all
        select n.id from nodes n join sub on n.parent_id = sub.id
      ) select id from sub)`);
  }
  if (f.after) {
    out.push(sql`(score > ${f.after.score} or (score = ${f.after.score} and d.node_id > ${f.after.id}))`);
  }
  void db;
  return out;
}

/** SQL of full-text search over `search_docs` (migration 0270): FTS5 on SQLite, the `tsv` GIN index on PostgreSQL. */
export const searchRepository = {
  /** Up to `limit` matches of `s`, best first (then by node id), after `after`. */
  async find(db: Kysely<DB>, s: ParsedSearch, f: SearchFilter): Promise<SearchRow[]> {
    const where = filters(db, f);
    const and = where.length ? sql` and ${sql.join(where, sql` and `)}` : sql``;
    if (isPostgres(db)) {
      const { rows } = await sql<SearchRow>`
        select node_id, kind, title, score from (
          select d.node_id, d.kind, d.title, -ts_rank(${PG_WEIGHTS}, d.tsv, q.q)::float8 as score
          from search_docs d, (select ${tsQuery(s)} as q) q
          where d.tsv @@ q.q
        ) d
        where true${and}
        order by score, node_id
        limit ${f.limit}`.execute(db);
      return rows.map((r) => ({ ...r, score: Number(r.score) }));
    }
    const { rows } = await sql<SearchRow>`
      select node_id, kind, title, score from (
        select d.node_id, d.kind, d.title, bm25(search_fts, 10.0, 1.0) as score
        from search_fts join search_docs d on d.id = search_fts.rowid
        where search_fts match ${fts5Match(s)}
      ) d
      where true${and}
      order by score, node_id
      limit ${f.limit}`.execute(db);
    return rows;
  },

  /** Type, state, last change and the snippet (matched runs between MARK_OPEN and MARK_CLOSE) of some hits. */
  async details(db: Kysely<DB>, s: ParsedSearch, ids: readonly string[]): Promise<Map<string, HitDetails>> {
    if (ids.length === 0) return new Map();
    const rest = sql`
        n.kind as node_kind, n.updated_at as node_modified,
        p.template_name, p.workflow_state as page_state, p.updated_at as page_modified,
        a.type as asset_type, a.workflow_state as asset_state, a.updated_at as asset_modified`;
    const joins = sql`join nodes n on n.id = d.node_id
        left join pages p on p.node_id = d.node_id
        left join assets a on a.node_id = d.node_id`;
    type Row = Record<string, string | null> & { node_id: string; snippet: string };
    const rows = isPostgres(db)
      ? (
          await sql<Row>`
            select d.node_id, ts_headline('english',
                case when to_tsvector('english', d.body) @@ q.q then d.body else d.title end, q.q,
                ${`StartSel=${MARK_OPEN}, StopSel=${MARK_CLOSE}, MaxWords=24, MinWords=12, ShortWord=2`}
              ) as snippet, ${rest}
            from search_docs d ${joins}, (select ${tsQuery(s)} as q) q
            where d.node_id in (${sql.join(ids)})`.execute(db)
        ).rows
      : (
          await sql<Row>`
            select d.node_id, snippet(search_fts, -1, ${MARK_OPEN}, ${MARK_CLOSE}, '…', 16) as snippet, ${rest}
            from search_fts join search_docs d on d.id = search_fts.rowid ${joins}
            where search_fts match ${fts5Match(s)} and d.node_id in (${sql.join(ids)})`.execute(db)
        ).rows;
    const out = new Map<string, HitDetails>();
    for (const r of rows) {
      out.set(r.node_id, {
        node_id: r.node_id,
        type: r.template_name ?? r.asset_type ?? r.node_kind ?? '',
        state: r.page_state ?? r.asset_state ?? null,
        modified: r.page_modified ?? r.asset_modified ?? r.node_modified ?? null,
        snippet: r.snippet ?? '',
      });
    }
    return out;
  },

  /** For each node: the names from the top (site or `Assets`) down and the access levels set on the way. */
  async chains(
    db: Kysely<DB>,
    ids: readonly string[],
  ): Promise<Map<string, { names: string[]; levels: (string | null)[] }>> {
    const out = new Map<string, { names: string[]; levels: (string | null)[] }>();
    if (ids.length === 0) return out;
    const { rows } = await sql<{ start_id: string; name: string; access_level: string | null; depth: number | string }>`
      with recursive up(start_id, id, parent_id, name, access_level, depth) as (
        select id, id, parent_id, name, access_level, 0 from nodes where id in (${sql.join([...new Set(ids)])})
        union all
        select up.start_id, n.id, n.parent_id, n.name, n.access_level, up.depth + 1
        from nodes n join up on n.id = up.parent_id
      )
      select start_id, name, access_level, depth from up where id <> ${ROOT_NODE_ID}
      order by start_id, depth desc`.execute(db);
    for (const r of rows) {
      const c = out.get(r.start_id) ?? { names: [], levels: [] };
      c.names.push(r.name);
      c.levels.push(r.access_level);
      out.set(r.start_id, c);
    }
    return out;
  },
};
