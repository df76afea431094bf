import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

/** Ids per `in (…)` list. */
const CHUNK = 500;

/** A page region that uses an asset. */
export interface UsageRow {
  page_id: string;
  region: string;
  display_name: string | null;
  workflow_state: string;
}

/** A template whose regions refer to the asset: its name, label and regions (JSON, as stored). */
export interface TemplateUsageRow {
  name: string;
  label: string;
  regions: string;
}

function pageRegionsOnce(rows: UsageRow[]): UsageRow[] {
  const seen = new Set<string>();
  return rows.filter((r) => {
    const key = `${r.page_id}\n${r.region}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** SQL of where-used: widgets linking an asset, and content whose text refers to its paths (migration 0220). */
export const assetUsageRepository = {
  /**
   * The page regions that use the asset: a widget links it (`shared_asset_id`), a widget's local fields refer
   * to one of `paths` (its file or metadata URL in markup, or its path), or a widget links a shared asset whose
   * fields refer to one of them (`via`, from `referringAssets`). One row per page and region.
   */
  async usage(
    db: Kysely<DB>,
    assetId: string,
    paths: readonly string[],
    via: readonly string[] = [],
  ): Promise<UsageRow[]> {
    const linked = await db
      .selectFrom('widgets as w')
      .innerJoin('pages as p', 'p.node_id', 'w.page_id')
      .select(['w.page_id', 'w.region', 'p.display_name', 'p.workflow_state'])
      .where('w.shared_asset_id', 'in', [assetId, ...via])
      .distinct()
      .execute();
    const referring = paths.length
      ? await db
          .selectFrom('content_refs as r')
          .innerJoin('widgets as w', 'w.id', 'r.widget_id')
          .innerJoin('pages as p', 'p.node_id', 'w.page_id')
          .select(['w.page_id', 'w.region', 'p.display_name', 'p.workflow_state'])
          .where('r.path', 'in', paths)
          .distinct()
          .execute()
      : [];
    return pageRegionsOnce([...linked, ...referring]);
  },

  /** The shared assets (other than `assetId`) whose fields refer to one of `paths`. */
  async referringAssets(db: Kysely<DB>, assetId: string, paths: readonly string[]): Promise<string[]> {
    if (!paths.length) return [];
    const rows = await db
      .selectFrom('content_refs')
      .select('asset_id')
      .where('path', 'in', paths)
      .where('asset_id', 'is not', null)
      .where('asset_id', '<>', assetId)
      .distinct()
      .execute();
    return rows.map((r) => r.asset_id!);
  },

  /** The workflow state and fields of shared assets. */
  async assetsByIds(db: Kysely<DB>, ids: readonly string[]) {
    const out: { node_id: string; workflow_state: string; fields: string }[] = [];
    for (let i = 0; i < ids.length; i += CHUNK) {
      out.push(
        ...(await db
          .selectFrom('assets')
          .select(['node_id', 'workflow_state', 'fields'])
          .where('node_id', 'in', ids.slice(i, i + CHUNK))
          .execute()),
      );
    }
    return out;
  },

  /** The templates whose regions refer to one of `paths`. */
  async referringTemplates(db: Kysely<DB>, paths: readonly string[]): Promise<TemplateUsageRow[]> {
    if (!paths.length) return [];
    return db
      .selectFrom('templates as t')
      .select(['t.name', 't.label', 't.regions'])
      .where('t.name', 'in', (eb) =>
        eb
          .selectFrom('content_refs as r')
          .select('r.template_name')
          .where('r.path', 'in', paths)
          .where('r.template_name', 'is not', null)
          .$narrowType<{ template_name: string }>(),
      )
      .orderBy('t.name')
      .execute();
  },

  /**
   * The references to paths below the asset folder at `folderPath` held by content that a delete of that folder
   * leaves: widgets, templates, and shared assets other than `inside` (the assets below it).
   */
  async referencesBelow(db: Kysely<DB>, folderPath: string, inside: readonly string[]): Promise<string[]> {
    const rows = await db
      .selectFrom('content_refs')
      .select(['path', 'asset_id'])
      .where('path', '>=', `${folderPath}/`)
      .where('path', '<', `${folderPath}0`)
      .execute();
    const within = new Set(inside);
    return [...new Set(rows.filter((r) => r.asset_id === null || !within.has(r.asset_id)).map((r) => r.path))];
  },

  /** Removes every widget that links the asset; answers the pages that had one. */
  async unlink(db: Kysely<DB>, assetId: string, at: string, by: string): Promise<string[]> {
    const pages = await db
      .selectFrom('widgets')
      .select('page_id')
      .where('shared_asset_id', '=', assetId)
      .distinct()
      .execute();
    await db.deleteFrom('widgets').where('shared_asset_id', '=', assetId).execute();
    const ids = pages.map((p) => p.page_id);
    for (let i = 0; i < ids.length; i += CHUNK) {
      await db
        .updateTable('pages')
        .set({ updated_at: at, updated_by: by })
        .where('node_id', 'in', ids.slice(i, i + CHUNK))
        .execute();
    }
    return ids;
  },
};
