import { sql, type Kysely, type RawBuilder } from 'kysely';
import { isPostgres } from '../../db/dialect.js';
import type { DB } from '../../db/schema.js';

/**
 * Writes the search rows of the nodes `ids` from their rows now (those gone or the root: nothing): the statement of
 * migration 0270's triggers (the migration keeps its own copy; migrations never import runtime code).
 * - title: a page's display name, an asset's display title, a folder item's display title; else the item's name.
 * - body: the name; a page's summary, SEO fields and every local widget's fields; an asset's fields and its image
 *   or file data (the file name); rich text as text (`folio_search_text`, db/search-text.ts).
 */
function upsertRows(pg: boolean, ids: readonly string[]): RawBuilder<unknown> {
  const field = (col: string, key: string) =>
    pg ? `(${col}::jsonb ->> '${key}')` : `json_extract(${col}, '$.${key}')`;
  const cat = (parts: string[]) => parts.map((p) => `coalesce(${p}, '')`).join(` || ' ' || `);
  const widgetsText = `(select ${pg ? "string_agg(folio_search_text(w.fields), ' ')" : "group_concat(folio_search_text(w.fields), ' ')"}
      from widgets w where w.page_id = n.id)`;
  const columns = `n.id,
      case when n.kind in ('page', 'asset') then n.kind else 'folder' end,
      coalesce(nullif(p.display_name, ''), nullif(${field('a.fields', 'displaytitle')}, ''),
        nullif(n.display_title, ''), n.name),
      ${cat([
        'n.name',
        'p.summary',
        'folio_search_text(p.seo)',
        `case when p.node_id is not null then ${widgetsText} end`,
        'folio_search_text(a.fields)',
        'folio_search_text(a.image)',
        'folio_search_text(a.file)',
      ])}`;
  return sql`
    insert into search_docs (node_id, kind, title, body)
    select ${sql.raw(columns)}
    from nodes n
      left join pages p on p.node_id = n.id
      left join assets a on a.node_id = n.id
    where n.id in (${sql.join(ids)}) and n.kind <> 'root'
    on conflict (node_id) do update set kind = excluded.kind, title = excluded.title, body = excluded.body`;
}

/** The writes of the search index: `search_queue` (migration 0360) taken, `search_docs` rows written from it. */
export const searchIndexRows = {
  /** True when ids wait in `search_queue` (migration 0360) for their search rows. */
  async queued(db: Kysely<DB>): Promise<boolean> {
    const { rows } = await sql<{ one: number }>`select 1 as one from search_queue limit 1`.execute(db);
    return rows.length > 0;
  },

  /**
   * Writes the search rows of up to `limit` queued ids and takes them off the queue, in one transaction; answers
   * how many it took. Writes queue ids (the triggers of migration 0360); this is the only writer of the rows.
   *
   * The ids are taken by deleting them first (`delete … returning`), then their rows are computed, then it commits.
   * A write that queues one of them meanwhile is never lost:
   * - PostgreSQL: the write's `insert … on conflict do nothing` meets the queue row this transaction deleted and
   *   waits for it to end (a conflict with a row that is only locked would not wait: it would do nothing at once, and
   *   a take that locked, computed, then deleted would drop a write made between its computing and its commit).
   *   When this commits the write queues the id again, after the rows computed here; when it rolls back, the id is
   *   still queued. Background indexers (`wait` false) take with `skip locked`, so nodes never take the same ids;
   *   a search (`wait` true) waits for ids another transaction is taking, so it reads their rows once written.
   *   A node being deleted is skipped (`for key share skip locked`) and queued again: its delete waits for nothing
   *   here, and nothing here waits for it (the delete's cascade on `search_docs` against this upsert would deadlock).
   * - SQLite: one writer at a time, so a write queues its id either before the take (and its change is read) or
   *   after this commits (and the id is queued again).
   */
  async reindex(db: Kysely<DB>, limit: number, wait = false): Promise<number> {
    const pg = isPostgres(db);
    return db.transaction().execute(async (trx) => {
      const lock = sql.raw(pg ? (wait ? 'for update' : 'for update skip locked') : '');
      const { rows: taken } = await sql<{ node_id: string }>`
        delete from search_queue where node_id in (
          select node_id from search_queue order by node_id limit ${limit} ${lock}
        ) returning node_id`.execute(trx);
      if (taken.length === 0) return 0;
      let ids = taken.map((r) => r.node_id);
      if (pg) {
        const { rows: live } = await sql<{ id: string }>`
          select id from nodes where id in (${sql.join(ids)}) for key share skip locked`.execute(trx);
        if (live.length < ids.length) {
          const kept = new Set(live.map((r) => r.id));
          const busy = ids.filter((id) => !kept.has(id));
          await sql`
            insert into search_queue (node_id)
            select id from nodes where id in (${sql.join(busy)})
            on conflict do nothing`.execute(trx);
          ids = [...kept];
        }
      }
      if (ids.length > 0) await sql`${upsertRows(pg, ids)}`.execute(trx);
      return taken.length;
    });
  },
};
