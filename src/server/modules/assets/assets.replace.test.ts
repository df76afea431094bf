import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AssetUsage } from '../../../shared/api/assets.js';
import { createTestApp, problemOf, type TestApp } from '../../test/harness.js';
import { assetsRepository } from './assets.repository.js';
import {
  assetCount,
  blobKeys,
  encodePath,
  image,
  linkAssetFromPage,
  metadataOf,
  multipart,
  pdf,
  tempFiles,
  upload,
} from './assets.fixtures.js';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});
afterEach(async () => {
  await t.close();
});

const META = '/cms/rest/assets/by-path';

/** PUTs a new file for the asset at `assetPath` (the replace in place). */
function replace(assetPath: string, content: Buffer, headers: Record<string, string> = {}, pathField?: string) {
  const { payload, headers: form } = multipart([
    ...(pathField !== undefined ? [{ name: 'path', value: pathField }] : []),
    { name: 'file', filename: 'new.bin', content },
  ]);
  return t.request({
    method: 'PUT',
    url: `/cms/rest/assets/binary/${encodePath(assetPath)}`,
    payload,
    headers: { ...form, ...headers },
  });
}

const get = (path: string) => t.request({ method: 'GET', url: `${META}/${encodePath(path)}` });

/** An image with alt text and a display title, as a user leaves it. */
async function describedImage(path = 'Assets/images/logo.png') {
  expect((await upload(t, path, await image('png', 120, 80))).statusCode).toBe(201);
  const res = await t.request({
    method: 'PUT',
    url: `${META}/${encodePath(path)}`,
    payload: { fields: { alttext: 'The Folio logo', displaytitle: 'Logo' } },
  });
  expect(res.statusCode).toBe(200);
  return { meta: metadataOf(res), etag: res.headers.etag as string };
}

describe('replacing a binary asset: guards', () => {
  it('rejects unauthenticated', async () => {
    await describedImage();
    const res = await replace('Assets/images/logo.png', await image('png', 10, 10), { authorization: '' });
    expect(res.statusCode).toBe(401);
  });

  it('rejects an invalid body and changes nothing', async () => {
    const { etag } = await describedImage();
    const json = await t.request({ method: 'PUT', url: '/cms/rest/assets/binary/Assets/images/logo.png', payload: {} });
    expect(json.statusCode).toBe(415);
    const noFile = await t.request({
      method: 'PUT',
      url: '/cms/rest/assets/binary/Assets/images/logo.png',
      ...multipart([{ name: 'path', value: 'Assets/images/logo.png' }]),
    });
    expect(noFile.statusCode).toBe(400);
    expect(problemOf(noFile).errors?.[0]?.path).toBe('file');
    const elsewhere = await replace('Assets/images/logo.png', await image('png', 10, 10), {}, 'Assets/other.png');
    expect(elsewhere.statusCode).toBe(409);
    expect(problemOf(elsewhere).code).toBe('LOCATION_MISMATCH');
    expect((await get('Assets/images/logo.png')).headers.etag).toBe(etag);
    expect(await tempFiles(t)).toEqual([]);
  });

  it('answers 404 where nothing is (an upload creates) and 409 for an asset without a file', async () => {
    const none = await replace('Assets/images/none.png', await image('png', 10, 10));
    expect(none.statusCode).toBe(404);
    expect(problemOf(none).code).toBe('ASSET_NOT_FOUND');
    await t.request({
      method: 'PUT',
      url: `${META}/Assets/texts/hello`,
      payload: { type: 'cmsRichTextAsset', fields: { text: '<p>Hi</p>' } },
    });
    const text = await replace('Assets/texts/hello', await image('png', 10, 10));
    expect(text.statusCode).toBe(409);
    expect(problemOf(text).code).toBe('TYPE_MISMATCH');
    expect(await assetCount(t)).toBe(1);
  });

  it('refuses viewers', async () => {
    await describedImage();
    const vera = await t.createUser('vera', 'Viewer');
    const res = await replace('Assets/images/logo.png', await image('png', 10, 10), { authorization: vera });
    expect(res.statusCode).toBe(403);
  });
});

