import type { AppContext } from '../../lib/context.js';
import { createAssetDownloads } from './assets.download.js';
import { createAssetListing } from './assets.listing.js';
import { createAssetMetadata } from './assets.metadata.js';
import { createAssetReplace } from './assets.replace.js';
import { createAssetRestore } from './assets.restore.js';
import { createAssetUploads } from './assets.upload.js';
import { createAssetUsage } from './assets.usage.js';
import { createAssetWorkflow } from './assets.workflow.js';

export type { UploadTarget } from './assets.common.js';
export type { BinaryDownload } from './assets.download.js';
export type { AssetRepresentation } from './assets.presenter.js';
export type { ReplaceTarget } from './assets.replace.js';
export type { AssetRevisionContent } from './assets.restore.js';
export type { StoredUpload, UploadOptions } from './assets.upload.js';

/**
 * The asset library: binary uploads and downloads, metadata, non-binary assets, listings, where-used and
 * workflow, one file each. Blobs are written before the transaction that records them and deleted after the
 * transaction that forgets them commits, so a failure never leaves an asset without its blob; a blob without an
 * asset is deleted on every failure path.
 */
export function createAssetsService(ctx: AppContext) {
  const { prepareUpload, storeUpload, completeUpload, discardUpload, uploadError, upload } = createAssetUploads(ctx);
  const { prepareReplace, completeReplace } = createAssetReplace(ctx);
  const { download } = createAssetDownloads(ctx);
  const { get, put } = createAssetMetadata(ctx);
  const { usage, remove } = createAssetUsage(ctx);
  const { transitions, bulk } = createAssetWorkflow(ctx);
  const { list } = createAssetListing(ctx);
  const { restore } = createAssetRestore(ctx);
  return {
    prepareUpload,
    storeUpload,
    completeUpload,
    prepareReplace,
    completeReplace,
    discardUpload,
    uploadError,
    upload,
    download,
    get,
    put,
    remove,
    usage,
    transitions,
    bulk,
    list,
    restore,
  };
}
export type AssetsService = ReturnType<typeof createAssetsService>;
