import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ADMIN, createTestApp, problemOf, type TestApp } from '../../test/harness.js';
import {
  assetCount,
  blobKeys,
  HTML_PAGE,
  image,
  metadataOf,
  multipart,
  pdf,
  pngBomb,
  rotatedJpeg,
  SVG_HANDLER,
  SVG_PLAIN,
  SVG_SCRIPT,
  tempFiles,
  upload,
  zip,
} from './assets.fixtures.js';
import { createAssetsService } from './assets.service.js';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});
afterEach(async () => {
  await t.close();
});

const get = (url: string, headers: Record<string, string> = {}) => t.request({ method: 'GET', url, headers });

/** Asserts that a refused upload left nothing: no asset, no blob, no temp file. */
async function expectNothingLeft() {
  expect(await assetCount(t)).toBe(0);
  expect(await blobKeys(t)).toEqual([]);
  expect(await tempFiles(t)).toEqual([]);
}

describe('binary upload: guards', () => {
  it('rejects unauthenticated', async () => {
    const res = await upload(t, 'Assets/a/x.png', await image('png'), { authorization: '' });
    expect(res.statusCode).toBe(401);
    expect(problemOf(res).code).toBe('UNAUTHENTICATED');
    await expectNothingLeft();
  });

  it('rejects an invalid body: not multipart, no file, a wrong part, a bad assetType', async () => {
    const json = await t.request({ method: 'POST', url: '/cms/rest/assets/binary/Assets/a/x.png', payload: { a: 1 } });
    expect(json.statusCode).toBe(415);
    expect(problemOf(json).code).toBe('UNSUPPORTED_MEDIA_TYPE');

    const noFile = multipart([{ name: 'path', value: 'Assets/a/x.png' }]);
    const r1 = await t.request({ method: 'POST', url: '/cms/rest/assets/binary/Assets/a/x.png', ...noFile });
    expect(r1.statusCode).toBe(400);
    expect(problemOf(r1).errors).toEqual([{ path: 'file', message: 'is required' }]);

    const wrongPart = multipart([{ name: 'upload', filename: 'x.png', content: await image('png') }]);
    const r2 = await t.request({ method: 'POST', url: '/cms/rest/assets/binary/Assets/a/x.png', ...wrongPart });
    expect(r2.statusCode).toBe(400);
    expect(problemOf(r2).errors?.[0]?.path).toBe('upload');

    const r3 = await upload(t, 'Assets/a/x.png', await image('png'), { assetType: 'video' });
    expect(r3.statusCode).toBe(400);
    expect(problemOf(r3).errors?.[0]?.path).toBe('assetType');

    const r4 = await upload(t, 'Assets/a/x.png', await image('png'), { query: 'assetType=video' });
    expect(r4.statusCode).toBe(400);
    expect(problemOf(r4).code).toBe('INVALID_PARAMETER');

    const outside = await upload(t, 'Sites/x.png', await image('png'));
    expect(outside.statusCode).toBe(400);
    const bare = await upload(t, 'Assets', await image('png'));
    expect(bare.statusCode).toBe(400);
    await expectNothingLeft();
  });

  it('takes multipart bodies on the upload route only: elsewhere they are 415 and store nothing', async () => {
    const form = multipart([{ name: 'file', filename: 'x.png', content: await image('png') }]);
    for (const [method, url] of [
      ['PUT', '/cms/rest/assets/by-path/Assets/a/x.png'],
      ['POST', '/cms/rest/assets/approve-all/Assets'],
    ] as const) {
      const res = await t.request({ method, url, ...form });
      expect(res.statusCode, url).toBe(415);
      expect(problemOf(res).code).toBe('UNSUPPORTED_MEDIA_TYPE');
    }
    await expectNothingLeft();
    expect((await upload(t, 'Assets/a/x.png', await image('png'))).statusCode).toBe(201);
  });

  it('refuses a truncated multipart body and an empty request body with 400', async () => {
    const { payload, headers } = multipart([{ name: 'file', filename: 'a.pdf', content: pdf() }]);
    const cut = await t.request({
      method: 'POST',
      url: '/cms/rest/assets/binary/Assets/a/cut.pdf',
      payload: payload.subarray(0, payload.length - 60),
      headers,
    });
    expect(cut.statusCode).toBe(400);
    const empty = await t.request({
      method: 'POST',
      url: '/cms/rest/assets/binary/Assets/a/empty.pdf',
      payload: '',
      headers,
    });
    expect(empty.statusCode).toBe(400);
    expect(problemOf(empty).errors).toEqual([{ path: 'file', message: 'is required' }]);
    await expectNothingLeft();
  });

  it('refuses a 0-byte file with 400 and keeps nothing', async () => {
    for (const name of ['empty.txt', 'empty.png']) {
      const res = await upload(t, `Assets/a/${name}`, Buffer.alloc(0), { filename: name });
      expect(res.statusCode, name).toBe(400);
      expect(problemOf(res).errors).toEqual([{ path: 'file', message: 'is empty (0 bytes)' }]);
    }
    await expectNothingLeft();
  });

  it('checks the path field against the URL (409 LOCATION_MISMATCH), wherever the field comes in the form', async () => {
    const ok = await upload(t, 'Assets/a/x.pdf', pdf(), { pathField: '/Assets/a/x.pdf', fieldsAfterFile: true });
    expect(ok.statusCode).toBe(201);
    for (const fieldsAfterFile of [false, true]) {
      const res = await upload(t, 'Assets/a/y.pdf', pdf(), { pathField: 'Assets/b/y.pdf', fieldsAfterFile });
      expect(res.statusCode).toBe(409);
      expect(problemOf(res).code).toBe('LOCATION_MISMATCH');
    }
    expect(await assetCount(t)).toBe(1);
    expect(await blobKeys(t)).toHaveLength(1);
  });

  it('lets viewers read but not upload; folder access levels cap writers', async () => {
    const viewer = await t.createUser('vera', 'Viewer');
    const res = await upload(t, 'Assets/a/x.pdf', pdf(), { authorization: viewer });
    expect(res.statusCode).toBe(403);
    expect(problemOf(res).code).toBe('NOT_AUTHORIZED');

    const contributor = await t.createUser('carl', 'Contributor');
    expect((await upload(t, 'Assets/locked/x.pdf', pdf(), { authorization: contributor })).statusCode).toBe(201);
    await t.app.folio.ctx.db.updateTable('nodes').set({ access_level: 'READ' }).where('name', '=', 'locked').execute();
    const capped = await upload(t, 'Assets/locked/sub/y.pdf', pdf(), { authorization: contributor });
    expect(capped.statusCode).toBe(403);
    expect((await upload(t, 'Assets/locked/sub/y.pdf', pdf())).statusCode).toBe(201); // admins are not capped
    expect((await get('/cms/rest/assets/binary/Assets/locked/x.pdf', { authorization: viewer })).statusCode).toBe(200);
  });
});