describe('replacing a binary asset', () => {
  it('keeps the id, the alt text and titles and the pages that link it; the file, size and thumbnail are new', async () => {
    const { meta: before, etag } = await describedImage();
    await linkAssetFromPage(t, before.id, 'demo', 'home');
    const keysBefore = await blobKeys(t);
    const oldThumb = await t.request({ method: 'GET', url: '/cms/rest/assets/binary/Assets/images/thumb_logo.png' });

    const fresh = await image('jpeg', 1600, 900);
    const res = await replace('Assets/images/logo.png', fresh, { 'if-match': etag });
    expect(res.statusCode, res.body).toBe(200);
    const after = metadataOf(res);
    expect(after.id).toBe(before.id);
    expect(after.fields).toMatchObject({ alttext: 'The Folio logo', displaytitle: 'Logo', filename: 'logo.png' });
    expect(after.image).toMatchObject({ width: 1600, height: 900, type: 'image/jpeg', size: fresh.length });
    expect(after.thumbnail).toMatchObject({ width: 300, height: 169 });
    expect(res.headers.etag).not.toBe(etag);
    expect((await get('Assets/images/logo.png')).headers.etag).toBe(res.headers.etag);

    const file = await t.request({ method: 'GET', url: '/cms/rest/assets/binary/Assets/images/logo.png' });
    expect(file.rawPayload.equals(fresh)).toBe(true);
    const thumb = await t.request({ method: 'GET', url: '/cms/rest/assets/binary/Assets/images/thumb_logo.png' });
    expect(thumb.headers.etag).not.toBe(oldThumb.headers.etag);
    expect((await sharp(thumb.rawPayload).metadata()).width).toBe(300);

    const usage = AssetUsage.parse(
      (await t.request({ method: 'GET', url: '/cms/rest/assets/usage/Assets/images/logo.png' })).json(),
    );
    expect(usage.usedBy.map((u) => u.path)).toEqual(['demo/home']);
    // The new file and thumbnail took the old ones' place; the old ones stay while the revision before the
    // replace refers to them (issue 38: a binary's blob is kept while a revision refers to it).
    const keysAfter = await blobKeys(t);
    expect(keysAfter).toHaveLength(keysBefore.length * 2);
    expect(keysBefore.every((k) => keysAfter.includes(k))).toBe(true);
    const inUse = await assetsRepository.blobKeysInUse(t.app.folio.ctx.db);
    expect(keysAfter.every((k) => inUse.has(k))).toBe(true);
  });

  it('takes a Public asset to Quick Edit, as any change of its content does', async () => {
    await describedImage();
    await t.request({
      method: 'PUT',
      url: `${META}/Assets/images/logo.png`,
      payload: { workflow: { state: 'Public' } },
    });
    const res = await replace('Assets/images/logo.png', await image('png', 50, 50));
    expect(metadataOf(res).workflow).toMatchObject({ state: 'Quick Edit', checkedOut: false, checkedOutUser: '' });
  });

  it('replaces a file asset by any file, keeping its type', async () => {
    expect((await upload(t, 'Assets/docs/report.pdf', pdf())).statusCode).toBe(201);
    const res = await replace('Assets/docs/report.pdf', await image('png', 20, 20));
    expect(res.statusCode, res.body).toBe(200);
    const meta = metadataOf(res);
    expect(meta.type).toBe('cmsFileAsset');
    expect(meta.file).toMatchObject({ type: 'image/png', extension: '.png' });
    expect(meta.image).toBeUndefined();
  });

  it('refuses a stale If-Match, another type for an image, and a file over the limit, keeping the original', async () => {
    const { etag } = await describedImage();
    const keys = await blobKeys(t);
    await t.request({ method: 'PUT', url: `${META}/Assets/images/logo.png`, payload: { fields: { alttext: 'New' } } });
    const current = (await get('Assets/images/logo.png')).headers.etag;

    const stale = await replace('Assets/images/logo.png', await image('png', 30, 30), { 'if-match': etag });
    expect(stale.statusCode).toBe(412);
    const notImage = await replace('Assets/images/logo.png', pdf());
    expect(notImage.statusCode).toBe(409);
    expect(problemOf(notImage).code).toBe('TYPE_MISMATCH');

    const small = await createTestApp({ CMS_MAX_UPLOAD_BYTES: '2000' });
    try {
      expect((await upload(small, 'Assets/a.png', await image('png', 4, 4))).statusCode).toBe(201);
      const big = await small.request({
        method: 'PUT',
        url: '/cms/rest/assets/binary/Assets/a.png',
        ...multipart([{ name: 'file', filename: 'x', content: Buffer.alloc(5000, 1) }]),
      });
      expect(big.statusCode).toBe(413);
      expect(metadataOf(await small.request({ method: 'GET', url: `${META}/Assets/a.png` })).image?.width).toBe(4);
    } finally {
      await small.close();
    }

    expect((await get('Assets/images/logo.png')).headers.etag).toBe(current);
    expect((await blobKeys(t)).sort()).toEqual(keys.sort());
    expect(await tempFiles(t)).toEqual([]);
  });
});
