import { sql, type Kysely, type RawBuilder } from 'kysely';
import { isPostgres } from '../../db/dialect.js';
import type { DB } from '../../db/schema.js';
import type { SearchKind } from '../../../shared/api/search.js';
import { ROOT_NODE_ID } from '../../db/structure.js';
import { fts5Exclude, fts5Include, fts5Match, type ParsedSearch, type SearchTerm } from './search.query.js';

/**
 * Where a page of hits starts: after the hit of this tier (0: the title matches, 1: the rest), score (ascending:
 * lower is better) and index row id.
 */
export interface SearchAfter {
  tier: number;
  score: number;
  id: number;
}

export interface SearchFilter {
  kinds?: readonly SearchKind[];
  states?: readonly string[];
  type?: string;
  /** Only items strictly below this node (a site, a folder, the asset library). */
  underId?: string;
}

/** One of the engine's best matches; `wanted` is false when the filters leave it out. */
export interface SearchRow {
  id: number;
  node_id: string;
  kind: SearchKind;
  title: string;
  tier: number;
  score: number;
  wanted: boolean;
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
  return tsTerms(s.include, s.exclude);
}

/** One term as a tsquery: its words bound as a parameter. */
function tsTerm(t: SearchTerm): RawBuilder<unknown> {
  return t.prefix
    ? // Letters and digits only (search.query.ts): nothing in them is tsquery syntax.
      sql`to_tsquery('folio_english', ${t.words.join(' <-> ') + ':*'})`
    : sql`phraseto_tsquery('folio_english', ${t.words.join(' ')})`;
}

function tsTerms(include: readonly SearchTerm[], exclude: readonly SearchTerm[]): RawBuilder<unknown> {
  const parts = include.map(tsTerm);
  for (const t of exclude) parts.push(sql`(!! ${tsTerm(t)})`);
  return sql`(${sql.join(parts, sql` && `)})`;
}

/** A tsquery matching any of `terms`. */
function tsAny(terms: readonly SearchTerm[]): RawBuilder<unknown> {
  return sql`(${sql.join(terms.map(tsTerm), sql` || `)})`;
}

/** The filters as one SQL condition on `d` (a `search_docs` row); null when there are none. */
function filters(f: SearchFilter): RawBuilder<unknown> | null {
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
  return out.length ? sql`(${sql.join(out, sql` and `)})` : null;
}

/** PostgreSQL's floor reads at most this many newest rows per match wanted before it asks the GIN index (`floor`). */
export const FLOOR_WALK = 8;

/** From the index row id `floor` up, on an id column (see `searchRepository.floor`); nothing when null. */
const fromFloor = (id: RawBuilder<unknown>, floor: number | null) =>
  floor === null ? sql`` : sql` and ${id} >= ${floor}`;

/** After the cursor, on a score column and an id column. */
const afterCursor = (score: RawBuilder<unknown>, id: RawBuilder<unknown>, a: SearchAfter) =>
  sql`(${score} > ${a.score} or (${score} = ${a.score} and ${id} > ${a.id}))`;