describe('binary upload: types from the bytes', () => {
  it('stores PNG, JPEG, GIF, WebP as images with size, dimensions and a thumbnail', async () => {
    for (const format of ['png', 'jpeg', 'gif', 'webp'] as const) {
      const bytes = await image(format, 640, 480);
      const ext = format === 'jpeg' ? 'jpg' : format;
      const name = `photo-${format}.${ext}`;
      const res = await upload(t, `Assets/images/${name}`, bytes, {
        filename: 'ignored.bin',
        contentType: 'text/plain',
      });
      expect(res.statusCode, format).toBe(201);
      expect(res.headers.location).toBe(`/cms/rest/assets/by-path/Assets/images/${name}`);
      const meta = metadataOf(res);
      expect(meta).toMatchObject({
        name,
        type: 'cmsImageAsset',
        folderPath: 'Assets/images',
        fields: { displaytitle: name, filename: name, resource_link_title: null, alttext: null },
        workflow: { name: 'Default Workflow', state: 'Draft', checkedOut: false, checkedOutUser: '' },
        image: { filename: name, extension: ext, size: bytes.length, type: `image/${format}`, width: 640, height: 480 },
        thumbnail: { filename: `thumb_${name}`, width: 300, height: 225 },
      });
      expect(meta.file).toBeUndefined();
      expect(meta.createdDate).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+0000$/);

      const thumb = await get(`/cms/rest/assets/binary/Assets/images/thumb_${name}`);
      expect(thumb.statusCode).toBe(200);
      expect(thumb.headers['content-type']).toBe(meta.thumbnail!.type);
      expect(Number(thumb.headers['content-length'])).toBe(meta.thumbnail!.size);
      const dims = await sharp(thumb.rawPayload).metadata();
      expect([dims.width, dims.height]).toEqual([300, 225]);
    }
    expect(await blobKeys(t)).toHaveLength(8);
  });

  it('never enlarges a small image for its thumbnail, and follows CMS_THUMBNAIL_SIZE', async () => {
    const small = metadataOf(await upload(t, 'Assets/i/small.png', await image('png', 40, 20)));
    expect(small.thumbnail).toMatchObject({ width: 40, height: 20, extension: 'png', type: 'image/png' });
    const t2 = await createTestApp({ CMS_THUMBNAIL_SIZE: '64' });
    try {
      const meta = metadataOf(await upload(t2, 'Assets/i/tall.webp', await image('webp', 100, 400)));
      expect(meta.thumbnail).toMatchObject({ width: 16, height: 64, type: 'image/webp' });
    } finally {
      await t2.close();
    }
  });

  it('reports the dimensions people see for a JPEG rotated by EXIF', async () => {
    const meta = metadataOf(await upload(t, 'Assets/i/portrait.jpg', await rotatedJpeg(400, 200)));
    expect(meta.image).toMatchObject({ width: 200, height: 400 });
    expect(meta.thumbnail).toMatchObject({ width: 150, height: 300 });
  });

  it('stores PDF, ZIP and plain text as files, with a dotted extension', async () => {
    const p = metadataOf(await upload(t, 'Assets/docs/report.pdf', pdf()));
    expect(p).toMatchObject({
      type: 'cmsFileAsset',
      file: { filename: 'report.pdf', extension: '.pdf', type: 'application/pdf' },
    });
    expect(p.image).toBeUndefined();
    expect(p.thumbnail).toBeUndefined();
    const z = metadataOf(await upload(t, 'Assets/docs/archive.zip', zip()));
    expect(z.file).toMatchObject({ extension: '.zip', type: 'application/zip', size: zip().length });
    const txt = metadataOf(await upload(t, 'Assets/docs/notes.csv', Buffer.from('a,b\n1,2\n')));
    expect(txt.file).toMatchObject({ extension: '.csv', type: 'text/csv', size: 8 });
    const bin = metadataOf(await upload(t, 'Assets/docs/blob', Buffer.from([0, 1, 2, 3, 255, 0, 7])));
    expect(bin.file).toMatchObject({ extension: '', type: 'application/octet-stream' });
  });

  it('stores Flash as cmsFlashAsset and lets assetType override the sniffed type', async () => {
    const swf = Buffer.concat([Buffer.from('FWS', 'latin1'), Buffer.from([10, 40, 0, 0, 0]), Buffer.alloc(32)]);
    expect(metadataOf(await upload(t, 'Assets/f/movie.swf', swf)).type).toBe('cmsFlashAsset');
    const asFile = metadataOf(await upload(t, 'Assets/f/pic.png', await image('png'), { assetType: 'file' }));
    expect(asFile).toMatchObject({ type: 'cmsFileAsset', file: { extension: '.png', type: 'image/png' } });
    expect(asFile.thumbnail).toBeUndefined();
    const viaQuery = metadataOf(await upload(t, 'Assets/f/doc.pdf', pdf(), { query: 'assetType=flash' }));
    expect(viaQuery.type).toBe('cmsFlashAsset');
    const notAnImage = await upload(t, 'Assets/f/doc2.pdf', pdf(), { assetType: 'image' });
    expect(notAnImage.statusCode).toBe(415);
    const clash = await upload(t, 'Assets/f/doc3.pdf', pdf(), { assetType: 'file', query: 'assetType=flash' });
    expect(clash.statusCode).toBe(400);
    expect(await assetCount(t)).toBe(3);
  });

  it('trusts the bytes over a harmless but wrong extension', async () => {
    const png = metadataOf(await upload(t, 'Assets/s/actually-png.pdf', await image('png', 30, 30)));
    expect(png).toMatchObject({ type: 'cmsImageAsset', image: { extension: 'png', type: 'image/png' } });
    const doc = metadataOf(await upload(t, 'Assets/s/actually-pdf.png', pdf()));
    expect(doc).toMatchObject({ type: 'cmsFileAsset', file: { extension: '.pdf', type: 'application/pdf' } });
  });

  it('refuses markup disguised under another extension (415) and keeps nothing', async () => {
    const cases: [string, Buffer][] = [
      ['page.png', HTML_PAGE],
      ['logo.jpg', SVG_SCRIPT],
      ['plain.gif', SVG_PLAIN],
      ['readme.txt', HTML_PAGE],
      ['data.pdf', Buffer.from('<?xml version="1.0"?><root/>')],
      ['bom.png', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('  \n<html><p>hi</p></html>')])],
      [
        'utf16.png',
        Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('<html><script>x</script></html>', 'utf16le')]),
      ],
    ];
    for (const [name, bytes] of cases) {
      const res = await upload(t, `Assets/x/${name}`, bytes, { contentType: 'image/png' });
      expect(res.statusCode, name).toBe(415);
      expect(problemOf(res).code).toBe('UNSUPPORTED_MEDIA_TYPE');
    }
    await expectNothingLeft();
  });

  it('stores plain SVG and named HTML as files served only as attachments; refuses SVG with active content', async () => {
    const svg = metadataOf(await upload(t, 'Assets/x/logo.svg', SVG_PLAIN));
    expect(svg).toMatchObject({ type: 'cmsFileAsset', file: { extension: '.svg', type: 'image/svg+xml' } });
    const html = metadataOf(await upload(t, 'Assets/x/page.html', HTML_PAGE));
    expect(html.file).toMatchObject({ extension: '.html', type: 'text/html' });
    const dl = await get('/cms/rest/assets/binary/Assets/x/logo.svg');
    expect(dl.headers['content-disposition']).toBe('attachment; filename="x/logo.svg"');
    expect(dl.headers['content-security-policy']).toMatch(/^sandbox/);
    expect(dl.headers['x-content-type-options']).toBe('nosniff');

    const refused = [
      SVG_SCRIPT,
      SVG_HANDLER,
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><a href="jav&#x61;script:alert(1)">x</a></svg>'),
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><foreignObject><p>x</p></foreignObject></svg>'),
      Buffer.from('<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaa">]><svg xmlns="http://www.w3.org/2000/svg"/>'),
      // Active content far beyond the sniffed head, cut across chunks.
      Buffer.concat([
        Buffer.from('<svg xmlns="http://www.w3.org/2000/svg">'),
        Buffer.from(`<!-- ${'x'.repeat(200_000)} -->`),
        Buffer.from('<script>alert(1)</script></svg>'),
      ]),
    ];
    for (const [i, bytes] of refused.entries()) {
      const res = await upload(t, `Assets/x/bad-${i}.svg`, bytes);
      expect(res.statusCode, String(i)).toBe(415);
    }
    expect(await assetCount(t)).toBe(2);
    expect(await blobKeys(t)).toHaveLength(2);
  });
});

