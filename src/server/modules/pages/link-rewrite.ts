import type { ExpressionBuilder, Kysely } from 'kysely';
import { THUMBNAIL_PREFIX } from '../../../shared/api/assets.js';
import type { DB, NodeKind } from '../../db/schema.js';
import { rewriteRefs, type PathChange } from '../../lib/asset-refs.js';
import { assetRefs, templateRefs, widgetRefs } from './widget-refs.js';

/** Keys per `in (…)` list. */
const CHUNK = 500;

function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
}

/** What a path change replaces: the item's path, and for an asset its thumbnail's (`…/thumb_<name>`). */
function changesOf(kind: NodeKind, from: readonly string[], to: readonly string[]): PathChange[] {
  const changes: PathChange[] = [{ from, to }];
  if (kind === 'asset') {
    const thumb = (segs: readonly string[]) => [...segs.slice(0, -1), `${THUMBNAIL_PREFIX}${segs[segs.length - 1]}`];
    changes.push({ from: thumb(from), to: thumb(to) });
  }
  return changes;
}

/** Reference rows naming the path of a change or anything below it (a range on the byte-ordered path). */
function refersTo(changes: readonly PathChange[]) {
  return (eb: ExpressionBuilder<DB, 'content_refs'>) =>
    eb.or(
      changes.flatMap(({ from }) => {
        const path = from.join('/');
        return [eb('path', '=', path), eb.and([eb('path', '>=', `${path}/`), eb('path', '<', `${path}0`)])];
      }),
    );
}

/** Who made the change, and when: the rewritten pages, assets and templates take it as their last change. */
export interface RewriteBy {
  at: string;
  username: string;
}

/**
 * After the item of `kind` at `from` moved or was renamed to `to` (segments), in the same transaction: every
 * stored content that refers to it or to anything below it — widgets' local fields, shared assets' fields,
 * templates' regions, found through `content_refs` — is rewritten to the new path, and its references follow.
 * Rewritten pages and assets take `by` as their last change (so their ETags and last-modified times move; the
 * stored docs go stale by the database's triggers); their workflow state stays. Answers the pages rewritten.
 */
export async function rewriteLinks(
  db: Kysely<DB>,
  kind: NodeKind,
  from: readonly string[],
  to: readonly string[],
  by: RewriteBy,
): Promise<string[]> {
  if (from.join('/') === to.join('/')) return [];
  const changes = changesOf(kind, from, to);
  const owners = await db
    .selectFrom('content_refs')
    .select(['widget_id', 'asset_id', 'template_name'])
    .where(refersTo(changes))
    .distinct()
    .execute();
  const ids = (key: 'widget_id' | 'asset_id' | 'template_name') => [
    ...new Set(owners.map((o) => o[key]).filter((v): v is string => v !== null)),
  ];

  const pages = new Set<string>();
  for (const part of chunks(ids('widget_id'))) {
    const widgets = await db
      .selectFrom('widgets')
      .select(['id', 'page_id', 'fields'])
      .where('id', 'in', part)
      .execute();
    for (const w of widgets) {
      const fields = rewriteRefs(w.fields, changes);
      if (fields === null) continue;
      await db.updateTable('widgets').set({ fields }).where('id', '=', w.id).execute();
      await widgetRefs.changed(db, w.id, w.fields, fields);
      pages.add(w.page_id);
    }
  }
  for (const part of chunks([...pages])) {
    await db
      .updateTable('pages')
      .set({ updated_at: by.at, updated_by: by.username })
      .where('node_id', 'in', part)
      .execute();
  }

  for (const part of chunks(ids('asset_id'))) {
    const assets = await db.selectFrom('assets').select(['node_id', 'fields']).where('node_id', 'in', part).execute();
    for (const a of assets) {
      const fields = rewriteRefs(a.fields, changes);
      if (fields === null) continue;
      // The asset's node takes the time by trigger (migration 0120); pages linking it go stale (0180).
      await db.updateTable('assets').set({ fields, updated_at: by.at }).where('node_id', '=', a.node_id).execute();
      await assetRefs.changed(db, a.node_id, a.fields, fields);
    }
  }

  for (const name of ids('template_name')) {
    const t = await db.selectFrom('templates').select('regions').where('name', '=', name).executeTakeFirst();
    const regions = t && rewriteRefs(t.regions, changes);
    if (!regions) continue;
    // Every page made from it goes stale by the templates trigger (migration 0080's epoch).
    await db.updateTable('templates').set({ regions, updated_at: by.at }).where('name', '=', name).execute();
    await templateRefs.changed(db, name, t.regions, regions);
  }
  return [...pages];
}