/** The candidates of one tier (see `find`). */
async function findTier(
  db: Kysely<DB>,
  s: ParsedSearch,
  f: SearchFilter,
  tier: number,
  after: SearchAfter | null,
  limit: number,
  floor: number | null,
): Promise<SearchRow[]> {
  const cond = filters(f);
  const wanted = cond ? sql`case when ${cond} then 1 else 0 end` : sql`1`;
  let candidates: RawBuilder<unknown>;
  if (isPostgres(db)) {
    const score =
      tier === 0 ? sql`-ts_rank(d.title_tsv, q.iq)::float8` : sql`-ts_rank(${PG_WEIGHTS}, d.tsv, q.q)::float8`;
    // A title match is a match of `tsv` too (the title's words lead it): only the excluded words need `tsv`, whose
    // rechecks read every candidate's whole text (a GIN prefix match is rechecked on the row).
    const match =
      tier === 0
        ? s.exclude.length
          ? sql`d.title_tsv @@ q.iq and not (d.tsv @@ q.ex)`
          : sql`d.title_tsv @@ q.iq`
        : sql`d.tsv @@ q.q and not (d.title_tsv @@ q.iq)`;
    candidates = sql`
      select d.id, ${score} as score
      from search_docs d, (select ${tsQuery(s)} as q, ${tsTerms(s.include, [])} as iq${
        s.exclude.length ? sql`, ${tsAny(s.exclude)} as ex` : sql``
      }) q
      where ${match}${fromFloor(sql`d.id`, floor)}${after ? sql` and ${afterCursor(score, sql`d.id`, after)}` : sql``}
      order by score, d.id
      limit ${limit}`;
  } else {
    const exclude = fts5Exclude(s);
    const bounded = fromFloor(sql`rowid`, floor);
    const cursor = sql`${bounded}${after ? sql` and ${afterCursor(sql`rank`, sql`rowid`, after)}` : sql``}`;
    // Title matches leave tier 1 by a subquery, not `NOT {title}:…`: bm25 reads every match of each phrase (IDF).
    candidates =
      tier === 0
        ? sql`
          select rowid as id, rank as score from search_title_fts
          where search_title_fts match ${fts5Include(s)}${cursor}
            ${exclude ? sql`and rowid not in (select rowid from search_fts where search_fts match ${exclude}${bounded})` : sql``}
          order by rank, rowid
          limit ${limit}`
        : sql`
          select rowid as id, rank as score from search_fts
          where search_fts match ${fts5Match(s)} and rank match 'bm25(10.0, 1.0)'${cursor}
            and rowid not in (select rowid from search_title_fts where search_title_fts match ${fts5Include(s)}${bounded})
          order by rank, rowid
          limit ${limit}`;
  }
  const { rows } = await sql<
    { id: number | string; node_id: string; kind: SearchKind; title: string } & Record<
      'score' | 'wanted',
      number | string
    >
  >`
    with c as (${candidates})
    select d.id, d.node_id, d.kind, d.title, c.score, ${wanted} as wanted
    from c join search_docs d on d.id = c.id
    order by c.score, c.id`.execute(db);
  return rows.map((r) => ({
    ...r,
    id: Number(r.id),
    tier,
    score: Number(r.score),
    wanted: Number(r.wanted) === 1,
  }));
}

