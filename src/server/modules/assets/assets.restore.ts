import type { AssetsTable } from '../../db/schema.js';
import type { Actor, AppContext } from '../../lib/context.js';
import { assertIfMatch } from '../../lib/etag.js';
import { workflowAfterWrite } from '../../lib/workflow.js';
import { assertLeaseFree } from '../leases/lease-records.js';
import { assetRefs } from '../pages/widget-refs.js';
import { requireAccess } from '../tree/access.js';
import { writeAssetRevision, writeTime } from './asset-writes.js';
import { findAsset, targetOf } from './assets.common.js';
import { assetIfMatchEtag, representAsset, type AssetRepresentation } from './assets.presenter.js';

/** What a revision of an asset keeps besides its JSON: its stored fields and its file (migration 0280). */
export type AssetRevisionContent = Pick<
  AssetsTable,
  'blob_key' | 'thumb_blob_key' | 'content_type' | 'sha256' | 'image' | 'file' | 'thumbnail'
> & { fields: string | null; size: number | string | null };

/** Restoring an asset's content from one of its revisions. */
export function createAssetRestore(ctx: AppContext) {
  /**
   * Makes `revision`'s fields and file the asset's current ones, as a new revision, in one transaction: access,
   * lease and `If-Match` as for a PUT, and the workflow after a change of content (Public → Quick Edit). The file
   * is still there: a blob stays while a revision refers to it. Nothing is written when nothing differs.
   */
  async function restore(
    actor: Actor,
    segments: readonly string[],
    revision: AssetRevisionContent,
    ifMatch?: string,
  ): Promise<AssetRepresentation> {
    const target = targetOf(segments);
    const where = target.segments.join('/');
    return ctx.db.transaction().execute(async (trx) => {
      const { chain, row } = await findAsset(trx, target.segments, true);
      requireAccess(actor, chain, 'WRITE', where);
      await assertLeaseFree(trx, 'asset', row.id, row.checked_out_user, actor, ctx.now());
      assertIfMatch(ifMatch, assetIfMatchEtag(ifMatch, row, target.folder, actor));
      const fields = revision.fields ?? row.fields;
      const binary = row.blob_key !== null && revision.blob_key !== null;
      const file = binary
        ? {
            blob_key: revision.blob_key,
            thumb_blob_key: revision.thumb_blob_key,
            content_type: revision.content_type,
            size: revision.size === null ? null : Number(revision.size),
            sha256: revision.sha256,
            image: revision.image,
            file: revision.file,
            thumbnail: revision.thumbnail,
          }
        : {};
      if (fields === row.fields && (!binary || revision.blob_key === row.blob_key)) {
        return representAsset(row, target.folder);
      }
      const workflow = workflowAfterWrite(row, { contentChanged: true }, actor);
      const patch = { fields, ...file, ...workflow };
      const at = writeTime(ctx.now(), row.updated_at);
      const rep = await writeAssetRevision(trx, row, { ...patch, updated_by: actor.username }, at, target.folder);
      await assetRefs.changed(trx, row.id, row.fields, fields);
      return rep;
    });
  }

  return { restore };
}
