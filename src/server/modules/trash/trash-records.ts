import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { TRASH_NODE_ID } from '../../db/structure.js';
import type { Actor, AppContext } from '../../lib/context.js';
import { forbidden } from '../../lib/errors.js';
import { deleteBlobs } from '../assets/asset-blobs.js';
import { trashRepository as repo } from './trash.repository.js';

/** An item a delete takes away: its node, kind, the container it is in, and its path. */
export interface DeletedItem {
  id: string;
  kind: string;
  parentId: string;
  segments: readonly string[];
}

/** What a delete leaves to do after its commit: the trash entry made (null when purged), blobs to delete. */
export interface Trashed {
  trashId: string | null;
  blobKeys: string[];
}

/**
 * The one way an item is deleted (pages, assets, folder items), inside the delete's transaction: section links
 * elsewhere that point into it go; then the item with everything below it moves to the trash (an entry
 * remembering where it was, its node below the trash root), or, with `purge` (admins only), is deleted for good.
 */
export async function trashItem(
  trx: Kysely<DB>,
  item: DeletedItem,
  actor: Actor,
  at: string,
  purge = false,
): Promise<Trashed> {
  if (purge && actor.role !== 'Admin') {
    throw forbidden('Only admins delete for good (purge=true); without it the item goes to the trash.');
  }
  await repo.deleteLinksInto(trx, item.id);
  if (purge) return { trashId: null, blobKeys: await purgeNode(trx, item.id) };
  const name = item.segments[item.segments.length - 1]!;
  const id = await repo.insert(trx, {
    node_id: item.id,
    kind: item.kind,
    parent_id: item.parentId,
    name,
    path: item.segments.join('/'),
    by: actor.username,
    at,
  });
  await repo.moveNode(trx, item.id, TRASH_NODE_ID, String(id));
  return { trashId: String(id), blobKeys: [] };
}

/** Deletes a node for good with everything below it; answers the blob keys its assets and revisions held. */
export async function purgeNode(trx: Kysely<DB>, nodeId: string): Promise<string[]> {
  const keys = await repo.subtreeBlobKeys(trx, nodeId);
  await repo.deleteNode(trx, nodeId);
  return keys;
}

/** Keys per query (each is bound four times: far below every dialect's parameter limit). */
const KEYS_CHUNK = 500;

/**
 * After the commit: deletes the blobs of `keys` that no asset or revision refers to any more (deleteBlobs: a
 * failure is logged, never thrown at the client; the orphan sweep removes what is left).
 */
export async function deleteUnreferencedBlobs(ctx: AppContext, keys: readonly string[]): Promise<void> {
  const kept = new Set<string>();
  for (let i = 0; i < keys.length; i += KEYS_CHUNK) {
    for (const k of await repo.referencedKeys(ctx.db, keys.slice(i, i + KEYS_CHUNK))) kept.add(k);
  }
  await deleteBlobs(
    ctx,
    keys.filter((k) => !kept.has(k)),
  );
}
