import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { assetRefsOf, sameRefs } from '../../lib/asset-refs.js';

/** Reference rows per insert. */
const CHUNK = 500;

async function insertRefs(db: Kysely<DB>, rows: readonly { widget_id: string; path: string }[]): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK) {
    await db
      .insertInto('widget_asset_refs')
      .values(rows.slice(i, i + CHUNK))
      .execute();
  }
}

/**
 * The one place the asset references of widgets are written (migration 0210): with a widget's local fields, in
 * the same transaction. Deleting a widget deletes its references by cascade.
 */
export const widgetRefs = {
  /** References of a new widget holding `fields` (its stored JSON). */
  async added(db: Kysely<DB>, widgetId: string, fields: string | null): Promise<void> {
    await insertRefs(
      db,
      assetRefsOf(fields).map((path) => ({ widget_id: widgetId, path })),
    );
  },

  /** A widget's fields went from `before` to `after` (stored JSON): its references follow, when they changed. */
  async changed(db: Kysely<DB>, widgetId: string, before: string | null, after: string | null): Promise<void> {
    const old = assetRefsOf(before);
    const now = assetRefsOf(after);
    if (sameRefs(old, now)) return;
    if (old.length) await db.deleteFrom('widget_asset_refs').where('widget_id', '=', widgetId).execute();
    await insertRefs(
      db,
      now.map((path) => ({ widget_id: widgetId, path })),
    );
  },

  /** References of widgets inserted together (copies of pages). */
  async addedMany(db: Kysely<DB>, widgets: readonly { id: string; fields: string | null }[]): Promise<void> {
    await insertRefs(
      db,
      widgets.flatMap((w) => assetRefsOf(w.fields).map((path) => ({ widget_id: w.id, path }))),
    );
  },
};
