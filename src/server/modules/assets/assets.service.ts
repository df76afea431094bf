import { pipeline, Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import {
  BULK_TRANSITION,
  THUMBNAIL_PREFIX,
  type AssetBulkAction,
  type AssetBulkResult,
  type AssetList,
  type AssetListQuery,
  type AssetMetadata,
  type AssetPutBody,
  type AssetUsage,
  type UploadAssetType,
} from '../../../shared/api/assets.js';
import { roleAtLeast } from '../../../shared/api/auth.js';
import type { FieldError } from '../../../shared/api/errors.js';
import { ASSET_LIBRARY, pageHref, splitPath } from '../../../shared/api/paths.js';
import { TRANSITIONS, type TransitionsResponse, type WorkflowState } from '../../../shared/api/workflow.js';
import { assetTypeDef, BINARY_ASSET_TYPE_BY_UPLOAD, validateFields } from '../../../shared/registry/index.js';
import { BlobTooLargeError } from '../../blobs/blob-store.js';
import { isForeignKeyViolation } from '../../db/dialect.js';
import type { DB } from '../../db/schema.js';
import { isoTime, type Actor, type AppContext } from '../../lib/context.js';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../lib/errors.js';
import { assertIfMatch, assertPreconditions, type Preconditions } from '../../lib/etag.js';
import { applyTransition, availableTransitions, planTransitions } from '../../lib/workflow.js';
import { effectiveAccess, requireAccess } from '../tree/access.js';
import { treeRepository, type NodeRow } from '../tree/tree.repository.js';
import { assetSearchText, ensureAssetFolder, insertAssetRecord } from './asset-records.js';
import { presentAsset, serialiseAsset } from './assets.presenter.js';
import {
  assetsRepository as repo,
  sortValueOf,
  type AssetRow,
  type ListFilter,
  type ListPosition,
} from './assets.repository.js';
import { ifNoneMatchHits } from '../../lib/etag.js';
import { attachmentDisposition, DOWNLOAD_CSP, ifRangeAllows, parseRange } from './download.js';
import { makeThumbnail, probeImage } from './images.js';
import { extensionOf, UploadInspector, type Sniffed } from './sniff.js';

/** Where an upload goes: the asset path split into its folder and name. */
export interface UploadTarget {
  segments: string[];
  folder: string[];
  name: string;
}

/** Where a replacing file goes: an existing binary asset and its type, which the file must keep. */
export interface ReplaceTarget extends UploadTarget {
  type: string;
}

/** The JSON an asset row keeps about its file (`image` + `thumbnail`, or `file`) and the thumbnail's blob. */
interface DescribedFile {
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

export interface UploadOptions {
  /** Overrides the type sniffed from the bytes. */
  assetType?: UploadAssetType;
  /** The `path` form field: must name the URL's asset path. */
  path?: string;
}

/** Metadata with the exact JSON to send and its ETag. */
export interface AssetRepresentation {
  meta: AssetMetadata;
  json: string;
  etag: string;
}

/** A binary download (or its refusal as 304/416). `body` is null for HEAD, 304 and 416. */
export interface BinaryDownload {
  status: 200 | 206 | 304 | 416;
  headers: Record<string, string | number>;
  body: Readable | null;
}

/** Past tense of each bulk action, for its message (as the pages' bulk actions word it). */
const BULK_VERB: Record<AssetBulkAction, string> = {
  'approve-all': 'Approved',
  'submit-all': 'Submitted',
  'archive-all': 'Archived',
};

/** Times a write is retried when a concurrent writer created the same folder or asset first. */
const ATTEMPTS = 3;

const assetNotFound = (segments: readonly string[]) =>
  notFound('ASSET_NOT_FOUND', `No asset at ${segments.join('/') || '(empty path)'}.`);
const folderNotFound = (segments: readonly string[]) =>
  notFound('FOLDER_NOT_FOUND', `No asset folder at ${segments.join('/') || '(empty path)'}.`);

/**
 * The workflow after a PUT, as pages do it: changing the fields of a Public asset takes the Edit transition
 * (to Quick Edit) first; `target` is then reached by the shortest walk of transitions the actor may take (409
 * otherwise). Changing fields or moving to Quick Edit checks the asset out to the actor, reaching Public checks
 * it in; an explicit `checkedOut` wins.
 */
function nextWorkflow(
  current: { workflow_state: string; checked_out: number; checked_out_user: string },
  change: { contentChanged: boolean; target?: string; checkedOut?: boolean },
  actor: Actor,
) {
  let state = current.workflow_state;
  let moved = false;
  if (change.contentChanged && state === 'Public') {
    state = applyTransition(state, 'Edit', actor);
    moved = true;
  }
  if (change.target !== undefined) {
    for (const t of planTransitions(state, change.target, actor)) {
      state = t.to;
      moved = true;
    }
  }
  let checkedOut = current.checked_out === 1;
  let user = current.checked_out_user;
  if (change.contentChanged || (moved && state === 'Quick Edit')) {
    checkedOut = true;
    user = actor.username;
  }
  if (moved && state === 'Public') {
    checkedOut = false;
    user = '';
  }
  if (change.checkedOut !== undefined) {
    checkedOut = change.checkedOut;
    user = checkedOut ? actor.username : '';
  }
  return { workflow_state: state, checked_out: checkedOut ? 1 : 0, checked_out_user: user };
}

/** The stored value of a fields map: keys sent as `null` dropped (unset); `""` is kept as a value. */
function mergeFields(stored: Record<string, unknown>, changes: Record<string, unknown>): Record<string, unknown> {
  const next: Record<string, unknown> = { ...stored };
  for (const [k, v] of Object.entries(changes)) {
    if (v === null || v === undefined) delete next[k];
    else next[k] = v;
  }
  return next;
}

function parseFields(text: string): Record<string, unknown> {
  try {
    const v = JSON.parse(text) as unknown;
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function sameSegments(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((s, i) => s === b[i]);
}

/** 409 LOCATION_MISMATCH when an upload form's `path` field names another asset than its URL. */
function assertFormPath(path: string | undefined, target: UploadTarget): void {
  if (path !== undefined && !sameSegments(splitPath(path), target.segments)) {
    throw conflict('LOCATION_MISMATCH', `The form's path "${path}" is not the URL's ${target.segments.join('/')}.`);
  }
}

/** True for errors of the local file system or network (disk full, permissions), which are the server's. */
function isSystemError(err: unknown): boolean {
  return typeof (err as { syscall?: unknown } | null)?.syscall === 'string';
}

/**
 * The asset library: binary uploads and downloads, metadata, non-binary assets, listings, where-used and
 * workflow. Blobs are written before the transaction that records them and deleted after the transaction that
 * forgets them commits, so a failure never leaves an asset without its blob; a blob without an asset is deleted
 * on every failure path.
 */
export function createAssetsService(ctx: AppContext) {
  const { config, blobs } = ctx;

  async function deleteBlobs(keys: readonly (string | null | undefined)[]): Promise<void> {
    for (const key of keys) {
      if (!key) continue;
      await blobs.delete(key).catch((err: unknown) => ctx.log.warn({ err, key }, 'could not delete blob'));
    }
  }

  /** Runs `fn` in a transaction, again when a concurrent writer won a race that a new attempt resolves. */
  async function transaction<T>(fn: (trx: Kysely<DB>) => Promise<T>, retryOn: readonly string[]): Promise<T> {
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
  function targetOf(segments: readonly string[]): UploadTarget {
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
  async function findAsset(db: Kysely<DB>, segments: readonly string[], lock = false) {
    if (segments[0] !== ASSET_LIBRARY || segments.length < 2) throw assetNotFound(segments);
    const { chain } = await treeRepository.resolve(db, segments);
    const node = chain[chain.length - 1];
    if (chain.length !== segments.length || node?.kind !== 'asset') throw assetNotFound(segments);
    const row = await repo.find(db, node.id, lock);
    if (!row) throw assetNotFound(segments);
    return { chain, row };
  }

  /** The asset folder (or the library) at `segments` with its chain; 404 when there is none. */
  async function findFolder(db: Kysely<DB>, segments: readonly string[]) {
    const segs = segments.length ? segments : [ASSET_LIBRARY];
    if (segs[0] !== ASSET_LIBRARY) throw folderNotFound(segs);
    const { chain } = await treeRepository.resolve(db, segs);
    const node = chain[chain.length - 1];
    if (chain.length !== segs.length || (node?.kind !== 'folder' && node?.kind !== 'library')) {
      throw folderNotFound(segs);
    }
    return { chain, node, path: segs.join('/') };
  }

  function represent(row: AssetRow, folder: readonly string[]): AssetRepresentation {
    const meta = presentAsset(row, folder.join('/'));
    return { meta, ...serialiseAsset(meta) };
  }

  /** Checks before a create: what exists on the way must be folders; the caller must be allowed to write there. */
  function assertCreatable(actor: Actor, chain: readonly NodeRow[], segments: readonly string[]) {
    for (const node of chain.slice(1)) {
      if (node.kind !== 'folder')
        throw conflict('NAME_TAKEN', `"${node.name}" in ${segments.join('/')} is not a folder.`);
    }
    requireAccess(actor, chain, 'WRITE', `the asset folder ${segments.slice(0, -1).join('/')}`);
  }

  // ── Binary upload ──────────────────────────────────────────────────────────────────────────────────────

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
      const info = await blobs.put(inspector, { maxBytes: config.maxUploadBytes });
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
      `The file is larger than the limit of ${config.maxUploadBytes.toLocaleString('en')} bytes.`,
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
      described = await describeFile(target, stored, type);
      const { image, file, thumbnail, thumbKey } = described;
      return await transaction(
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
          });
          return represent((await repo.find(trx, id))!, target.folder);
        },
        ['NAME_TAKEN'],
      );
    } catch (err) {
      await deleteBlobs([described?.thumbKey]);
      throw err;
    }
  }

  /**
   * What the asset rows say about a stored file: an image's size from its header (pixel bombs refused before
   * decoding) and its thumbnail, stored as a blob of its own (the caller deletes `thumbKey` if it fails later);
   * a file's extension, size and type.
   */
  async function describeFile(target: UploadTarget, stored: StoredUpload, type: string): Promise<DescribedFile> {
    const { sniffed } = stored;
    if (type !== BINARY_ASSET_TYPE_BY_UPLOAD.image) {
      const ext = sniffed.ext ?? extensionOf(target.name);
      return {
        file: { filename: target.name, extension: ext ? `.${ext}` : '', size: stored.size, type: sniffed.mime },
        thumbKey: null,
      };
    }
    const { size, thumb } = await blobs.withLocalFile(stored.key, async (path) => {
      const size = await probeImage(path, sniffed.mime, config.maxImagePixels);
      return { size, thumb: await makeThumbnail(path, size.format, config.thumbnailSize, config.maxImagePixels) };
    });
    const thumbBlob = await blobs.put(Readable.from([thumb.data]));
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

  // ── Binary replace ─────────────────────────────────────────────────────────────────────────────────────

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
   * Public asset to Quick Edit, checked out to the caller. The old file and thumbnail are deleted after the commit;
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
    let replaced: (string | null)[] = [];
    try {
      described = await describeFile(target, stored, target.type);
      const { image, file, thumbnail, thumbKey } = described;
      const rep = await ctx.db.transaction().execute(async (trx) => {
        const { chain, row } = await findAsset(trx, target.segments, true);
        requireAccess(actor, chain, 'WRITE', target.segments.join('/'));
        assertIfMatch(opts.ifMatch, represent(row, target.folder).etag);
        if (row.type !== target.type || !row.blob_key) {
          throw conflict('TYPE_MISMATCH', `${target.segments.join('/')} changed type while its file was sent.`);
        }
        const workflow = nextWorkflow(row, { contentChanged: true }, actor);
        await repo.update(
          trx,
          row.id,
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
          },
          isoTime(ctx.now()),
        );
        replaced = [row.blob_key, row.thumb_blob_key];
        return represent((await repo.find(trx, row.id))!, target.folder);
      });
      await deleteBlobs(replaced);
      return rep;
    } catch (err) {
      await deleteBlobs([described?.thumbKey]);
      throw err;
    }
  }

  /** Deletes the blob of an upload that did not become an asset. */
  async function discardUpload(stored: StoredUpload | null | undefined): Promise<void> {
    await deleteBlobs([stored?.key]);
  }

  // ── Binary download ────────────────────────────────────────────────────────────────────────────────────

  /**
   * The file of the asset at `segments`, or the thumbnail when the last segment is `thumb_<name>` of an image
   * asset (an asset really named so wins). Honours Range (206/416), If-Range and If-None-Match (304).
   */
  async function download(
    actor: Actor,
    segments: readonly string[],
    req: { head: boolean; range?: string; ifRange?: string; ifNoneMatch?: string },
  ): Promise<BinaryDownload> {
    const target = (() => {
      if (segments[0] !== ASSET_LIBRARY || segments.length < 2) throw assetNotFound(segments);
      return targetOf(segments);
    })();
    const { chain } = await treeRepository.resolve(ctx.db, target.segments);
    let blob: { key: string; size: number; type: string; sha256: string } | null = null;
    let accessChain: NodeRow[] = chain;
    const last = chain[chain.length - 1];
    if (chain.length === target.segments.length && last?.kind === 'asset') {
      const row = await repo.find(ctx.db, last.id);
      if (!row) throw assetNotFound(segments);
      if (!row.blob_key || row.size === null || !row.sha256) {
        throw notFound('ASSET_NOT_FOUND', `${segments.join('/')} is a ${row.type} asset, which has no file.`);
      }
      blob = {
        key: row.blob_key,
        size: row.size,
        type: row.content_type ?? 'application/octet-stream',
        sha256: row.sha256,
      };
    } else if (chain.length === target.segments.length - 1 && target.name.startsWith(THUMBNAIL_PREFIX)) {
      const folder = chain[chain.length - 1]!;
      const node = await treeRepository.findChild(ctx.db, folder.id, target.name.slice(THUMBNAIL_PREFIX.length));
      const row = node?.kind === 'asset' ? await repo.find(ctx.db, node.id) : undefined;
      const thumb = row?.thumbnail
        ? (JSON.parse(row.thumbnail) as { size?: number; type?: string; sha256?: string })
        : null;
      if (row?.thumb_blob_key && thumb?.sha256 && typeof thumb.size === 'number') {
        blob = { key: row.thumb_blob_key, size: thumb.size, type: thumb.type ?? 'image/png', sha256: thumb.sha256 };
        accessChain = [...chain, node!];
      }
    }
    if (!blob) throw assetNotFound(segments);
    requireAccess(actor, accessChain, 'READ', target.segments.join('/'));

    const etag = `"${blob.sha256}"`;
    const headers: Record<string, string | number> = {
      'content-type': blob.type,
      'content-disposition': attachmentDisposition(target.segments.slice(1).join('/')),
      'content-security-policy': DOWNLOAD_CSP,
      'x-content-type-options': 'nosniff',
      'accept-ranges': 'bytes',
      etag,
    };
    if (ifNoneMatchHits(req.ifNoneMatch, etag)) return { status: 304, headers, body: null };
    const range = ifRangeAllows(req.ifRange, etag) ? parseRange(req.range, blob.size) : null;
    if (range === 'unsatisfiable') {
      return { status: 416, headers: { ...headers, 'content-range': `bytes */${blob.size}` }, body: null };
    }
    const open = async (r?: { start: number; end: number }) => {
      if (req.head) return Readable.from([]);
      try {
        return await blobs.get(blob.key, r);
      } catch (err) {
        if ((err as { code?: string }).code === 'ENOENT') throw assetNotFound(segments); // deleted meanwhile
        throw err;
      }
    };
    if (range) {
      return {
        status: 206,
        headers: {
          ...headers,
          'content-length': range.end - range.start + 1,
          'content-range': `bytes ${range.start}-${range.end}/${blob.size}`,
        },
        body: await open(range),
      };
    }
    return { status: 200, headers: { ...headers, 'content-length': blob.size }, body: await open() };
  }

  // ── Metadata, non-binary assets ────────────────────────────────────────────────────────────────────────

  async function get(actor: Actor, segments: readonly string[]): Promise<AssetRepresentation> {
    const { chain, row } = await findAsset(ctx.db, segments);
    requireAccess(actor, chain, 'READ', segments.join('/'));
    return represent(row, segments.slice(0, -1));
  }

  /** 400 listing each invalid field (unknown keys, formats, required ones missing or unset). */
  function assertFields(type: string, fields: Record<string, unknown>, creating: boolean): void {
    const def = assetTypeDef(type)!;
    const errors: FieldError[] = validateFields(def.fields, fields, creating).map((p) => ({
      path: `fields.${p.key}`,
      message: p.message,
    }));
    if (!creating) {
      for (const f of def.fields) {
        const v = fields[f.key];
        if (f.required && f.key in fields && (v === null || v === '')) {
          errors.push({ path: `fields.${f.key}`, message: 'is required and cannot be unset' });
        }
      }
    }
    if (errors.length) throw badRequest(`The fields are not valid for ${type}.`, errors);
  }

  /**
   * PUT on an asset path: updates the asset there (only the fields sent; `workflow.state` walks the Default
   * Workflow), or creates a non-binary asset when nothing is there (folders created on the way).
   */
  async function put(
    actor: Actor,
    segments: readonly string[],
    body: AssetPutBody,
    pre: Preconditions = {},
  ): Promise<AssetRepresentation & { created: boolean }> {
    const target = targetOf(segments);
    if (body.name !== undefined && body.name !== target.name) {
      throw conflict('LOCATION_MISMATCH', `name "${body.name}" is not the URL's "${target.name}".`);
    }
    if (body.folderPath !== undefined && !sameSegments(splitPath(body.folderPath), target.folder)) {
      throw conflict(
        'LOCATION_MISMATCH',
        `folderPath "${body.folderPath}" is not the URL's "${target.folder.join('/')}".`,
      );
    }
    if (body.type !== undefined && !assetTypeDef(body.type)) {
      throw badRequest(`Unknown asset type "${body.type}".`, [{ path: 'type', message: 'is not an asset type' }]);
    }
    const fields = body.fields ?? {};
    const targetState = body.workflow?.state as WorkflowState | undefined;

    return transaction(
      async (trx) => {
        const now = ctx.now();
        const at = isoTime(now);
        const { chain } = await treeRepository.resolve(trx, target.segments);
        const last = chain[chain.length - 1];
        if (chain.length === target.segments.length && last?.kind !== 'asset') {
          throw conflict('NAME_TAKEN', `${target.segments.join('/')} is a folder, not an asset.`);
        }

        if (chain.length === target.segments.length) {
          // Update.
          const row =
            (await repo.find(trx, last!.id, true)) ??
            (() => {
              throw assetNotFound(segments);
            })();
          requireAccess(actor, chain, 'WRITE', target.segments.join('/'));
          assertPreconditions(pre, represent(row, target.folder).etag, target.segments.join('/'));
          if (body.id !== undefined && body.id !== row.id) {
            throw conflict('ID_MISMATCH', `id "${body.id}" is not the id of the asset at the URL (${row.id}).`);
          }
          if (body.type !== undefined && body.type !== row.type) {
            throw conflict('TYPE_MISMATCH', `The asset is a ${row.type}; its type cannot change to ${body.type}.`);
          }
          assertFields(row.type, fields, false);
          const before = parseFields(row.fields);
          const stored = mergeFields(before, fields);
          const contentChanged = JSON.stringify(stored) !== JSON.stringify(before);
          const workflow = nextWorkflow(
            row,
            { contentChanged, target: targetState, checkedOut: body.workflow?.checkedOut },
            actor,
          );
          const workflowChanged =
            workflow.workflow_state !== row.workflow_state ||
            workflow.checked_out !== row.checked_out ||
            workflow.checked_out_user !== row.checked_out_user;
          if (contentChanged || workflowChanged) {
            await repo.update(
              trx,
              row.id,
              { fields: JSON.stringify(stored), search_text: assetSearchText(row.name, stored), ...workflow },
              at,
            );
          }
          return { ...represent((await repo.find(trx, row.id))!, target.folder), created: false };
        }

        // Create.
        assertPreconditions(pre, null);
        assertCreatable(actor, chain, target.segments);
        if (body.id !== undefined) {
          throw conflict('ID_MISMATCH', `Nothing is at ${target.segments.join('/')}, so an id cannot be sent.`);
        }
        if (body.type === undefined) {
          throw badRequest('A new asset needs its type.', [
            { path: 'type', message: 'is required to create an asset' },
          ]);
        }
        const def = assetTypeDef(body.type)!;
        if (def.binary) {
          throw badRequest(`${body.type} assets are created by uploading their file.`, [
            { path: 'type', message: `upload the file with POST /cms/rest/assets/binary/${target.segments.join('/')}` },
          ]);
        }
        assertFields(body.type, fields, true);
        const workflow = nextWorkflow(
          { workflow_state: 'Draft', checked_out: 1, checked_out_user: actor.username },
          { contentChanged: false, target: targetState, checkedOut: body.workflow?.checkedOut },
          actor,
        );
        const folderChain = await ensureAssetFolder(trx, target.folder, now);
        requireAccess(actor, folderChain, 'WRITE', `the asset folder ${target.folder.join('/')}`);
        const id = await insertAssetRecord(trx, {
          folderId: folderChain[folderChain.length - 1]!.id,
          name: target.name,
          type: body.type,
          fields: mergeFields({}, fields),
          actor,
          now,
        });
        if (workflow.workflow_state !== 'Draft' || workflow.checked_out !== 1) await repo.update(trx, id, workflow, at);
        return { ...represent((await repo.find(trx, id))!, target.folder), created: true };
      },
      // A concurrent creator of the folder or of the asset itself: the next attempt finds it and goes on.
      ['NAME_TAKEN', 'ASSET_ALREADY_EXISTS'],
    );
  }

  /** Where the asset is linked from: page regions, by page path. */
  async function usageOf(db: Kysely<DB>, assetId: string) {
    const rows = await repo.usage(db, assetId);
    const paths = await treeRepository.pathsOf(
      db,
      rows.map((r) => r.page_id),
    );
    return rows
      .map((r) => {
        const segs = paths.get(r.page_id) ?? [];
        return {
          path: segs.join('/'),
          displayName: r.display_name ?? segs[segs.length - 1] ?? '',
          region: r.region,
          href: pageHref(segs),
        };
      })
      .sort((a, b) => (a.path === b.path ? a.region.localeCompare(b.region) : a.path < b.path ? -1 : 1));
  }

  async function usage(actor: Actor, segments: readonly string[]): Promise<AssetUsage> {
    const { chain, row } = await findAsset(ctx.db, segments);
    requireAccess(actor, chain, 'READ', segments.join('/'));
    return { asset: segments.join('/'), usedBy: await usageOf(ctx.db, row.id) };
  }

  /**
   * Deletes an asset: 409 ASSET_IN_USE naming the pages that link it unless `force`, which removes those links
   * in the same transaction. The file and thumbnail go after the commit.
   */
  async function remove(actor: Actor, segments: readonly string[], opts: { force: boolean; ifMatch?: string }) {
    let keys: (string | null)[] = [];
    try {
      await ctx.db.transaction().execute(async (trx) => {
        const { chain, row } = await findAsset(trx, segments, true);
        requireAccess(actor, chain, 'WRITE', segments.join('/'));
        assertIfMatch(opts.ifMatch, represent(row, segments.slice(0, -1)).etag);
        const usedBy = await usageOf(trx, row.id);
        if (usedBy.length && !opts.force) {
          throw conflict(
            'ASSET_IN_USE',
            `${segments.join('/')} is used on ${usedBy.length} page region(s); remove those links first, or send force=true.`,
            { usedBy },
          );
        }
        if (usedBy.length) await repo.unlink(trx, row.id, isoTime(ctx.now()), actor.username);
        await repo.delete(trx, row.id);
        keys = [row.blob_key, row.thumb_blob_key];
      });
    } catch (err) {
      // A page linked the asset between the check and the delete.
      if (isForeignKeyViolation(err)) {
        throw conflict('ASSET_IN_USE', `${segments.join('/')} was just linked from a page; try again.`);
      }
      throw err;
    }
    await deleteBlobs(keys);
  }

  // ── Workflow ───────────────────────────────────────────────────────────────────────────────────────────

  async function transitions(actor: Actor, segments: readonly string[]): Promise<TransitionsResponse> {
    const { chain, row } = await findAsset(ctx.db, segments);
    requireAccess(actor, chain, 'READ', segments.join('/'));
    const canWrite = effectiveAccess(actor, chain) !== 'READ';
    return {
      state: row.workflow_state,
      transitions: canWrite
        ? availableTransitions(row.workflow_state, actor).map((t) => ({ name: t.name, to: t.to }))
        : [],
    };
  }

  /**
   * Takes one transition on every asset of a folder and its subfolders where it applies, as the pages' bulk
   * actions do (approve-all leaves archived assets archived: approve those one by one). Assets in subfolders the
   * caller may only read, or in another state, are skipped and counted.
   */
  async function bulk(actor: Actor, segments: readonly string[], action: AssetBulkAction): Promise<AssetBulkResult> {
    const { chain, node, path } = await findFolder(ctx.db, segments);
    requireAccess(actor, chain, 'WRITE', path);
    const transition = TRANSITIONS.find((t) => t.name === BULK_TRANSITION[action])!;
    if (!roleAtLeast(actor.role, transition.minRole)) {
      throw forbidden(`${transition.name} needs the ${transition.minRole} role or higher.`);
    }
    const from = new Set<string>(transition.from.filter((s) => !(action === 'approve-all' && s === 'Archive')));
    return ctx.db.transaction().execute(async (trx) => {
      const folders = await repo.folderSubtree(trx, node.id);
      // Folders below may cap access further (non-admins): a READ folder and everything in it is skipped.
      const writable = new Set<string>();
      for (const f of folders) {
        const parentOk = f.id === node.id || (f.parent_id !== null && writable.has(f.parent_id));
        const capped = actor.role !== 'Admin' && f.id !== node.id && f.access_level === 'READ';
        if (parentOk && !capped) writable.add(f.id);
      }
      const assets = await repo.assetsIn(
        trx,
        folders.map((f) => f.id),
      );
      const moving = assets.filter((a) => writable.has(a.parent_id) && from.has(a.workflow_state));
      await repo.setStates(
        trx,
        moving.map((a) => a.id),
        {
          workflow_state: transition.to,
          ...(transition.to === 'Public' ? { checked_out: 0, checked_out_user: '' } : {}),
        },
        isoTime(ctx.now()),
      );
      const changed = moving.length;
      return {
        message: `${BULK_VERB[action]} ${changed} asset${changed === 1 ? '' : 's'}`,
        changed,
        skipped: assets.length - changed,
      };
    });
  }

  // ── Listing ────────────────────────────────────────────────────────────────────────────────────────────

  function encodeCursor(q: AssetListQuery, pos: ListPosition): string {
    const c = { s: q.sort, o: q.order, v: pos.value, i: pos.id, ...(pos.name !== undefined ? { n: pos.name } : {}) };
    return Buffer.from(JSON.stringify(c)).toString('base64url');
  }

  function decodeCursor(q: AssetListQuery): ListPosition | null {
    if (!q.cursor) return null;
    const bad = () =>
      badRequest(
        'The cursor is not valid for this listing.',
        [{ path: 'query.cursor', message: 'is not a nextCursor of this sort and order' }],
        'INVALID_PARAMETER',
      );
    let c: { s?: unknown; o?: unknown; v?: unknown; i?: unknown; n?: unknown };
    try {
      c = JSON.parse(Buffer.from(q.cursor, 'base64url').toString('utf8')) as typeof c;
    } catch {
      throw bad();
    }
    if (c?.s !== q.sort || c.o !== q.order || typeof c.v !== 'string' || typeof c.i !== 'string') throw bad();
    const byName = q.sort === 'name' || q.sort === 'lastModifiedDate';
    if (!byName && typeof c.n !== 'string') throw bad();
    if (q.sort === 'size' && !/^-?\d{1,15}$/.test(c.v)) throw bad();
    return { value: c.v, id: c.i, ...(byName ? {} : { name: c.n as string }) };
  }

  /** A page of the assets of a folder (or its subtree), by keyset: every page costs the same. */
  async function list(actor: Actor, segments: readonly string[], q: AssetListQuery): Promise<AssetList> {
    const { chain, node, path } = await findFolder(ctx.db, segments);
    requireAccess(actor, chain, 'READ', path);
    const after = decodeCursor(q);
    const text = q.q?.trim().toLowerCase();
    const filter: ListFilter = {
      folderId: node.id,
      folderPath: path,
      recursive: q.recursive,
      q: text || undefined,
      type: q.type,
      state: q.state,
      missingAltText: q.missingAltText,
      sort: q.sort,
      order: q.order,
    };
    const rows = await repo.listPage(ctx.db, filter, after, q.limit + 1);
    const total = await repo.listCount(ctx.db, filter);
    const page = rows.slice(0, q.limit);
    const lastRow = page[page.length - 1];
    const nextCursor =
      rows.length > q.limit && lastRow
        ? encodeCursor(q, {
            value: sortValueOf(lastRow, q.sort),
            id: lastRow.id,
            ...(q.sort === 'name' || q.sort === 'lastModifiedDate' ? {} : { name: lastRow.name }),
          })
        : null;
    return { items: page.map((r) => presentAsset(r, r.folder_path)), nextCursor, total };
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
  };
}
export type AssetsService = ReturnType<typeof createAssetsService>;
