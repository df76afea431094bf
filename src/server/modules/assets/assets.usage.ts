import type { Kysely } from 'kysely';
import type { AssetUsage, AssetUsageEntry } from '../../../shared/api/assets.js';
import { API_BASE, assetHref, pageHref } from '../../../shared/api/paths.js';
import { isForeignKeyViolation } from '../../db/dialect.js';
import type { DB } from '../../db/schema.js';
import { contentRefsOf, usagePathsOf } from '../../lib/asset-refs.js';
import { templateRegionsOf } from '../templates/templates.presenter.js';
import { deletion, recordChanges } from '../../lib/change-log.js';
import { isoTime, type Actor, type AppContext } from '../../lib/context.js';
import { conflict } from '../../lib/errors.js';
import { assertIfMatch } from '../../lib/etag.js';
import { assertLeaseFree, dropLeases } from '../leases/lease-records.js';
import { requireAccess } from '../tree/access.js';
import { treeRepository } from '../tree/tree.repository.js';
import { deleteUnreferencedBlobs, trashItem, type Trashed } from '../trash/trash-records.js';
import { findAsset } from './assets.common.js';
import { assetIfMatchEtag } from './assets.presenter.js';
import { assetUsageRepository as usageRepo } from './asset-usage.repository.js';

/** Where-used, and delete, which refuses while the asset is used unless forced. */
export function createAssetUsage(ctx: AppContext) {
  /**
   * Where the asset is used: page regions whose widgets link it or refer to it (or link a shared asset that
   * refers to it), by page path; then the templates and the shared assets whose text refers to it.
   */
  async function usageOf(db: Kysely<DB>, assetId: string, segments: readonly string[]): Promise<AssetUsageEntry[]> {
    const refPaths = usagePathsOf(segments);
    const via = await usageRepo.referringAssets(db, assetId, refPaths);
    const rows = await usageRepo.usage(db, assetId, refPaths, via);
    const paths = await treeRepository.pathsOf(db, [...rows.map((r) => r.page_id), ...via]);
    const pages = rows
      .flatMap((r) => {
        // A page in the trash has no path: it uses nothing until it is restored.
        const segs = paths.get(r.page_id);
        if (!segs) return [];
        return {
          path: segs.join('/'),
          displayName: r.display_name ?? segs[segs.length - 1] ?? '',
          region: r.region,
          state: r.workflow_state,
          href: pageHref(segs),
        };
      })
      .sort((a, b) => (a.path === b.path ? a.region.localeCompare(b.region) : a.path < b.path ? -1 : 1));
    const templates = (await usageRepo.referringTemplates(db, refPaths)).flatMap((t) =>
      templateRegionsOf(t)
        .filter((r) => contentRefsOf(JSON.stringify(r)).some((p) => refPaths.includes(p)))
        .map((r) => ({
          kind: 'template' as const,
          path: t.name,
          displayName: t.label,
          region: r.name,
          // A template shows on every page made from it at once.
          state: 'Public',
          href: `${API_BASE}/templates/${encodeURIComponent(t.name)}`,
        })),
    );
    const assets = (await usageRepo.assetsByIds(db, via)).flatMap((a) => {
      const segs = paths.get(a.node_id);
      if (!segs) return [];
      const fields = JSON.parse(a.fields) as Record<string, unknown>;
      // The fields that refer to it stand where a page's region does.
      const keys = Object.entries(fields)
        .filter(([k, v]) => contentRefsOf(JSON.stringify({ [k]: v })).some((p) => refPaths.includes(p)))
        .map(([k]) => k);
      return [
        {
          kind: 'asset' as const,
          path: segs.join('/'),
          displayName: segs[segs.length - 1]!,
          region: keys.join(', '),
          state: a.workflow_state,
          href: assetHref(segs),
        },
      ];
    });
    return [...pages, ...templates, ...assets.sort((a, b) => (a.path < b.path ? -1 : 1))];
  }

  async function usage(actor: Actor, segments: readonly string[]): Promise<AssetUsage> {
    const { chain, row } = await findAsset(ctx.db, segments);
    requireAccess(actor, chain, 'READ', segments.join('/'));
    return { asset: segments.join('/'), usedBy: await usageOf(ctx.db, row.id, segments) };
  }

  /**
   * Deletes an asset to the trash (its file stays until the trash purges it), or for good with `purge` (admins;
   * the files go after the commit): 409 ASSET_IN_USE naming the pages that use it unless `force`, which removes
   * the widgets linking it in the same transaction (images and links to it inside text stay as written).
   */
  async function remove(
    actor: Actor,
    segments: readonly string[],
    opts: { force: boolean; ifMatch?: string; purge?: boolean },
  ): Promise<string | null> {
    let trashed: Trashed;
    try {
      trashed = await ctx.db.transaction().execute(async (trx) => {
        const { chain, row } = await findAsset(trx, segments, true);
        requireAccess(actor, chain, 'WRITE', segments.join('/'));
        await assertLeaseFree(trx, 'asset', row.id, row.checked_out_user, actor, ctx.now());
        assertIfMatch(opts.ifMatch, assetIfMatchEtag(opts.ifMatch, row, segments.slice(0, -1), actor));
        const usedBy = await usageOf(trx, row.id, segments);
        if (usedBy.length && !opts.force) {
          throw conflict(
            'ASSET_IN_USE',
            `${segments.join('/')} is used on ${usedBy.length} page region(s); remove it from them first, or send force=true (widgets linking it are removed; images and links to it in text stay, and break).`,
            { usedBy },
          );
        }
        if (usedBy.length) await usageRepo.unlink(trx, row.id, isoTime(ctx.now()), actor.username);
        const at = ctx.now();
        const item = { id: row.id, kind: 'asset', parentId: chain[chain.length - 2]!.id, segments };
        const done = await trashItem(trx, item, actor, isoTime(at), opts.purge);
        await recordChanges(trx, [deletion('asset', row.id, segments, actor.username, at)]);
        await dropLeases(trx, 'asset', row.id);
        return done;
      });
    } catch (err) {
      // A page linked the asset between the check and the delete.
      if (isForeignKeyViolation(err)) {
        throw conflict('ASSET_IN_USE', `${segments.join('/')} was just linked from a page; try again.`);
      }
      throw err;
    }
    await deleteUnreferencedBlobs(ctx, trashed.blobKeys);
    return trashed.trashId;
  }

  return { usage, remove };
}
