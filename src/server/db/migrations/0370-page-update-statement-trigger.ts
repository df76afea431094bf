import { sql, type Kysely, type Migration } from 'kysely';
import { isPostgres } from '../dialect.js';

/*
 * PostgreSQL: what an update of `pages` writes besides the row, once per statement instead of once per row.
 *
 * Three row-level AFTER UPDATE triggers on `pages` (the change log, 0250; the search queue, 0360; the revisions,
 * 0280) each ran a PL/pgSQL function for every row an `UPDATE` wrote; measured inside one warm session
 * (`explain analyze` of a PUT's update, bench/README.md) they cost about as much as the update itself. A PUT of a
 * page is one row of a batched `UPDATE` (db/batched-statements.ts), so one statement-level trigger over the
 * statement's transition tables now does all three for every row at once, with the same conditions: a change when
 * `updated_at` moved (its ETag when `doc_etag` moved), the id queued when a searched column changed, a revision
 * (and the live revision) when `revision` moved, then the pruning beyond the retention. Inserts of pages keep
 * their row-level triggers. SQLite keeps its row-level triggers (it has no statement-level ones).
 *
 * The trigger and function keep the names of the revisions' (`revisions_pages_after`): db/doc-triggers.test.ts
 * counts the stored-doc triggers apart from these.
 *
 * Also on PostgreSQL: the stored docs (pages, assets, revisions) are compressed with lz4 where the server has it
 * (pglz before): a PUT compresses its page's new doc, and lz4 does that several times faster. Values stored
 * before stay as they are until written again.
 */

const DAYS_BEFORE = (at: string, days: string) =>
  `to_char((${at}::timestamptz - make_interval(days => ${days}::int)) at time zone 'UTC', ` +
  `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const FILE_COLUMNS = 'fields, blob_key, thumb_blob_key, content_type, size, sha256, image, file, thumbnail';

const FUNCTION = `create or replace function folio_revisions_pages_after() returns trigger language plpgsql as $$
begin
  with d as materialized (
    select n.node_id, n.revision, n.updated_at, n.updated_by, n.workflow_state, n.doc,
      n.updated_at is distinct from o.updated_at as changed,
      case when n.doc_etag is distinct from o.doc_etag then n.doc_etag end as etag,
      (n.display_name is distinct from o.display_name or n.summary is distinct from o.summary
        or n.seo is distinct from o.seo) as searched,
      n.revision is distinct from o.revision as revised
    from folio_new_pages n join folio_old_pages o on o.node_id = n.node_id
  ),
  logged as (
    insert into changes (kind, item_id, etag, actor, at)
    select 'page', node_id, etag, updated_by, updated_at from d where changed
  ),
  queued as (
    insert into search_queue (node_id) select node_id from d where searched on conflict do nothing
  ),
  recorded as (
    insert into revisions (item_id, revision, kind, saved_at, saved_by, state, doc, ${FILE_COLUMNS})
    select node_id, revision, 'page', updated_at, updated_by, workflow_state, doc,
      null, null, null, null, null, null, null, null, null
    from d where revised
  ),
  made_live as (
    insert into live_revisions (item_id, revision)
    select node_id, revision from d where revised and workflow_state = 'Public'
    on conflict (item_id) do update set revision = excluded.revision
  )
  delete from live_revisions l using d
  where l.item_id = d.node_id and d.revised and d.workflow_state = 'Archive';
  if exists (select 1 from revision_retention where id = 1 and (keep_count is not null or keep_days is not null)) then
    delete from revisions
    using folio_new_pages n join folio_old_pages o on o.node_id = n.node_id
    where n.revision is distinct from o.revision
      and revisions.item_id = n.node_id and revisions.revision < n.revision
      and revisions.revision <> coalesce((select l.revision from live_revisions l where l.item_id = n.node_id), -1)
      and exists (select 1 from revision_retention r where r.id = 1 and (
        (r.keep_count is not null and revisions.revision <= n.revision - r.keep_count)
        or (r.keep_days is not null and revisions.saved_at < ${DAYS_BEFORE('n.updated_at', 'r.keep_days')})));
  end if;
  return null;
end $$`;

export const pageUpdateStatementTrigger: Migration = {
  async up(db: Kysely<any>) {
    if (!isPostgres(db)) return;
    await sql`drop trigger pages_change_update on pages`.execute(db);
    await sql`drop trigger pages_search_update on pages`.execute(db);
    await sql`drop function folio_search_pages_update()`.execute(db);
    await sql`drop trigger revisions_pages_after on pages`.execute(db);
    await sql.raw(FUNCTION).execute(db);
    await sql`create trigger revisions_pages_after after update on pages
      referencing old table as folio_old_pages new table as folio_new_pages
      for each statement execute function folio_revisions_pages_after()`.execute(db);

    const { rows } = await sql<{ lz4: boolean }>`select 'lz4' = any(enumvals) as lz4 from pg_settings
      where name = 'default_toast_compression'`.execute(db);
    if (rows[0]?.lz4) {
      for (const table of ['pages', 'assets', 'revisions']) {
        await sql`alter table ${sql.table(table)} alter column doc set compression lz4`.execute(db);
      }
    }
  },
};
