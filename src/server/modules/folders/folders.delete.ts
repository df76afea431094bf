import type { Kysely } from 'kysely';
import type { FolderContents } from '../../../shared/api/folders.js';
import type { DB, NodeKind } from '../../db/schema.js';
import { deletion, recordChanges } from '../../lib/change-log.js';
import { isoTime, type Actor, type AppContext } from '../../lib/context.js';
import { conflict, forbidden } from '../../lib/errors.js';
import { assertIfMatch } from '../../lib/etag.js';
import { requireAccess, requireSiteAdmin } from '../tree/access.js';
import { deleteUnreferencedBlobs, trashItem } from '../trash/trash-records.js';
import { assertFolderAssetsUnreferenced } from '../assets/asset-folder-refs.js';
import { ASSET_LIBRARY } from '../../../shared/api/paths.js';
import { presentContents, presentCounts } from './folders.presenter.js';
import { subtreeCte } from './folders.repository.js';
import { locateFolder, lockFound, quotePath } from './folders.rules.js';
import { represent } from './folders.represent.js';

/** What a delete of a subtree reads (what is inside, what points into it) and writes. */
const deleteQueries = {
  /** True when the node has a child other than `exceptId` (a site's or section's landing page). */
  async hasChildrenBesides(db: Kysely<DB>, parentId: string, exceptId: string | null): Promise<boolean> {
    let q = db.selectFrom('nodes').select('id').where('parent_id', '=', parentId);
    if (exceptId) q = q.where('id', '<>', exceptId);
    return (await q.limit(1).executeTakeFirst()) !== undefined;
  },

  /** How many items of each kind are below a node (the node itself not counted). */
  async subtreeCounts(db: Kysely<DB>, id: string): Promise<Partial<Record<NodeKind, number>>> {
    const rows = await subtreeCte(db, id)
      .selectFrom('nodes')
      .select(['nodes.kind', (eb) => eb.fn.countAll<number | string>().as('n')])
      .where('nodes.id', 'in', (eb) => eb.selectFrom('sub').select('sub.id'))
      .where('nodes.id', '<>', id)
      .groupBy('nodes.kind')
      .execute();
    const out: Partial<Record<NodeKind, number>> = {};
    for (const r of rows) out[r.kind] = Number(r.n);
    return out;
  },

  /** Section links outside a subtree that point at the node or at anything below it (a delete removes them). */
  async linksIntoSubtree(db: Kysely<DB>, id: string): Promise<number> {
    const r = await subtreeCte(db, id)
      .selectFrom('nodes')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('nodes.kind', '=', 'sectionlink')
      .where('nodes.link_target_id', 'in', (eb) => eb.selectFrom('sub').select('sub.id'))
      .where('nodes.id', 'not in', (eb) => eb.selectFrom('sub').select('sub.id'))
      .executeTakeFirstOrThrow();
    return Number(r.n);
  },

  /** Widgets on pages outside a subtree that show a shared asset inside it (a delete removes them). */
  async widgetsIntoSubtree(db: Kysely<DB>, id: string): Promise<number> {
    const r = await subtreeCte(db, id)
      .selectFrom('widgets')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('widgets.shared_asset_id', 'in', (eb) => eb.selectFrom('sub').select('sub.id'))
      .where('widgets.page_id', 'not in', (eb) => eb.selectFrom('sub').select('sub.id'))
      .executeTakeFirstOrThrow();
    return Number(r.n);
  },

  /** True when the node or something below it is restricted to READ. */
  async subtreeHasReadOnly(db: Kysely<DB>, id: string): Promise<boolean> {
    const r = await subtreeCte(db, id)
      .selectFrom('nodes')
      .select('nodes.id')
      .where('nodes.id', 'in', (eb) => eb.selectFrom('sub').select('sub.id'))
      .where('nodes.access_level', '=', 'READ')
      .limit(1)
      .executeTakeFirst();
    return r !== undefined;
  },

  /**
   * Removes the widgets that link assets of a subtree (they would block deleting those assets), marking their
   * pages as changed.
   */
  async unlinkSubtreeAssets(db: Kysely<DB>, id: string, now: string): Promise<void> {
    const linked = (eb: any) =>
      eb.selectFrom('sub').innerJoin('assets', 'assets.node_id', 'sub.id').select('assets.node_id');
    await subtreeCte(db, id)
      .updateTable('pages')
      .set({ updated_at: now })
      .where('pages.node_id', 'in', (eb) =>
        eb.selectFrom('widgets').select('widgets.page_id').where('widgets.shared_asset_id', 'in', linked(eb)),
      )
      .execute();
    await subtreeCte(db, id)
      .deleteFrom('widgets')
      .where('widgets.shared_asset_id', 'in', (eb) => linked(eb))
      .execute();
  },
};

