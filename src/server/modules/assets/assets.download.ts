import { Readable } from 'node:stream';
import { THUMBNAIL_PREFIX } from '../../../shared/api/assets.js';
import { ASSET_LIBRARY } from '../../../shared/api/paths.js';
import type { Actor, AppContext } from '../../lib/context.js';
import { notFound } from '../../lib/errors.js';
import { headerNamesEtag } from '../../lib/etag.js';
import { requireAccess } from '../tree/access.js';
import { treeRepository, type NodeRow } from '../tree/tree.repository.js';
import { assetNotFound, targetOf } from './assets.common.js';
import { assetsRepository as repo } from './assets.repository.js';
import { attachmentDisposition, DOWNLOAD_CSP, ifRangeAllows, parseRange } from './download.js';

/** A binary download (or its refusal as 304/416). `body` is null for HEAD, 304 and 416. */
export interface BinaryDownload {
  status: 200 | 206 | 304 | 416;
  headers: Record<string, string | number>;
  body: Readable | null;
}

/** Downloads of an asset's file or thumbnail. */
export function createAssetDownloads(ctx: AppContext) {
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
    if (headerNamesEtag(req.ifNoneMatch, etag)) return { status: 304, headers, body: null };
    const range = ifRangeAllows(req.ifRange, etag) ? parseRange(req.range, blob.size) : null;
    if (range === 'unsatisfiable') {
      return { status: 416, headers: { ...headers, 'content-range': `bytes */${blob.size}` }, body: null };
    }
    const open = async (r?: { start: number; end: number }) => {
      if (req.head) return Readable.from([]);
      try {
        return await ctx.blobs.get(blob.key, r);
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

  return { download };
}
