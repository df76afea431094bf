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

/** SQL of where-used: widgets linking an asset, and widgets whose fields refer to its paths (migration 0210). */
export const assetUsageRepository = {
  /**
   * The page regions that use the asset: a widget links it (`shared_asset_id`), or a widget's local fields refer
   * to one of `paths` (its file or metadata URL in markup, or its path). One row per page and region.
   */
  async usage(db: Kysely<DB>, assetId: string, paths: readonly string[]): Promise<UsageRow[]> {
    const linked = await db
      .selectFrom('widgets as w')
      .innerJoin('pages as p', 'p.node_id', 'w.page_id')
      .select(['w.page_id', 'w.region', 'p.display_name', 'p.workflow_state'])
      .where('w.shared_asset_id', '=', assetId)
      .distinct()
      .execute();
    const referring = paths.length
      ? await db
          .selectFrom('widget_asset_refs as r')
          .innerJoin('widgets as w', 'w.id', 'r.widget_id')
          .innerJoin('pages as p', 'p.node_id', 'w.page_id')
          .select(['w.page_id', 'w.region', 'p.display_name', 'p.workflow_state'])
          .where('r.path', 'in', paths)
          .distinct()
          .execute()
      : [];
    const seen = new Set<string>();
    return [...linked, ...referring].filter((r) => {
      const key = `${r.page_id}\n${r.region}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
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