describe('binary upload: limits and failures', () => {
  it('refuses a file over CMS_MAX_UPLOAD_BYTES with 413 and keeps nothing', async () => {
    await t.close();
    t = await createTestApp({ CMS_MAX_UPLOAD_BYTES: '4096' });
    const ok = await upload(t, 'Assets/l/fits.bin', Buffer.alloc(4096, 7));
    expect(ok.statusCode).toBe(201);
    for (const size of [4097, 300_000]) {
      const res = await upload(t, `Assets/l/big-${size}.bin`, Buffer.alloc(size, 7));
      expect(res.statusCode, String(size)).toBe(413);
      expect(problemOf(res).code).toBe('PAYLOAD_TOO_LARGE');
    }
    expect(await assetCount(t)).toBe(1);
    expect(await blobKeys(t)).toHaveLength(1);
    expect(await tempFiles(t)).toEqual([]);
  });

  it('refuses a pixel bomb before decoding it (413) and keeps nothing', async () => {
    const bomb = await pngBomb(100_000, 100_000);
    expect(bomb.length).toBeLessThan(200);
    const res = await upload(t, 'Assets/b/bomb.png', bomb);
    expect(res.statusCode).toBe(413);
    expect(problemOf(res).detail).toMatch(/100000 × 100000/);
    await expectNothingLeft();
  });

  it('follows CMS_MAX_IMAGE_PIXELS', async () => {
    await t.close();
    t = await createTestApp({ CMS_MAX_IMAGE_PIXELS: '10000' });
    expect((await upload(t, 'Assets/b/ok.png', await image('png', 100, 100))).statusCode).toBe(201);
    const res = await upload(t, 'Assets/b/big.png', await image('png', 101, 100));
    expect(res.statusCode).toBe(413);
    expect(await assetCount(t)).toBe(1);
    expect(await blobKeys(t)).toHaveLength(2);
  });

  it('refuses an image whose data is corrupt (415) and keeps nothing', async () => {
    const png = await image('png', 50, 50);
    const corrupt = Buffer.concat([png.subarray(0, 40), Buffer.alloc(200, 0x55)]);
    const res = await upload(t, 'Assets/b/corrupt.png', corrupt);
    expect(res.statusCode).toBe(415);
    await expectNothingLeft();
  });

  it('leaves no asset and no blob when the client aborts mid-upload', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const boundary = 'abortboundary';
    const req = http.request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/cms/rest/assets/binary/Assets/aborted/big.bin',
      headers: {
        authorization: ADMIN,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': String(10 * 1024 * 1024),
      },
    });
    req.on('error', () => {});
    req.write(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\n` +
        'Content-Type: application/octet-stream\r\n\r\n',
    );
    req.write(Buffer.alloc(256 * 1024, 1));
    // Wait until the server is writing the blob, then drop the connection.
    await waitFor(async () => (await tempFiles(t)).length > 0);
    req.destroy();
    await waitFor(async () => (await tempFiles(t)).length === 0);
    expect(await assetCount(t)).toBe(0);
    expect(await blobKeys(t)).toEqual([]);
    expect((await get('/cms/rest/assets/by-path/Assets/aborted/big.bin')).statusCode).toBe(404);
  });

  it('lets exactly one of concurrent uploads to one path win; the others get 409 and leave no blob', async () => {
    const contents = await Promise.all([0, 1, 2, 3].map((i) => image('png', 50 + i, 50)));
    const results = await Promise.all(contents.map((c) => upload(t, 'Assets/race/same.png', c)));
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes).toEqual([201, 409, 409, 409]);
    for (const r of results.filter((x) => x.statusCode === 409)) expect(problemOf(r).code).toBe('ASSET_ALREADY_EXISTS');
    const winner = metadataOf(results.find((r) => r.statusCode === 201)!);
    const dl = await get('/cms/rest/assets/binary/Assets/race/same.png');
    expect(dl.rawPayload.length).toBe(winner.image!.size);
    expect(await assetCount(t)).toBe(1);
    expect(await blobKeys(t)).toHaveLength(2); // the winner's file and thumbnail

    // The same race decided by the database: both passed the early check and stored their bytes.
    const assets = createAssetsService(t.app.folio.ctx);
    const actor = { username: 'admin', role: 'Admin' } as const;
    const segments = ['Assets', 'race2', 'doc.pdf'];
    const targets = await Promise.all([assets.prepareUpload(actor, segments), assets.prepareUpload(actor, segments)]);
    const stored = await Promise.all(targets.map((tg) => assets.storeUpload(tg, Readable.from([pdf()]))));
    const outcomes = await Promise.allSettled(
      targets.map((tg, i) =>
        assets.completeUpload(actor, tg, stored[i]!).catch(async (err: unknown) => {
          await assets.discardUpload(stored[i]);
          throw err;
        }),
      ),
    );
    expect(outcomes.map((o) => o.status).sort()).toEqual(['fulfilled', 'rejected']);
    const lost = outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult;
    expect(lost.reason).toMatchObject({ status: 409, code: 'ASSET_ALREADY_EXISTS' });
    expect(await blobKeys(t)).toHaveLength(3);
  });

  it('refuses a second upload to a taken path (409) and keeps the original byte for byte', async () => {
    const original = await image('png', 80, 60);
    expect((await upload(t, 'Assets/k/pic.png', original)).statusCode).toBe(201);
    const again = await upload(t, 'Assets/k/pic.png', await image('png', 10, 10));
    expect(again.statusCode).toBe(409);
    expect(problemOf(again).code).toBe('ASSET_ALREADY_EXISTS');
    expect((await get('/cms/rest/assets/binary/Assets/k/pic.png')).rawPayload.equals(original)).toBe(true);
    const onFolder = await upload(t, 'Assets/k', pdf());
    expect(onFolder.statusCode).toBe(409);
    const underAsset = await upload(t, 'Assets/k/pic.png/inner.pdf', pdf());
    expect(underAsset.statusCode).toBe(409);
    expect(await blobKeys(t)).toHaveLength(2);
  });
});

describe('binary download', () => {
  it('streams the file with type, length, attachment name, nosniff, sandbox and a strong ETag', async () => {
    const bytes = pdf();
    await upload(t, 'Assets/docs/sub/report.pdf', bytes);
    const res = await get('/cms/rest/assets/binary/Assets/docs/sub/report.pdf');
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(bytes)).toBe(true);
    expect(res.headers).toMatchObject({
      'content-type': 'application/pdf',
      'content-length': String(bytes.length),
      'content-disposition': 'attachment; filename="docs/sub/report.pdf"',
      'x-content-type-options': 'nosniff',
      'accept-ranges': 'bytes',
    });
    expect(res.headers['content-security-policy']).toMatch(/^sandbox/);
    expect(res.headers.etag).toMatch(/^"[0-9a-f]{64}"$/);

    const again = await get('/cms/rest/assets/binary/Assets/docs/sub/report.pdf', {
      'if-none-match': res.headers.etag!,
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });

  it('names Unicode files with an ASCII filename and an RFC 5987 filename*', async () => {
    const bytes = await image('jpeg', 20, 20);
    const meta = metadataOf(await upload(t, 'Assets/Bilder/Grüße aus Köln 東京.jpg', bytes));
    expect(meta).toMatchObject({ name: 'Grüße aus Köln 東京.jpg', folderPath: 'Assets/Bilder' });
    const url = `/cms/rest/assets/binary/Assets/Bilder/${encodeURIComponent('Grüße aus Köln 東京.jpg')}`;
    const res = await get(url);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="Bilder/Gr__e aus K_ln __.jpg"; filename*=UTF-8''Bilder%2FGr%C3%BC%C3%9Fe%20aus%20K%C3%B6ln%20%E6%9D%B1%E4%BA%AC.jpg`,
    );
    const byPath = await get(`/cms/rest/assets/by-path/Assets/Bilder/${encodeURIComponent('Grüße aus Köln 東京.jpg')}`);
    expect(metadataOf(byPath).id).toBe(meta.id);
    const thumb = await get(
      `/cms/rest/assets/binary/Assets/Bilder/${encodeURIComponent('thumb_Grüße aus Köln 東京.jpg')}`,
    );
    expect(thumb.statusCode).toBe(200);
    expect(thumb.headers['content-disposition']).toContain("filename*=UTF-8''Bilder%2Fthumb_Gr");
  });

  it('answers Range requests with 206, and 416 when unsatisfiable', async () => {
    const bytes = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 251));
    await upload(t, 'Assets/r/data.bin', bytes);
    const url = '/cms/rest/assets/binary/Assets/r/data.bin';
    const first = await get(url, { range: 'bytes=0-99' });
    expect(first.statusCode).toBe(206);
    expect(first.headers['content-range']).toBe('bytes 0-99/1000');
    expect(first.headers['content-length']).toBe('100');
    expect(first.rawPayload.equals(bytes.subarray(0, 100))).toBe(true);
    const open = await get(url, { range: 'bytes=990-' });
    expect(open.rawPayload.equals(bytes.subarray(990))).toBe(true);
    const suffix = await get(url, { range: 'bytes=-10' });
    expect(suffix.headers['content-range']).toBe('bytes 990-999/1000');
    const past = await get(url, { range: 'bytes=500-5000' });
    expect(past.headers['content-range']).toBe('bytes 500-999/1000');
    const bad = await get(url, { range: 'bytes=1000-' });
    expect(bad.statusCode).toBe(416);
    expect(bad.headers['content-range']).toBe('bytes */1000');
    expect(problemOf(bad).code).toBe('RANGE_NOT_SATISFIABLE');
    const several = await get(url, { range: 'bytes=0-1,5-6' });
    expect(several.statusCode).toBe(200);
    const staleIfRange = await get(url, { range: 'bytes=0-9', 'if-range': '"old"' });
    expect(staleIfRange.statusCode).toBe(200);
    expect(staleIfRange.rawPayload.length).toBe(1000);
    const freshIfRange = await get(url, { range: 'bytes=0-9', 'if-range': first.headers.etag! });
    expect(freshIfRange.statusCode).toBe(206);
  });

  it('answers HEAD with the headers only', async () => {
    const bytes = zip();
    await upload(t, 'Assets/h/a.zip', bytes);
    const res = await t.request({ method: 'HEAD', url: '/cms/rest/assets/binary/Assets/h/a.zip' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-length']).toBe(String(bytes.length));
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.body).toBe('');
  });

  it('answers 404 for missing assets, thumbnails of non-images and non-binary assets', async () => {
    await upload(t, 'Assets/n/doc.pdf', pdf());
    await t.request({
      method: 'PUT',
      url: '/cms/rest/assets/by-path/Assets/n/text',
      payload: { type: 'cmsRichTextAsset', fields: { text: '<p>x</p>' } },
    });
    for (const url of [
      '/cms/rest/assets/binary/Assets/n/missing.pdf',
      '/cms/rest/assets/binary/Assets/n/thumb_doc.pdf',
      '/cms/rest/assets/binary/Assets/n/text',
      '/cms/rest/assets/binary/Assets/none/thumb_x.png',
      '/cms/rest/assets/binary/Assets/n',
      '/cms/rest/assets/binary/Other/x',
    ]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(problemOf(res).code).toBe('ASSET_NOT_FOUND');
    }
    const unauth = await get('/cms/rest/assets/binary/Assets/n/doc.pdf', { authorization: '' });
    expect(unauth.statusCode).toBe(401);
  });

  it('serves an asset really named thumb_… before a thumbnail of the same name', async () => {
    const pic = await image('png', 500, 500);
    await upload(t, 'Assets/tt/a.png', pic);
    const own = pdf();
    await upload(t, 'Assets/tt/thumb_a.png', own);
    const res = await get('/cms/rest/assets/binary/Assets/tt/thumb_a.png');
    expect(res.rawPayload.equals(own)).toBe(true);
  });
});

async function waitFor(cond: () => Promise<boolean>, timeoutMs = 10_000) {
  const until = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}
