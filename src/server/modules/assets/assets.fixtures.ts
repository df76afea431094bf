/** Test helpers of the asset module: real files made on the fly, multipart bodies, upload shortcuts. */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import type { LightMyRequestResponse } from 'fastify';
import sharp from 'sharp';
import { expect } from 'vitest';
import { AssetMetadata } from '../../../shared/api/assets.js';
import { nextId } from '../../db/dialect.js';
import { ROOT_NODE_ID } from '../../db/structure.js';
import { isoTime, SYSTEM_ACTOR } from '../../lib/context.js';
import type { TestApp } from '../../test/harness.js';
import { insertPageRecord } from '../pages/page-records.js';

export type Part =
  { name: string; value: string } | { name: string; filename: string; content: Buffer; contentType?: string };

/** A multipart/form-data body with the parts in the order given. */
export function multipart(parts: readonly Part[]): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----folio${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    chunks.push(Buffer.from(`--${boundary}\r\n`));
    if ('value' in p) {
      chunks.push(Buffer.from(`Content-Disposition: form-data; name="${p.name}"\r\n\r\n${p.value}\r\n`));
    } else {
      chunks.push(
        Buffer.from(
          `Content-Disposition: form-data; name="${p.name}"; filename="${p.filename}"\r\n` +
            `Content-Type: ${p.contentType ?? 'application/octet-stream'}\r\n\r\n`,
        ),
        p.content,
        Buffer.from('\r\n'),
      );
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** A solid-colour raster image of the given format, made with sharp. */
export async function image(
  format: 'png' | 'jpeg' | 'gif' | 'webp' | 'avif' | 'tiff',
  width = 640,
  height = 480,
): Promise<Buffer> {
  const base = sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 90 } } });
  return base.toFormat(format).toBuffer();
}

/** A JPEG whose EXIF orientation (6: rotate 90°) makes it display as `height` × `width`. */
export async function rotatedJpeg(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#3366cc' } })
    .jpeg()
    .withMetadata({ orientation: 6 })
    .toBuffer();
}

/**
 * A PNG whose header claims `width` × `height` pixels but whose data is a 1 × 1 image: the shape of a
 * decompression bomb (a real one would inflate to gigabytes; the header is all a decoder trusts up front).
 */
export async function pngBomb(width: number, height: number): Promise<Buffer> {
  const png = Buffer.from(await image('png', 1, 1));
  // Signature (8) · IHDR length (4) · "IHDR" (4) · width (4) · height (4) · … · CRC over type + 13 data bytes.
  png.writeUInt32BE(width, 16);
  png.writeUInt32BE(height, 20);
  png.writeUInt32BE(crc32(png.subarray(12, 29)), 29);
  return png;
}

