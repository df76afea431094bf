import type { FolderContents } from '../../../shared/api/folders.js';
import { isoTime, type Actor, type AppContext } from '../../lib/context.js';
import { conflict, forbidden } from '../../lib/errors.js';
import { assertIfMatch } from '../../lib/etag.js';
import { requireAccess, requireSiteAdmin } from '../tree/access.js';
import { deleteBlobs } from '../assets/asset-blobs.js';
import { assertFolderAssetsUnreferenced } from '../assets/asset-folder-refs.js';
import { ASSET_LIBRARY } from '../../../shared/api/paths.js';
import { presentContents, presentCounts } from './folders.presenter.js';
import { foldersRepository as repo } from './folders.repository.js';
import { locateFolder, lockFound, quotePath } from './folders.rules.js';
import { represent } from './folders.represent.js';

/** DELETE of sites, folders, sections, links and asset folders, and what one would remove. */
export function createFolderDeletes(ctx: AppContext) {
  const now = () => isoTime(ctx.now());

  return {
    /**
     * DELETE: an empty item goes; a non-empty one (anything but a landing page inside) only with
     * `includeSubFolders`, then with everything below it in one transaction. Widgets elsewhere that link assets
     * of the subtree are removed with it; the assets' blobs are deleted after the commit.
     */
    async remove(
      actor: Actor,
      segments: readonly string[],
      opts: { includeSubFolders?: boolean; ifMatch?: string } = {},
    ): Promise<void> {
      const blobKeys = await ctx.db.transaction().execute(async (trx) => {
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
        if (await repo.hasChildrenBesides(trx, node.id, node.landing_page_id)) {
          if (!opts.includeSubFolders) {
            const contents = presentCounts(await repo.subtreeCounts(trx, node.id));
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
          if (actor.role !== 'Admin' && (await repo.subtreeHasReadOnly(trx, node.id))) {
            throw forbidden(
              `Something inside ${quotePath(segments)} is read-only for you; only an admin may delete it.`,
            );
          }
        }
        if (segments[0] === ASSET_LIBRARY) await assertFolderAssetsUnreferenced(trx, node.id, segments);
        const keys = await repo.subtreeBlobKeys(trx, node.id);
        await repo.unlinkSubtreeAssets(trx, node.id, now());
        await repo.deleteNode(trx, node.id);
        return keys;
      });
      await deleteBlobs(ctx, blobKeys);
    },

    /**
     * What a DELETE of the item at `segments` would remove: the items below it by kind, the section links and
     * widgets elsewhere that go with it, and whether the delete needs `includeSubFolders`.
     */
    async contents(actor: Actor, segments: readonly string[]): Promise<FolderContents> {
      const chain = await locateFolder(ctx.db, segments);
      requireAccess(actor, chain, 'READ', quotePath(segments));
      const node = chain[chain.length - 1]!;
      const counts = await repo.subtreeCounts(ctx.db, node.id);
      const sectionLinks = await repo.linksIntoSubtree(ctx.db, node.id);
      const widgets = await repo.widgetsIntoSubtree(ctx.db, node.id);
      const nonEmpty = await repo.hasChildrenBesides(ctx.db, node.id, node.landing_page_id);
      return presentContents(counts, { sectionLinks, widgets }, !nonEmpty);
    },
  };
}