/** DELETE of sites, folders, sections, links and asset folders, and what one would remove. */
export function createFolderDeletes(ctx: AppContext) {
  return {
    /**
     * DELETE: an empty item goes to the trash; a non-empty one (anything but a landing page inside) only with
     * `includeSubFolders`, then with everything below it in one transaction. Widgets elsewhere that link assets
     * of the subtree are removed with it. With `purge` (admins) it is deleted for good, the blobs after the commit.
     */
    async remove(
      actor: Actor,
      segments: readonly string[],
      opts: { includeSubFolders?: boolean; ifMatch?: string; purge?: boolean } = {},
    ): Promise<string | null> {
      const trashed = await ctx.db.transaction().execute(async (trx) => {
        const resolved = await locateFolder(trx, segments);
        const found = resolved[resolved.length - 1]!;
        if (found.kind === 'library') {
          throw conflict('CONFLICT', 'The asset library itself cannot be deleted; delete the folders inside it.');
        }
        const node = await lockFound(trx, found, segments);
        const chain = [...resolved.slice(0, -1), node];
        requireAccess(actor, chain, 'WRITE', quotePath(segments));
        if (node.kind === 'site') requireSiteAdmin(actor, 'delete');
        if (opts.ifMatch !== undefined)
          assertIfMatch(opts.ifMatch, (await represent(trx, actor, chain, segments)).etag);
        if (await deleteQueries.hasChildrenBesides(trx, node.id, node.landing_page_id)) {
          if (!opts.includeSubFolders) {
            const contents = presentCounts(await deleteQueries.subtreeCounts(trx, node.id));
            const listed = Object.entries(contents)
              .filter(([, n]) => n > 0)
              .map(([k, n]) => `${n} ${k.replace(/([A-Z])/g, ' $1').toLowerCase()}`)
              .join(', ');
            throw conflict(
              'FOLDER_NOT_EMPTY',
              `${quotePath(segments)} is not empty (${listed}). Send includeSubFolders=true to delete it with everything inside.`,
              { contents },
            );
          }
          if (actor.role !== 'Admin' && (await deleteQueries.subtreeHasReadOnly(trx, node.id))) {
            throw forbidden(
              `Something inside ${quotePath(segments)} is read-only for you; only an admin may delete it.`,
            );
          }
        }
        if (segments[0] === ASSET_LIBRARY) await assertFolderAssetsUnreferenced(trx, node.id, segments);
        const at = ctx.now();
        await deleteQueries.unlinkSubtreeAssets(trx, node.id, isoTime(at));
        const item = { id: node.id, kind: node.kind, parentId: node.parent_id!, segments };
        const done = await trashItem(trx, item, actor, isoTime(at), opts.purge);
        await recordChanges(trx, [deletion(node.kind, node.id, segments, actor.username, at)]);
        return done;
      });
      await deleteUnreferencedBlobs(ctx, trashed.blobKeys);
      return trashed.trashId;
    },

    /**
     * What a DELETE of the item at `segments` would remove: the items below it by kind, the section links and
     * widgets elsewhere that go with it, and whether the delete needs `includeSubFolders`.
     */
    async contents(actor: Actor, segments: readonly string[]): Promise<FolderContents> {
      const chain = await locateFolder(ctx.db, segments);
      requireAccess(actor, chain, 'READ', quotePath(segments));
      const node = chain[chain.length - 1]!;
      const counts = await deleteQueries.subtreeCounts(ctx.db, node.id);
      const sectionLinks = await deleteQueries.linksIntoSubtree(ctx.db, node.id);
      const widgets = await deleteQueries.widgetsIntoSubtree(ctx.db, node.id);
      const nonEmpty = await deleteQueries.hasChildrenBesides(ctx.db, node.id, node.landing_page_id);
      return presentContents(counts, { sectionLinks, widgets }, !nonEmpty);
    },
  };
}
