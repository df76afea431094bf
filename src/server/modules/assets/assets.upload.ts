import { pipeline, Readable } from 'node:stream';
import { THUMBNAIL_PREFIX, type AssetMetadata, type UploadAssetType } from '../../../shared/api/assets.js';
import { splitPath } from '../../../shared/api/paths.js';
import { BINARY_ASSET_TYPE_BY_UPLOAD } from '../../../shared/registry/index.js';
import { BlobTooLargeError } from '../../blobs/blob-store.js';
import type { Actor, AppContext } from '../../lib/context.js';
import { AppError, badRequest, conflict } from '../../lib/errors.js';
import { requireAccess } from '../tree/access.js';
import { treeRepository } from '../tree/tree.repository.js';
import { ensureAssetFolder, insertAssetRecord } from './asset-records.js';
import { deleteBlobs } from './asset-blobs.js';
import { assertCreatable, retryingTransaction, sameSegments, targetOf, type UploadTarget } from './assets.common.js';
import { representAsset, type AssetRepresentation } from './assets.presenter.js';
import { assetsRepository as repo } from './assets.repository.js';
import { makeThumbnail, probeImage } from './images.js';
import { extensionOf, UploadInspector, type Sniffed } from './sniff.js';

/** The JSON an asset row keeps about its file (`image` + `thumbnail`, or `file`) and the thumbnail's blob. */
export interface DescribedFile {
  image?: Record<string, unknown>;
  file?: Record<string, unknown>;
  thumbnail?: Record<string, unknown>;
  thumbKey: string | null;
}

/** An upload's bytes, stored as a blob but not yet an asset. */
export interface StoredUpload {
  key: string;
  size: number;
  sha256: string;
  sniffed: Sniffed;
}

/** The upload form's fields besides the file. */
export interface UploadOptions {
  /** Overrides the type sniffed from the bytes. */
  assetType?: UploadAssetType;
  /** The `path` form field: must name the URL's asset path. */
  path?: string;
}

/** 409 LOCATION_MISMATCH when an upload form's `path` field names another asset than its URL. */
export function assertFormPath(path: string | undefined, target: UploadTarget): void {
  if (path !== undefined && !sameSegments(splitPath(path), target.segments)) {
    throw conflict('LOCATION_MISMATCH', `The form's path "${path}" is not the URL's ${target.segments.join('/')}.`);
  }
}

/** True for errors of the local file system or network (disk full, permissions), which are the server's. */
function isSystemError(err: unknown): boolean {
  return typeof (err as { syscall?: unknown } | null)?.syscall === 'string';
}

/**
 * Binary uploads that create an asset, in three steps (prepare before any byte is read, store while the file
 * streams, complete once it is stored), and `upload` doing all three.
 */
