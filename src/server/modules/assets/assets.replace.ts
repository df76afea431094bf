import { BINARY_ASSET_TYPE_BY_UPLOAD } from '../../../shared/registry/index.js';
import type { Actor, AppContext } from '../../lib/context.js';
import { conflict } from '../../lib/errors.js';
import { assertIfMatch } from '../../lib/etag.js';
import { assertLeaseFree } from '../leases/lease-records.js';
import { requireAccess } from '../tree/access.js';
import { deleteBlobs } from './asset-blobs.js';
import { findAsset, targetOf, type UploadTarget } from './assets.common.js';
import { assetIfMatchEtag, type AssetRepresentation } from './assets.presenter.js';
import { writeAssetRevision, writeTime } from './asset-writes.js';
import { assertFormPath, describeFile, type DescribedFile, type StoredUpload } from './assets.upload.js';
import { workflowAfterWrite } from '../../lib/workflow.js';

/** Where a replacing file goes: an existing binary asset and its type, which the file must keep. */
export interface ReplaceTarget extends UploadTarget {
  type: string;
}

/** Replacing the file of a binary asset in place (an extension): prepare before any byte is read, then complete. */
export function createAssetReplace(ctx: AppContext) {
  /**
   * First step of replacing the file of a binary asset in place, before any byte is read: the asset is there
   * (404 otherwise: upload creates), it has a file (409 TYPE_MISMATCH for non-binary types), the caller may
   * write it.
   */
  async function prepareReplace(actor: Actor, segments: readonly string[]): Promise<ReplaceTarget> {
    const target = targetOf(segments);
    const { chain, row } = await findAsset(ctx.db, target.segments);
    requireAccess(actor, chain, 'WRITE', target.segments.join('/'));
    if (!row.blob_key) {
      throw conflict(
        'TYPE_MISMATCH',
        `${target.segments.join('/')} is a ${row.type} asset, which has no file to replace; change its fields instead.`,
      );
    }
    return { ...target, type: row.type };
  }

  /**
   * Last step of a replace: the new file keeps the asset — its id, fields (alt text, titles), the pages that link
   * it — and takes the place of the old one in one transaction, honouring `If-Match`. An image is replaced only by
   * raster bytes (409 TYPE_MISMATCH); a file or Flash asset by anything. Like a change of its fields, it takes a
   * Public asset to Quick Edit, checked out to the caller. The old file and thumbnail stay with the revision before;
   * the caller deletes the stored blob when this throws, this deletes the thumbnail it made.
   */
  async function completeReplace(
    actor: Actor,
    target: ReplaceTarget,
    stored: StoredUpload,
    opts: { path?: string; ifMatch?: string } = {},
  ): Promise<AssetRepresentation> {
    assertFormPath(opts.path, target);
    if (target.type === BINARY_ASSET_TYPE_BY_UPLOAD.image && stored.sniffed.kind !== 'raster') {
      throw conflict(
        'TYPE_MISMATCH',
        `${target.segments.join('/')} is an image; its file can only be replaced by a PNG, JPEG, GIF, WebP, AVIF or ` +
          `TIFF image, and this one is ${stored.sniffed.mime}.`,
      );
    }
    let described: DescribedFile | null = null;
    try {
      described = await describeFile(ctx, target, stored, target.type);
      const { image, file, thumbnail, thumbKey } = described;
      return await ctx.db.transaction().execute(async (trx) => {
        const { chain, row } = await findAsset(trx, target.segments, true);
        requireAccess(actor, chain, 'WRITE', target.segments.join('/'));
        await assertLeaseFree(trx, 'asset', row.id, row.checked_out_user, actor, ctx.now());
        assertIfMatch(opts.ifMatch, assetIfMatchEtag(opts.ifMatch, row, target.folder, actor));
        if (row.type !== target.type || !row.blob_key) {
          throw conflict('TYPE_MISMATCH', `${target.segments.join('/')} changed type while its file was sent.`);
        }
        const workflow = workflowAfterWrite(row, { contentChanged: true }, actor);
        const rep = await writeAssetRevision(
          trx,
          row,
          {
            blob_key: stored.key,
            content_type: stored.sniffed.mime,
            size: stored.size,
            sha256: stored.sha256,
            image: image === undefined ? null : JSON.stringify(image),
            file: file === undefined ? null : JSON.stringify(file),
            thumbnail: thumbnail === undefined ? null : JSON.stringify(thumbnail),
            thumb_blob_key: thumbKey,
            ...workflow,
            updated_by: actor.username,
          },
          writeTime(ctx.now(), row.updated_at),
          target.folder,
        );
        // The old file and thumbnail stay while a revision refers to them (migration 0280): the revision
        // written before this one does, until retention prunes it; the orphan sweep then removes them.
        return rep;
      });
    } catch (err) {
      await deleteBlobs(ctx, [described?.thumbKey]);
      throw err;
    }
  }

  return { prepareReplace, completeReplace };
}
