import type { Kysely } from 'kysely';
import { THUMBNAIL_PREFIX } from '../../../shared/api/assets.js';
import type { DB } from '../../db/schema.js';
import { conflict } from '../../lib/errors.js';
import { treeRepository } from '../tree/tree.repository.js';
import { assetUsageRepository as usageRepo } from './asset-usage.repository.js';

/** The asset a referred path means (its own path, or its thumbnail's), when it is one of `assetIds`. */
async function assetOf(db: Kysely<DB>, path: string, assetIds: ReadonlySet<string>): Promise<boolean> {
  const segments = path.split('/');
  const name = segments[segments.length - 1]!;
  const candidates = [segments];
  if (name.startsWith(THUMBNAIL_PREFIX))
    candidates.push([...segments.slice(0, -1), name.slice(THUMBNAIL_PREFIX.length)]);
  for (const segs of candidates) {
    const { chain, found } = await treeRepository.resolve(db, segs);
    const node = chain[chain.length - 1];
    if (found === segs.length && node?.kind === 'asset' && assetIds.has(node.id)) return true;
  }
  return false;
}

/**
 * 409 ASSET_IN_USE when content the delete of the asset folder `folderId` at `segments` leaves behind (pages'
 * widgets, templates, shared assets elsewhere) refers in its text to an asset below it — an image or link that
 * would break without a word, as a single asset's delete refuses. Widgets that link those assets are removed with
 * the folder (the folder delete's contract, listed by `contents`). Runs in the delete's transaction.
 */
export async function assertFolderAssetsUnreferenced(
  db: Kysely<DB>,
  folderId: string,
  segments: readonly string[],
): Promise<void> {
  const subtree = await treeRepository.subtree(db, folderId);
  const assetIds = new Set(subtree.filter((n) => n.kind === 'asset').map((n) => n.id));
  if (!assetIds.size) return;
  const referred: string[] = [];
  for (const path of await usageRepo.referencesBelow(db, segments.join('/'), [...assetIds])) {
    if (await assetOf(db, path, assetIds)) referred.push(path);
  }
  if (referred.length) {
    throw conflict(
      'ASSET_IN_USE',
      `${segments.join('/')} holds assets that pages, templates or shared assets refer to in their text (${referred
        .sort()
        .join(', ')}); remove those references first.`,
      { assets: referred.sort() },
    );
  }
}
