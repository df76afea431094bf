import { sql, type Kysely, type Migration } from 'kysely';
import { isPostgres } from '../dialect.js';
import { all, changed, renderDocTriggers, type DocRule, type Sql } from '../doc-triggers.js';

/*
 * History (modules/revisions): one `revisions` row per successful write of a page or an asset, written by triggers
 * in the statement that writes, as the stored docs and the change log are (one description, doc-triggers.ts
 * renders it for each dialect), so the one-statement PUTs stay one statement and no write way can forget it.
 *
 * - `pages.revision` and `assets.revision` count an item's revisions. A write that is a revision (PUT, workflow,
 *   upload, replace, restore) sets the next number together with the item's new stored doc; the trigger copies
 *   that doc into `revisions.doc` (not null: a write that numbers a revision without its doc fails, it is never
 *   recorded half). A page's doc is its JSON without `id`, `name`, `siteName`, `folderPath` (page-docs.ts); an
 *   asset's is its whole JSON. An asset's revision keeps its stored fields and file columns too, so a restore can put them back:
 *   the blob stays while a revision refers to it (the orphan sweep reads these keys as well).
 * - `live_revisions`: an item's live revision. A revision written in state Public becomes live; Archive ends it;
 *   any other state (Quick Edit, Draft, Review) leaves it as it was.
 * - `revision_retention` (one row) holds `CMS_REVISIONS_KEEP` as the server last started with it: a number of
 *   revisions per item and/or a number of days. A write prunes its item's revisions beyond it, never the live one
 *   and never the one it writes.
 */

const FILE_COLUMNS = [
  'fields',
  'blob_key',
  'thumb_blob_key',
  'content_type',
  'size',
  'sha256',
  'image',
  'file',
  'thumbnail',
];

/** The revision `new.revision` of the row: its doc, state, time, who, and (assets) its file. */
const record =
  (kind: 'page' | 'asset', savedBy: string): Sql =>
  (c) => {
    const files = kind === 'asset' ? FILE_COLUMNS.map((col) => `new.${col}`) : FILE_COLUMNS.map(() => 'null');
    return `insert into revisions (item_id, revision, kind, saved_at, saved_by, state, doc, ${FILE_COLUMNS.join(', ')})
    select new.node_id, new.revision, '${kind}', new.updated_at, ${savedBy}, new.workflow_state, new.doc,
      ${files.join(', ')}
    where ${c.guard}`;
  };

/** Public: this revision is live now; Archive: none is. */
const live: Sql[] = [
  (c) => `insert into live_revisions (item_id, revision) select new.node_id, new.revision
    where new.workflow_state = 'Public' and ${c.guard}
    on conflict (item_id) do update set revision = excluded.revision`,
  (c) => `delete from live_revisions where item_id = new.node_id and new.workflow_state = 'Archive' and ${c.guard}`,
];

/** The ISO time `days` days before `at`, in the format every `updated_at` has. */
const daysBefore = (at: string, days: string, pg: boolean) =>
  pg
    ? `to_char((${at}::timestamptz - make_interval(days => ${days}::int)) at time zone 'UTC', ` +
      `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`
    : `strftime('%Y-%m-%dT%H:%M:%fZ', ${at}, '-' || ${days} || ' days')`;

/** Removes the item's revisions beyond the retention, but the live one and the one just written. */
const prune: Sql = (c) => `delete from revisions
    where item_id = new.node_id and revision < new.revision
      and revision <> coalesce((select l.revision from live_revisions l where l.item_id = new.node_id), -1)
      and exists (select 1 from revision_retention r where r.id = 1 and (
        (r.keep_count is not null and revisions.revision <= new.revision - r.keep_count)
        or (r.keep_days is not null and revisions.saved_at < ${daysBefore('new.updated_at', 'r.keep_days', c.pg)})))
      and ${c.guard}`;

const RETAINING = `exists (select 1 from revision_retention where id = 1 and
  (keep_count is not null or keep_days is not null))`;

const rulesOf = (table: 'pages' | 'assets', kind: 'page' | 'asset', savedBy: string): DocRule[] => [
  { table, on: ['update'], when: changed('revision'), run: [record(kind, savedBy), ...live] },
  { table, on: ['update'], when: all(changed('revision'), RETAINING), run: [prune] },
];

export const REVISION_RULES: readonly DocRule[] = [
  ...rulesOf('pages', 'page', 'new.updated_by'),
  ...rulesOf('assets', 'asset', 'coalesce(new.updated_by, (select updated_by from nodes where id = new.node_id))'),
];

export const revisions: Migration = {
  async up(db: Kysely<any>) {
    const pg = isPostgres(db);
    // Every text column compares bytewise on PostgreSQL (migration 0040).
    const t = sql.raw(pg ? 'text collate "C"' : 'text');
    await sql`alter table pages add column revision integer not null default 0`.execute(db);
    await sql`alter table assets add column revision integer not null default 0`.execute(db);
    await sql`create table revisions (
        item_id ${t} not null references nodes (id) on delete cascade,
        revision integer not null,
        kind ${t} not null,
        saved_at ${t} not null,
        saved_by ${t},
        state ${t} not null,
        doc ${t} not null,
        fields ${t},
        blob_key ${t},
        thumb_blob_key ${t},
        content_type ${t},
        size bigint,
        sha256 ${t},
        image ${t},
        file ${t},
        thumbnail ${t},
        primary key (item_id, revision)
      )`.execute(db);
    await sql`create index revisions_blob_key on revisions (blob_key)`.execute(db);
    await sql`create table live_revisions (
        item_id ${t} primary key references nodes (id) on delete cascade,
        revision integer not null
      )`.execute(db);
    await sql`create table revision_retention (id integer primary key, keep_count integer, keep_days integer)`.execute(
      db,
    );
    await sql`insert into revision_retention (id, keep_count, keep_days) values (1, null, null)`.execute(db);
    for (const statement of renderDocTriggers(REVISION_RULES, {}, pg, 'revisions').create) {
      await sql.raw(statement).execute(db);
    }
  },
};
