import { sql, type Kysely, type Migration } from 'kysely';
import { contentRefsOf } from '../../lib/asset-refs.js';
import { isPostgres } from '../dialect.js';

/** Rows read per backfill step, and reference rows per insert. */
const BATCH = 500;

type Owner = 'widget_id' | 'asset_id' | 'template_name';

async function insertRefs(db: Kysely<any>, owner: Owner, rows: readonly { key: string; text: string | null }[]) {
  const refs = rows.flatMap((r) => contentRefsOf(r.text).map((path) => ({ [owner]: r.key, path })));
  for (let i = 0; i < refs.length; i += BATCH) {
    await db
      .insertInto('content_refs')
      .values(refs.slice(i, i + BATCH))
      .execute();
  }
}

/** Makes the references of every row of `table` already stored, `BATCH` rows at a time in key order. */
async function backfill(db: Kysely<any>, owner: Owner, table: string, key: string, text: string) {
  let after = '';
  for (;;) {
    const rows = await sql<{ key: string; text: string | null }>`
      select ${sql.ref(key)} as key, ${sql.ref(text)} as text from ${sql.table(table)}
      where ${sql.ref(key)} > ${after} order by ${sql.ref(key)} limit ${BATCH}`.execute(db);
    if (!rows.rows.length) return;
    await insertRefs(db, owner, rows.rows);
    after = rows.rows[rows.rows.length - 1]!.key;
  }
}

/**
 * `content_refs` replaces `widget_asset_refs` (0210): the item paths that stored content refers to — asset
 * library paths and now also site paths (pages, folders, sections: a link to `/cms/rest/pages/by-path/…`, a
 * site-path field) — for three owners: a widget's local fields, a shared asset's fields, a template's regions
 * (`lib/asset-refs.ts` reads them; `pages/widget-refs.ts` writes them with the content). Exactly one owner column
 * is set; deleting the owner deletes its rows. Where-used and the delete guard of an asset find its users here,
 * and a rename or move finds the content to rewrite here (`pages/link-rewrite.ts`) by path or path prefix (a
 * range on the byte-ordered `path`). The rows of content already stored are made here.
 */
export const contentRefs: Migration = {
  async up(db: Kysely<any>) {
    const pg = isPostgres(db);
    const collate = sql.raw(pg ? ' collate "C"' : '');
    const oneOwner = pg
      ? sql`num_nonnulls(widget_id, asset_id, template_name) = 1`
      : sql`(widget_id is not null) + (asset_id is not null) + (template_name is not null) = 1`;
    await sql`create table content_refs (
      widget_id text${collate} references widgets (id) on delete cascade,
      asset_id text${collate} references assets (node_id) on delete cascade,
      template_name text${collate} references templates (name) on delete cascade,
      path text${collate} not null,
      check (${oneOwner})
    )`.execute(db);
    await sql`create index content_refs_path on content_refs (path)`.execute(db);
    for (const owner of ['widget_id', 'asset_id', 'template_name'] as const) {
      await sql`create unique index ${sql.raw(`content_refs_${owner}`)} on content_refs (${sql.ref(owner)}, path)
        where ${sql.ref(owner)} is not null`.execute(db);
    }
    await sql`drop table widget_asset_refs`.execute(db);

    await backfill(db, 'widget_id', 'widgets', 'id', 'fields');
    await backfill(db, 'asset_id', 'assets', 'node_id', 'fields');
    await backfill(db, 'template_name', 'templates', 'name', 'regions');
  },
};