/** SQL of full-text search over `search_docs` (migration 0270): FTS5 on SQLite, the `tsv` GIN index on PostgreSQL. */
export const searchRepository = {
  /**
   * The ids of the nodes of `kind` whose indexed text matches `s`, as a subquery (the asset library's `q`: the same
   * engine as the search dialog, within the listing's own order and filters). Nothing matches a search without words.
   */
  matchingNodes(db: Kysely<DB>, s: ParsedSearch, kind: SearchKind): RawBuilder<string> {
    if (!s.include.length) return sql<string>`select node_id from search_docs where 1 = 0`;
    return isPostgres(db)
      ? sql<string>`select d.node_id from search_docs d where d.kind = ${kind} and d.tsv @@ ${tsQuery(s)}`
      : sql<string>`select d.node_id from search_docs d where d.kind = ${kind}
          and d.id in (select rowid from search_fts where search_fts match ${fts5Match(s)})`;
  },

  /**
   * The index row id of the `max`-th newest match of `s` that the filters keep, when more match; else null. Row ids
   * grow as items are first indexed; both engines read matches in that order unscored (FTS5 `ORDER BY rowid DESC`,
   * the primary key or the GIN index's matches sorted): `max` + 1 matches read, not a common word's all scored.
   */
  async floor(db: Kysely<DB>, s: ParsedSearch, f: SearchFilter, max: number): Promise<number | null> {
    const cond = filters(f);
    const where = cond ? sql` and ${cond}` : sql``;
    const window = sql`limit 2 offset ${max - 1}`;
    const first = async (query: RawBuilder<unknown>) => {
      const { rows } = await sql<{ id: number | string }>`${query}`.execute(db);
      return rows.length === 2 ? Number(rows[0]!.id) : null;
    };
    if (!isPostgres(db)) {
      return first(sql`select f.rowid as id from search_fts f${cond ? sql` join search_docs d on d.id = f.rowid` : sql``}
          where f.search_fts match ${fts5Match(s)}${where} order by f.rowid desc ${window}`);
    }
    // PostgreSQL cannot tell how many rows a prefix matches (it guesses 2% for a `phone:*` that 99% hold), so its
    // plan is no guide; both ways are tried here, cheaper first. A common word's `max`-th match lies among the newest
    // rows, read backwards by the primary key and stopped there (1.7 ms for a word of 100k rows, where the GIN
    // bitmap of all its matches and their sort took 30 ms). When fewer than one in FLOOR_WALK of the newest rows
    // match, the word is not common: the GIN index finds its matches, sorted by id (`+ 0`: not read in the primary
    // key's order). A rare word so costs a bounded walk more; a common one never the sort of all its matches.
    const q = tsQuery(s);
    const walked = await first(sql`
      select d.id from (select id, node_id, kind, tsv from search_docs order by id desc limit ${max * FLOOR_WALK}) d
      where d.tsv @@ ${q}${where} order by d.id desc ${window}`);
    return (
      walked ?? first(sql`select d.id from search_docs d where d.tsv @@ ${q}${where} order by d.id + 0 desc ${window}`)
    );
  },

  /**
   * The engine's `limit` best matches of `s` after `after`, best first, among those from the index row id `floor`
   * up (null: all; see `floor`): the title matches (tier 0) ranked among themselves, then the others (tier 1). The
   * engine ranks and caps each tier itself (FTS5 `ORDER BY rank LIMIT`, `ts_rank` over a GIN index's matches);
   * only those candidates are joined to their rows and checked against the filters (the service asks again,
   * further on, when filters or access leave too few).
   */
  async find(
    db: Kysely<DB>,
    s: ParsedSearch,
    f: SearchFilter,
    after: SearchAfter | null,
    limit: number,
    floor: number | null,
  ) {
    const out: SearchRow[] = [];
    for (let tier = after?.tier ?? 0; tier <= 1 && out.length < limit; tier++) {
      const from = after && after.tier === tier ? after : null;
      out.push(...(await findTier(db, s, f, tier, from, limit - out.length, floor)));
    }
    return out;
  },

  /** Type, state, last change and the snippet (matched runs between MARK_OPEN and MARK_CLOSE) of some hits. */
  async details(db: Kysely<DB>, s: ParsedSearch, ids: readonly number[]): Promise<Map<string, HitDetails>> {
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
      ? // The body's own words are the `B` positions of `tsv` (migration 0320): `ts_filter` tests them without
        // parsing the body again (to_tsvector of 20 page bodies took 4.3 ms; this 0.1).
        (
          await sql<Row>`
            select d.node_id, ts_headline('folio_english',
                case when ts_filter(d.tsv, '{b}') @@ q.q then d.body else d.title end, q.q,
                ${`StartSel=${MARK_OPEN}, StopSel=${MARK_CLOSE}, MaxWords=24, MinWords=12, ShortWord=2`}
              ) as snippet, ${rest}
            from search_docs d ${joins}, (select ${tsQuery(s)} as q) q
            where d.id in (${sql.join(ids)})`.execute(db)
        ).rows
      : // The FTS table alone first (joined, the planner may walk every match); given the ids' range, not the ids
        // (`+rowid`): each id would be a query of its own, re-merging a prefix's whole match list.
        (
          await sql<Row>`
            with f as materialized (
              select rowid as id, snippet(search_fts, -1, ${MARK_OPEN}, ${MARK_CLOSE}, '…', 16) as snippet
              from search_fts
              where search_fts match ${fts5Match(s)} and rowid between ${Math.min(...ids)} and ${Math.max(...ids)}
                and +rowid in (${sql.join(ids)})
            )
            select d.node_id, f.snippet, ${rest}
            from f join search_docs d on d.id = f.id ${joins}`.execute(db)
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

  /** For each node: the names from the top (site or `Assets`) down and the access levels set on the way (none in the trash). */
  async chains(
    db: Kysely<DB>,
    ids: readonly string[],
  ): Promise<Map<string, { names: string[]; levels: (string | null)[] }>> {
    const out = new Map<string, { names: string[]; levels: (string | null)[] }>();
    if (ids.length === 0) return out;
    const { rows } = await sql<{
      start_id: string;
      id: string;
      name: string;
      access_level: string | null;
      depth: number | string;
    }>`
      with recursive up(start_id, id, parent_id, name, access_level, depth) as (
        select id, id, parent_id, name, access_level, 0 from nodes where id in (${sql.join([...new Set(ids)])})
        union all
        select up.start_id, n.id, n.parent_id, n.name, n.access_level, up.depth + 1
        from nodes n join up on n.id = up.parent_id
      )
      select start_id, id, name, access_level, depth from up
      order by start_id, depth desc`.execute(db);
    // Only a walk that reaches the root is a path: an item in the trash (modules/trash) is not found.
    const rooted = new Set(rows.filter((r) => r.id === ROOT_NODE_ID).map((r) => r.start_id));
    for (const r of rows) {
      if (r.id === ROOT_NODE_ID || !rooted.has(r.start_id)) continue;
      const c = out.get(r.start_id) ?? { names: [], levels: [] };
      c.names.push(r.name);
      c.levels.push(r.access_level);
      out.set(r.start_id, c);
    }
    return out;
  },
};
