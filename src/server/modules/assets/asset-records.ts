import type { Kysely } from 'kysely';
import { ASSET_LIBRARY } from '../../../shared/api/paths.js';
import { DEFAULT_WORKFLOW } from '../../../shared/api/workflow.js';
import { isUniqueViolation, nextId } from '../../db/dialect.js';
import type { AssetsTable, DB } from '../../db/schema.js';
import { LIBRARY_NODE_ID } from '../../db/structure.js';
import { isoTime, type Actor } from '../../lib/context.js';
import { badRequest, conflict } from '../../lib/errors.js';
import { newNodeRow, treeRepository, type NodeRow } from '../tree/tree.repository.js';
import { assetRefs } from '../pages/widget-refs.js';
import { writeAssetRevision } from './asset-writes.js';
import { assetsRepository } from './assets.repository.js';

/**
 * The asset folder at `segments` (`['Assets', 'images', 'logos']`), created on the way when missing, as every
 * way an asset arrives does (upload, non-binary PUT, conversion from a page). Answers the folder's chain.
 * Runs inside the caller's transaction; a concurrent creator of the same folder is tolerated.
 */
export async function ensureAssetFolder(trx: Kysely<DB>, segments: readonly string[], now: number): Promise<NodeRow[]> {
  if (segments[0] !== ASSET_LIBRARY) {
    throw badRequest(`Asset paths start with "${ASSET_LIBRARY}/".`, [
      { path: 'folderPath', message: `must start with ${ASSET_LIBRARY}` },
    ]);
  }
  const library = (await treeRepository.findById(trx, LIBRARY_NODE_ID))!;
  const chain: NodeRow[] = [library];
  for (const name of segments.slice(1)) {
    const parent = chain[chain.length - 1]!;
    let node = await treeRepository.findChild(trx, parent.id, name);
    if (!node) {
      const ts = isoTime(now);
      node = newNodeRow(await nextId(trx, 'folder'), parent.id, 'folder', name, ts);
      try {
        await treeRepository.insert(trx, node);
      } catch (err) {
        if (isUniqueViolation(err))
          throw conflict('NAME_TAKEN', `"${name}" was created by someone else at the same time; try again.`);
        throw err;
      }
    } else if (node.kind !== 'folder') {
      throw conflict('NAME_TAKEN', `"${name}" in ${segments.join('/')} is an asset, not a folder.`);
    }
    chain.push(node);
  }
  return chain;
}

export interface NewAssetRecord {
  folderId: string;
  name: string;
  type: string;
  fields: Record<string, unknown>;
  actor: Actor;
  now: number;
  /** Binary content, for uploads. */
  blob?: { key: string; size: number; sha256: string; contentType: string };
  image?: unknown;
  file?: unknown;
  thumbnail?: unknown;
  thumbBlobKey?: string | null;
  /** The asset's folder as segments (`['Assets', …]`): where its first revision's JSON says it is. */
  folder: readonly string[];
  /** The workflow it starts in, when not Draft and free, and its schedule. */
  workflow?: Pick<AssetsTable, 'workflow_state' | 'checked_out' | 'checked_out_user'> &
    Partial<Pick<AssetsTable, 'publish_at' | 'unpublish_at'>>;
}

/**
 * Inserts an asset (node + asset row) in the caller's transaction: Default Workflow, Draft, checked out to
 * the creator. 409 ASSET_ALREADY_EXISTS when the name is taken in that folder.
 */
export async function insertAssetRecord(trx: Kysely<DB>, a: NewAssetRecord): Promise<string> {
  const id = await nextId(trx, 'asset');
  const ts = isoTime(a.now);
  try {
    await treeRepository.insert(trx, newNodeRow(id, a.folderId, 'asset', a.name, ts));
  } catch (err) {
    if (isUniqueViolation(err))
      throw conflict('ASSET_ALREADY_EXISTS', `An asset or folder named "${a.name}" already exists there.`);
    throw err;
  }
  await trx
    .insertInto('assets')
    .values({
      node_id: id,
      parent_id: a.folderId,
      type: a.type,
      fields: JSON.stringify(a.fields),
      workflow_name: DEFAULT_WORKFLOW,
      workflow_state: 'Draft',
      checked_out: 0,
      checked_out_user: '',
      blob_key: a.blob?.key ?? null,
      content_type: a.blob?.contentType ?? null,
      size: a.blob?.size ?? null,
      sha256: a.blob?.sha256 ?? null,
      image: a.image === undefined ? null : JSON.stringify(a.image),
      file: a.file === undefined ? null : JSON.stringify(a.file),
      thumbnail: a.thumbnail === undefined ? null : JSON.stringify(a.thumbnail),
      thumb_blob_key: a.thumbBlobKey ?? null,
      created_at: ts,
      updated_at: ts,
      updated_by: a.actor.username,
      ...a.workflow,
    })
    .execute();
  await assetRefs.added(trx, id, JSON.stringify(a.fields));
  // The creation is the asset's first revision (migration 0280), with the JSON a GET answers.
  const row = (await assetsRepository.find(trx, id))!;
  await writeAssetRevision(trx, row, {}, row.updated_at, a.folder);
  return id;
}
