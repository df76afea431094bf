import type { Kysely } from 'kysely';
import { ASSET_LIBRARY } from '../../../shared/api/paths.js';
import type { DB } from '../../db/schema.js';
import type { Actor, AppContext } from '../../lib/context.js';
import { AppError, badRequest, conflict, notFound } from '../../lib/errors.js';
import { requireAccess } from '../tree/access.js';
import { treeRepository, type NodeRow } from '../tree/tree.repository.js';
import { assetsRepository as repo } from './assets.repository.js';

/** Where an upload goes: the asset path split into its folder and name. */
export interface UploadTarget {
  segments: string[];
  folder: string[];
  name: string;
}

/** Times a write is retried when a concurrent writer created the same folder or asset first. */
const ATTEMPTS = 3;

export const assetNotFound = (segments: readonly string[]) =>
  notFound('ASSET_NOT_FOUND', `No asset at ${segments.join('/') || '(empty path)'}.`);
const folderNotFound = (segments: readonly string[]) =>
  notFound('FOLDER_NOT_FOUND', `No asset folder at ${segments.join('/') || '(empty path)'}.`);

/** True when two paths name the same segments. */
export function sameSegments(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((s, i) => s === b[i]);
}

/** Runs `fn` in a transaction, again when a concurrent writer won a race that a new attempt resolves. */
export async function retryingTransaction<T>(
  ctx: AppContext,
  fn: (trx: Kysely<DB>) => Promise<T>,
  retryOn: readonly string[],
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await ctx.db.transaction().execute(fn);
    } catch (err) {
      if (attempt < ATTEMPTS && err instanceof AppError && retryOn.includes(err.code)) continue;
      throw err;
    }
  }
}

/** Splits an asset path; 400 unless it is `Assets/<folder…>/<name>`. */
export function targetOf(segments: readonly string[]): UploadTarget {
  if (segments[0] !== ASSET_LIBRARY || segments.length < 2) {
    throw badRequest(
      `An asset path is ${ASSET_LIBRARY}/<folder…>/<name>.`,
      [{ path: 'path', message: `must start with ${ASSET_LIBRARY}/ and name an asset` }],
      'INVALID_PARAMETER',
    );
  }
  return { segments: [...segments], folder: segments.slice(0, -1), name: segments[segments.length - 1]! };
}

/** The asset at `segments` with its chain; 404 when there is none. */
export async function findAsset(db: Kysely<DB>, segments: readonly string[], lock = false) {
  if (segments[0] !== ASSET_LIBRARY || segments.length < 2) throw assetNotFound(segments);
  const { chain } = await treeRepository.resolve(db, segments);
  const node = chain[chain.length - 1];
  if (chain.length !== segments.length || node?.kind !== 'asset') throw assetNotFound(segments);
  const row = await repo.find(db, node.id, lock);
  if (!row) throw assetNotFound(segments);
  return { chain, row };
}

/** The asset folder (or the library) at `segments` with its chain; 404 when there is none. */
export async function findFolder(db: Kysely<DB>, segments: readonly string[]) {
  const segs = segments.length ? segments : [ASSET_LIBRARY];
  if (segs[0] !== ASSET_LIBRARY) throw folderNotFound(segs);
  const { chain } = await treeRepository.resolve(db, segs);
  const node = chain[chain.length - 1];
  if (chain.length !== segs.length || (node?.kind !== 'folder' && node?.kind !== 'library')) {
    throw folderNotFound(segs);
  }
  return { chain, node, path: segs.join('/') };
}

/** Checks before a create: what exists on the way must be folders; the caller must be allowed to write there. */
export function assertCreatable(actor: Actor, chain: readonly NodeRow[], segments: readonly string[]) {
  for (const node of chain.slice(1)) {
    if (node.kind !== 'folder')
      throw conflict('NAME_TAKEN', `"${node.name}" in ${segments.join('/')} is not a folder.`);
  }
  requireAccess(actor, chain, 'WRITE', `the asset folder ${segments.slice(0, -1).join('/')}`);
}
