import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../../db/dialect.js';
import type { DB } from '../../db/schema.js';
import { FIELD_SEPARATOR, plainText, searchText } from '../../db/search-text.js';
import {
  assetTypeDef,
  holdsWords,
  widgetContentFields,
  widgetTypeDef,
  type FieldDef,
} from '../../../shared/registry/index.js';
import { assetTitleOf, titleOf } from '../folders/folders.presenter.js';

/**
 * The words of a widget's or an asset's fields `json`: of the fields that hold words by the registry (`holdsWords`:
 * not a heading level or a layout picked from options, a number, a path), rich text as its text; of a type the
 * registry does not know (`defs` undefined), every string.
 */
function fieldsText(defs: readonly FieldDef[] | undefined, json: string | null): string {
  if (!defs) return searchText(json);
  let fields: unknown;
  try {
    fields = JSON.parse(json ?? 'null');
  } catch {
    return plainText(json ?? '');
  }
  if (!fields || typeof fields !== 'object') return '';
  const words: string[] = [];
  for (const def of defs) {
    const value = (fields as Record<string, unknown>)[def.key];
    if (typeof value !== 'string' || !value.trim() || !holdsWords(def)) continue;
    // A JSON field (a form, a poll) holds its words as strings inside.
    words.push(def.format === 'json' ? searchText(value) : plainText(value));
  }
  return words.join(FIELD_SEPARATOR);
}

/**
 * Writes the search rows of the nodes `ids` from their rows now (those gone or the root: nothing), on either
 * database, with the text made here by the one function that makes it (`searchText`, db/search-text.ts):
 * - title: the one people know the item by, as folder listings and the trash show it (`titleOf`, `assetTitleOf`).
 * - body: the name; a page's summary, SEO fields and every local widget's fields (in region and position order);
 *   an asset's fields and its image or file data (the file name); rich text as its text.
 */
async function upsertRows(db: Kysely<DB>, ids: readonly string[]): Promise<void> {
  const items = await db
    .selectFrom('nodes as n')
    .leftJoin('pages as p', 'p.node_id', 'n.id')
    .leftJoin('assets as a', 'a.node_id', 'n.id')
    .select(['n.id', 'n.kind', 'n.name', 'n.display_title', 'p.node_id as page_id', 'p.display_name', 'p.summary'])
    .select(['p.seo', 'a.type as asset_type', 'a.fields', 'a.image', 'a.file'])
    .where('n.id', 'in', ids)
    .where('n.kind', '<>', 'root')
    .execute();
  if (!items.length) return;
  const pageIds = items.flatMap((i) => (i.page_id === null ? [] : [i.page_id]));
  const widgetText = new Map<string, string[]>();
  if (pageIds.length) {
    const widgets = await db
      .selectFrom('widgets')
      .select(['page_id', 'type', 'fields'])
      .where('page_id', 'in', pageIds)
      .orderBy('page_id')
      .orderBy('region')
      .orderBy('position')
      .execute();
    for (const w of widgets) {
      const texts = widgetText.get(w.page_id) ?? [];
      texts.push(fieldsText(widgetTypeDef(w.type) ? widgetContentFields(w.type) : undefined, w.fields));
      widgetText.set(w.page_id, texts);
    }
  }
  const rows = items.map((i) => ({
    node_id: i.id,
    kind: i.kind === 'page' || i.kind === 'asset' ? i.kind : 'folder',
    title: (i.kind === 'asset' ? assetTitleOf(i.fields) : titleOf(i)) ?? i.name,
    body: [
      i.name,
      i.summary ?? '',
      searchText(i.seo),
      ...(i.page_id === null ? [] : (widgetText.get(i.page_id) ?? [])),
      i.asset_type === null ? '' : fieldsText(assetTypeDef(i.asset_type)?.fields, i.fields),
      searchText(i.image),
      searchText(i.file),
    ]
      .filter((part) => part.trim())
      .join(FIELD_SEPARATOR),
  }));
  // A row whose text is what it was stays as it is: a workflow move, a check-out or a setting picked from a list
  // queues the item too, and rewriting the same text costs FTS5's delete and insert of every token (PostgreSQL:
  // the generated `tsvector`s and their GIN entries).
  await sql`insert into search_docs (node_id, kind, title, body)
    values ${sql.join(rows.map((r) => sql`(${r.node_id}, ${r.kind}, ${r.title}, ${r.body})`))}
    on conflict (node_id) do update set kind = excluded.kind, title = excluded.title, body = excluded.body
    where search_docs.kind <> excluded.kind or search_docs.title <> excluded.title
      or search_docs.body <> excluded.body`.execute(db);
}

/** The writes of the search index: `search_queue` (migration 0360) taken, `search_docs` rows written from it. */
export const searchIndexRows = {
  /** True when ids wait in `search_queue` (migration 0360) for their search rows. */
  async queued(db: Kysely<DB>): Promise<boolean> {
    const { rows } = await sql<{ one: number }>`select 1 as one from search_queue limit 1`.execute(db);
    return rows.length > 0;
  },

  /**
   * One step of a pass that makes every search row again (migration 0393): queues the next `limit` item ids after
   * the pass's mark and moves the mark, in one transaction; answers how many it queued (0: no pass, or it is over).
   * On PostgreSQL a node that finds another taking a step skips it.
   */
  async backfill(db: Kysely<DB>, limit: number): Promise<number> {
    const lock = sql.raw(isPostgres(db) ? 'for update skip locked' : '');
    return db.transaction().execute(async (trx) => {
      const { rows: state } = await sql<{ next_after: string | null }>`
        select next_after from search_backfill where id = 1 ${lock}`.execute(trx);
      const after = state[0]?.next_after;
      if (after === null || after === undefined) return 0;
      const { rows } = await sql<{ id: string }>`
        select id from nodes where id > ${after} and kind <> 'root' order by id limit ${limit}`.execute(trx);
      const last = rows.length === limit ? rows[rows.length - 1]!.id : null;
      if (rows.length) {
        await sql`insert into search_queue (node_id) values ${sql.join(rows.map((r) => sql`(${r.id})`))}
          on conflict do nothing`.execute(trx);
      }
      await sql`update search_backfill set next_after = ${last} where id = 1`.execute(trx);
      return rows.length;
    });
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
      if (ids.length > 0) await upsertRows(trx, ids);
      return taken.length;
    });
  },
};
