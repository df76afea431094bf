import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { contentRefsOf, sameRefs } from '../../lib/asset-refs.js';

/** Reference rows per insert. */
const CHUNK = 500;

/** Who holds the content: a widget's local fields, a shared asset's fields, a template's regions. */
type Owner = 'widget_id' | 'asset_id' | 'template_name';

async function insertRefs(db: Kysely<DB>, owner: Owner, rows: readonly { key: string; text: string | null }[]) {
  const refs = rows.flatMap((r) => contentRefsOf(r.text).map((path) => ({ [owner]: r.key, path })));
  for (let i = 0; i < refs.length; i += CHUNK) {
    await db
      .insertInto('content_refs')
      .values(refs.slice(i, i + CHUNK))
      .execute();
  }
}

/** The references of one owner, for content that went from `before` to `after` (stored JSON text). */
async function changed(db: Kysely<DB>, owner: Owner, key: string, before: string | null, after: string | null) {
  const old = contentRefsOf(before);
  if (sameRefs(old, contentRefsOf(after))) return;
  if (old.length) await db.deleteFrom('content_refs').where(owner, '=', key).execute();
  await insertRefs(db, owner, [{ key, text: after }]);
}

function refsOf(owner: Owner) {
  return {
    /** References of new content `text` (its stored JSON). */
    added: (db: Kysely<DB>, key: string, text: string | null) => insertRefs(db, owner, [{ key, text }]),
    /** The content went from `before` to `after` (stored JSON): its references follow, when they changed. */
    changed: (db: Kysely<DB>, key: string, before: string | null, after: string | null) =>
      changed(db, owner, key, before, after),
  };
}

/**
 * The one place the references of stored content are written (migration 0220): the item paths (assets, pages,
 * folders) that content refers to, with the content, in the same transaction. Deleting the owner (a widget, an
 * asset, a template) deletes its references by cascade.
 */
export const widgetRefs = {
  ...refsOf('widget_id'),
  /** References of widgets inserted together (copies of pages). */
  async addedMany(db: Kysely<DB>, widgets: readonly { id: string; fields: string | null }[]): Promise<void> {
    await insertRefs(
      db,
      'widget_id',
      widgets.map((w) => ({ key: w.id, text: w.fields })),
    );
  },
};

/** The references in shared assets' fields (rich text assets, raw HTML, site-path fields…). */
export const assetRefs = {
  ...refsOf('asset_id'),
  /** References of assets inserted together (copies of asset folders). */
  async addedMany(db: Kysely<DB>, assets: readonly { node_id: string; fields: string }[]): Promise<void> {
    await insertRefs(
      db,
      'asset_id',
      assets.map((a) => ({ key: a.node_id, text: a.fields })),
    );
  },
};

/** The references in templates' regions (their widgets' fields). */
export const templateRefs = refsOf('template_name');