/** A small, valid one-page PDF written by hand. */
export function pdf(): Buffer {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(body.length);
    body += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const off of offsets) body += `${String(off).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

/** A ZIP archive holding one stored (uncompressed) file, written by hand. */
export function zip(name = 'hello.txt', content = 'Hello from a ZIP archive.\n'): Buffer {
  const data = Buffer.from(content);
  const fileName = Buffer.from(name);
  const crc = crc32(data);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt32LE(crc, 14);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(data.length, 22);
  local.writeUInt16LE(fileName.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt32LE(crc, 16);
  central.writeUInt32LE(data.length, 20);
  central.writeUInt32LE(data.length, 24);
  central.writeUInt16LE(fileName.length, 28);
  const centralOffset = local.length + fileName.length + data.length;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + fileName.length, 12);
  end.writeUInt32LE(centralOffset, 16);
  return Buffer.concat([local, fileName, data, central, fileName, end]);
}

export const SVG_PLAIN = Buffer.from(
  '<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">' +
    '<rect width="10" height="10" fill="teal"/></svg>\n',
);
export const SVG_SCRIPT = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.cookie)</script><circle r="4"/></svg>',
);
export const SVG_HANDLER = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><rect onload="alert(1)"/></svg>');
export const HTML_PAGE = Buffer.from('<!DOCTYPE html>\n<html><body><script>alert(1)</script></body></html>\n');

export interface UploadOptions {
  filename?: string;
  contentType?: string;
  /** The `path` form field (sent before the file unless `fieldsAfterFile`). */
  pathField?: string;
  assetType?: string;
  query?: string;
  fieldsAfterFile?: boolean;
  authorization?: string;
}

/** POSTs a file to `/cms/rest/assets/binary/<assetPath>` (segments percent-encoded). */
export function upload(t: TestApp, assetPath: string, content: Buffer, o: UploadOptions = {}) {
  const fields: Part[] = [];
  if (o.pathField !== undefined) fields.push({ name: 'path', value: o.pathField });
  if (o.assetType !== undefined) fields.push({ name: 'assetType', value: o.assetType });
  const file: Part = {
    name: 'file',
    filename: o.filename ?? 'upload.bin',
    content,
    contentType: o.contentType ?? 'application/octet-stream',
  };
  const { payload, headers } = multipart(o.fieldsAfterFile ? [file, ...fields] : [...fields, file]);
  return t.request({
    method: 'POST',
    url: `/cms/rest/assets/binary/${encodePath(assetPath)}${o.query ? `?${o.query}` : ''}`,
    payload,
    headers: { ...headers, ...(o.authorization !== undefined ? { authorization: o.authorization } : {}) },
  });
}

/** Percent-encodes each segment of a path. */
export function encodePath(p: string): string {
  return p.split('/').map(encodeURIComponent).join('/');
}

/** The JSON of a metadata response, checked against the contract. */
export function metadataOf(res: LightMyRequestResponse): AssetMetadata {
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  return AssetMetadata.parse(res.json());
}

/** Every blob key in the app's store. */
export async function blobKeys(t: TestApp): Promise<string[]> {
  const keys: string[] = [];
  for await (const k of t.app.folio.ctx.blobs.keys()) keys.push(k);
  return keys;
}

/** Files left in the blob store's temp directory. */
export async function tempFiles(t: TestApp): Promise<string[]> {
  return fs.readdir(path.join(t.config.blobDir, 'tmp')).catch(() => []);
}

/** How many assets the database holds. */
export async function assetCount(t: TestApp): Promise<number> {
  const r = await t.app.folio.ctx.db
    .selectFrom('assets')
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** A page at `<site>/<page>` whose region links the asset (as the pages module stores a shared link). */
export async function linkAssetFromPage(t: TestApp, assetId: string, site: string, page: string, region = 'main') {
  const db = t.app.folio.ctx.db;
  await db.transaction().execute(async (trx) => {
    const now = Date.now();
    if (!(await trx.selectFrom('templates').select('name').where('name', '=', 'basic').executeTakeFirst())) {
      await trx
        .insertInto('templates')
        .values({
          name: 'basic',
          label: 'Basic',
          description: '',
          regions: JSON.stringify([{ name: 'main', editable: true, widgets: [] }]),
          created_at: isoTime(now),
          updated_at: isoTime(now),
        })
        .execute();
    }
    let siteNode = await trx
      .selectFrom('nodes')
      .select('id')
      .where('parent_id', '=', ROOT_NODE_ID)
      .where('name', '=', site)
      .executeTakeFirst();
    if (!siteNode) {
      siteNode = { id: await nextId(trx, 'folder') };
      await trx
        .insertInto('nodes')
        .values({
          id: siteNode.id,
          parent_id: ROOT_NODE_ID,
          kind: 'site',
          name: site,
          sort_order: 0,
          access_level: null,
          workflow: null,
          display_title: site,
          target_window: null,
          nav_class: null,
          template_name: 'basic',
          external_url: null,
          link_target_id: null,
          landing_page_id: null,
          created_at: isoTime(now),
          updated_at: isoTime(now),
        })
        .execute();
    }
    let pageNode = await trx
      .selectFrom('nodes')
      .select('id')
      .where('parent_id', '=', siteNode.id)
      .where('name', '=', page)
      .executeTakeFirst();
    if (!pageNode) {
      pageNode = {
        id: await insertPageRecord(trx, {
          parentId: siteNode.id,
          name: page,
          templateName: 'basic',
          actor: SYSTEM_ACTOR,
          now,
          displayName: `The ${page} page`,
        }),
      };
    }
    await trx
      .insertInto('widgets')
      .values({
        id: await nextId(trx, 'widget'),
        page_id: pageNode.id,
        region,
        position: 0,
        type: 'cmsImage',
        scope: 'local',
        editable: 1,
        fields: null,
        shared_asset_id: assetId,
      })
      .execute();
  });
}
