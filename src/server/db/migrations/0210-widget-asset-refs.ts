import { sql, type Kysely, type Migration } from 'kysely';
import { assetRefsOf } from '../../lib/asset-refs.js';
import { isPostgres } from '../dialect.js';

/** Widgets read per backfill step, and reference rows per insert. */
const BATCH = 500;

/**
 * `widget_asset_refs`: the asset library paths a widget's local fields refer to (an image or link in rich text or
 * raw HTML, a field holding a path), written with the widget by every page write (`pages/widget-refs.ts`), so
 * where-used and the delete guard of an asset see them as they see a widget linking it. Keyed by path, not by
 * asset id, as the markup is: a reference to a renamed asset's old path is no use of it (the page shows a broken
 * file), and the path's next asset is used. Deleting a widget (or its page) deletes its rows. The rows of widgets
 * already stored are made here.
 */
export const widgetAssetRefs: Migration = {
  async up(db: Kysely<any>) {
    const collate = sql.raw(isPostgres(db) ? ' collate "C"' : '');
    await sql`create table widget_asset_refs (
      widget_id text${collate} not null references widgets (id) on delete cascade,
      path text${collate} not null,
      primary key (widget_id, path)
    )`.execute(db);
    await sql`create index widget_asset_refs_path on widget_asset_refs (path)`.execute(db);

    let after = '';
    for (;;) {
      const rows = await sql<{ id: string; fields: string }>`
        select id, fields from widgets
        where id > ${after} and fields is not null and fields like '%Assets%'
        order by id limit ${BATCH}`.execute(db);
      if (!rows.rows.length) break;
      const refs = rows.rows.flatMap((w) => assetRefsOf(w.fields).map((path) => ({ widget_id: w.id, path })));
      for (let i = 0; i < refs.length; i += BATCH) {
        await db
          .insertInto('widget_asset_refs')
          .values(refs.slice(i, i + BATCH))
          .execute();
      }
      after = rows.rows[rows.rows.length - 1]!.id;
    }
  },
};