export function createAssetUploads(ctx: AppContext) {
  /**
   * First step of an upload, before any byte is read: the path is valid, nothing is there yet (409
   * ASSET_ALREADY_EXISTS: the binary of an asset is never replaced), and the caller may write in the folder.
   */
  async function prepareUpload(actor: Actor, segments: readonly string[]): Promise<UploadTarget> {
    const target = targetOf(segments);
    const { chain } = await treeRepository.resolve(ctx.db, target.segments);
    if (chain.length === target.segments.length) {
      const node = chain[chain.length - 1]!;
      if (node.kind === 'asset') {
        throw conflict(
          'ASSET_ALREADY_EXISTS',
          `An asset already exists at ${target.segments.join('/')}. Its file cannot be replaced: delete it, then upload.`,
        );
      }
      throw conflict('NAME_TAKEN', `${target.segments.join('/')} is a folder.`);
    }
    assertCreatable(actor, chain, target.segments);
    return target;
  }

  /**
   * Second step: streams the file into the blob store (never whole in memory), sniffing its head on the way.
   * Disguised markup and active SVG are refused (415) as soon as they are seen, an empty file is refused (400),
   * a file over the limit is refused (413); each leaves no blob.
   */
  async function storeUpload(target: UploadTarget, source: Readable): Promise<StoredUpload> {
    const inspector = new UploadInspector(target.name);
    // `pipeline` (not `pipe`) so that an aborted source destroys the inspector, which fails the blob write.
    pipeline(source, inspector, () => {});
    try {
      const info = await ctx.blobs.put(inspector, { maxBytes: ctx.config.maxUploadBytes });
      return { ...info, sniffed: inspector.sniffed! };
    } catch (err) {
      throw uploadError(err);
    }
  }

  /** Maps an error of streaming an upload to a problem: too large → 413; a broken stream → 400. */
  function uploadError(err: unknown): unknown {
    if (err instanceof AppError) return err;
    const e = err as { code?: string; statusCode?: number; message?: string };
    if (err instanceof BlobTooLargeError || e?.code === 'FST_REQ_FILE_TOO_LARGE') return tooLarge();
    if (isSystemError(err)) return err;
    if (typeof e?.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) return err;
    return badRequest(`The upload did not arrive whole (${e?.message ?? 'stream error'}).`, [
      { path: 'file', message: 'is incomplete' },
    ]);
  }

  function tooLarge(): AppError {
    return new AppError(
      413,
      'PAYLOAD_TOO_LARGE',
      `The file is larger than the limit of ${ctx.config.maxUploadBytes.toLocaleString('en')} bytes.`,
    );
  }

  /** The asset type of an upload: from the bytes unless `assetType` overrides; `image` needs raster bytes (415). */
  function typeOf(sniffed: Sniffed, override?: UploadAssetType): string {
    if (override === 'image' && sniffed.kind !== 'raster') {
      throw new AppError(
        415,
        'UNSUPPORTED_MEDIA_TYPE',
        `assetType "image" needs a PNG, JPEG, GIF, WebP, AVIF or TIFF file; this one is ${sniffed.mime}.`,
      );
    }
    if (override) return BINARY_ASSET_TYPE_BY_UPLOAD[override];
    if (sniffed.kind === 'raster') return BINARY_ASSET_TYPE_BY_UPLOAD.image;
    if (sniffed.kind === 'flash') return BINARY_ASSET_TYPE_BY_UPLOAD.flash;
    return BINARY_ASSET_TYPE_BY_UPLOAD.file;
  }

  /**
   * Last step: checks the form's `path` and `assetType`, reads an image's size from its header (refusing pixel
   * bombs before decoding), makes its thumbnail, and records the asset. The caller deletes the stored blob when
   * this throws; this deletes the thumbnail it made.
   */
  async function completeUpload(
    actor: Actor,
    target: UploadTarget,
    stored: StoredUpload,
    opts: UploadOptions = {},
  ): Promise<AssetRepresentation> {
    assertFormPath(opts.path, target);
    const type = typeOf(stored.sniffed, opts.assetType);
    let described: DescribedFile | null = null;
    try {
      described = await describeFile(ctx, target, stored, type);
      const { image, file, thumbnail, thumbKey } = described;
      return await retryingTransaction(
        ctx,
        async (trx) => {
          const chain = await ensureAssetFolder(trx, target.folder, ctx.now());
          requireAccess(actor, chain, 'WRITE', `the asset folder ${target.folder.join('/')}`);
          const id = await insertAssetRecord(trx, {
            folderId: chain[chain.length - 1]!.id,
            name: target.name,
            type,
            fields: { displaytitle: target.name, filename: target.name },
            actor,
            now: ctx.now(),
            blob: { key: stored.key, size: stored.size, sha256: stored.sha256, contentType: stored.sniffed.mime },
            image,
            file,
            thumbnail,
            thumbBlobKey: thumbKey,
            folder: target.folder,
          });
          return representAsset((await repo.find(trx, id))!, target.folder);
        },
        ['NAME_TAKEN'],
      );
    } catch (err) {
      await deleteBlobs(ctx, [described?.thumbKey]);
      throw err;
    }
  }

  /** Deletes the blob of an upload that did not become an asset. */
  async function discardUpload(stored: StoredUpload | null | undefined): Promise<void> {
    await deleteBlobs(ctx, [stored?.key]);
  }

  /** Uploads a file in one call (seeding, scripts): the three steps of the REST upload. */
  async function upload(
    actor: Actor,
    segments: readonly string[],
    source: Readable,
    opts: UploadOptions = {},
  ): Promise<AssetMetadata> {
    const target = await prepareUpload(actor, segments);
    const stored = await storeUpload(target, source);
    try {
      return (await completeUpload(actor, target, stored, opts)).meta;
    } catch (err) {
      await discardUpload(stored);
      throw err;
    }
  }

  return { prepareUpload, storeUpload, completeUpload, discardUpload, uploadError, upload };
}

/**
 * What the asset rows say about a stored file: an image's size from its header (pixel bombs refused before
 * decoding) and its thumbnail, stored as a blob of its own (the caller deletes `thumbKey` if it fails later);
 * a file's extension, size and type.
 */
export async function describeFile(
  ctx: AppContext,
  target: UploadTarget,
  stored: StoredUpload,
  type: string,
): Promise<DescribedFile> {
  const { sniffed } = stored;
  if (type !== BINARY_ASSET_TYPE_BY_UPLOAD.image) {
    const ext = sniffed.ext ?? extensionOf(target.name);
    return {
      file: { filename: target.name, extension: ext ? `.${ext}` : '', size: stored.size, type: sniffed.mime },
      thumbKey: null,
    };
  }
  const { size, thumb } = await ctx.blobs.withLocalFile(stored.key, async (path) => {
    const size = await probeImage(path, sniffed.mime, ctx.config.maxImagePixels);
    return { size, thumb: await makeThumbnail(path, size.format, ctx.config.thumbnailSize, ctx.config.maxImagePixels) };
  });
  const thumbBlob = await ctx.blobs.put(Readable.from([thumb.data]));
  return {
    image: {
      filename: target.name,
      extension: sniffed.ext ?? extensionOf(target.name),
      size: stored.size,
      type: sniffed.mime,
      width: size.width,
      height: size.height,
    },
    thumbnail: {
      filename: `${THUMBNAIL_PREFIX}${target.name}`,
      extension: thumb.extension,
      size: thumbBlob.size,
      type: thumb.type,
      width: thumb.width,
      height: thumb.height,
      sha256: thumbBlob.sha256,
    },
    thumbKey: thumbBlob.key,
  };
}
