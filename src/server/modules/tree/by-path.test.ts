import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { createAsset, createFolder, createPage, createSite, createTemplate } from '../folders/folders.fixtures.js';

/** Every by-path route (method, URL prefix before the item path) with an item that it answers 200 for. */
const RESTORE = { payload: { revision: 1 }, headers: { 'if-match': '*' } };
const CASES: {
  method: 'GET' | 'POST';
  prefix: string;
  path: string;
  payload?: object;
  headers?: Record<string, string>;
}[] = [
  { method: 'GET', prefix: '/cms/rest/pages/by-path/', path: 'www/news/story' },
  { method: 'GET', prefix: '/cms/rest/pages/transitions/', path: 'www/news/story' },
  { method: 'POST', prefix: '/cms/rest/pages/submit-all/', path: 'www/news' },
  { method: 'POST', prefix: '/cms/rest/pages/approve-all/', path: 'www/news' },
  { method: 'POST', prefix: '/cms/rest/pages/archive-all/', path: 'www/news' },
  { method: 'GET', prefix: '/cms/rest/folders/by-path/', path: 'www/news' },
  { method: 'GET', prefix: '/cms/rest/folders/children/by-path/', path: 'www/news' },
  { method: 'GET', prefix: '/cms/rest/folders/contents/by-path/', path: 'www/news' },
  { method: 'GET', prefix: '/cms/rest/assets/by-path/', path: 'Assets/texts/intro' },
  { method: 'GET', prefix: '/cms/rest/assets/list/', path: 'Assets/texts' },
  { method: 'GET', prefix: '/cms/rest/assets/usage/', path: 'Assets/texts/intro' },
  { method: 'GET', prefix: '/cms/rest/assets/transitions/', path: 'Assets/texts/intro' },
  { method: 'GET', prefix: '/cms/rest/assets/binary/', path: 'Assets/files/data.bin' },
  { method: 'POST', prefix: '/cms/rest/assets/submit-all/', path: 'Assets/texts' },
  { method: 'POST', prefix: '/cms/rest/assets/approve-all/', path: 'Assets/texts' },
  { method: 'POST', prefix: '/cms/rest/assets/archive-all/', path: 'Assets/texts' },
  { method: 'GET', prefix: '/cms/rest/leases/page/', path: 'www/news/story' },
  { method: 'GET', prefix: '/cms/rest/leases/asset/', path: 'Assets/texts/intro' },
  { method: 'GET', prefix: '/cms/rest/pages/revisions/', path: 'www/news/story' },
  { method: 'GET', prefix: '/cms/rest/assets/revisions/', path: 'Assets/texts/intro' },
  { method: 'POST', prefix: '/cms/rest/pages/restore/', path: 'www/news/story', ...RESTORE },
  { method: 'POST', prefix: '/cms/rest/assets/restore/', path: 'Assets/texts/intro', ...RESTORE },
];

describe('by-path routes', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
    await createTemplate(t);
    await createSite(t, 'www');
    await createFolder(t, 'www/news');
    await createPage(t, 'www/news', 'story');
    await createAsset(t, 'Assets/texts', 'intro');
    await createAsset(t, 'Assets/files', 'data.bin', Buffer.from('binary bytes'));
  });
  afterAll(() => t.close());

  it('covers every by-path route the app registers', () => {
    const prefixes = new Set(
      t.app.folio.routes
        .filter((r) => r.url.startsWith('/cms/rest/') && r.url.endsWith('/*'))
        .map((r) => r.url.slice(0, -1)),
    );
    const tested = new Set(CASES.map((c) => c.prefix));
    const untested = [...prefixes].filter((p) => !tested.has(p));
    expect(untested).toEqual([]);
  });

  it('answers the same whether the slashes of the item path are sent as they are or as %2F', async () => {
    for (const c of CASES) {
      const send = (url: string) => t.request({ method: c.method, url, payload: c.payload, headers: c.headers });
      const plain = await send(c.prefix + c.path);
      const encoded = await send(c.prefix + c.path.split('/').join('%2F'));
      const mixed = await send(c.prefix + c.path.replace('/', '%2f'));
      expect(plain.statusCode, `${c.method} ${c.prefix}: ${plain.body}`).toBe(200);
      expect(encoded.statusCode, `${c.method} ${c.prefix} encoded: ${encoded.body}`).toBe(200);
      expect(mixed.statusCode, `${c.method} ${c.prefix} mixed: ${mixed.body}`).toBe(200);
      if (c.method === 'GET') {
        expect(encoded.body, c.prefix).toBe(plain.body);
        expect(mixed.body, c.prefix).toBe(plain.body);
      }
    }
  });

  it('writes through an encoded path: PUT and DELETE of a page, a folder and an asset', async () => {
    const put = (url: string, payload: object) => t.request({ method: 'PUT', url, payload });
    expect((await put('/cms/rest/folders/by-path/www%2Fnews%2Fsub', {})).statusCode).toBe(201);
    expect((await t.request({ method: 'GET', url: '/cms/rest/folders/by-path/www/news/sub' })).statusCode).toBe(200);
    expect((await put('/cms/rest/pages/by-path/www%2Fnews%2Fsub%2Fp', { templateName: 'basic' })).statusCode).toBe(201);
    expect((await t.request({ method: 'GET', url: '/cms/rest/pages/by-path/www/news/sub/p' })).statusCode).toBe(200);
    const asset = await put('/cms/rest/assets/by-path/Assets%2Ftexts%2Fnew', {
      type: 'cmsRichTextAsset',
      fields: { text: '<p>x</p>' },
    });
    expect(asset.statusCode, asset.body).toBe(201);
    for (const url of [
      '/cms/rest/assets/by-path/Assets%2Ftexts%2Fnew',
      '/cms/rest/pages/by-path/www%2Fnews%2Fsub%2Fp',
      '/cms/rest/folders/by-path/www%2Fnews%2Fsub',
    ]) {
      expect((await t.request({ method: 'DELETE', url })).statusCode, url).toBe(200);
    }
    expect((await t.request({ method: 'GET', url: '/cms/rest/folders/by-path/www/news/sub' })).statusCode).toBe(404);
  });

  it('still refuses invalid names and empty paths with 400', async () => {
    for (const url of [
      '/cms/rest/pages/by-path/www/%2E%2E/x',
      '/cms/rest/folders/by-path/www/x%00y',
      '/cms/rest/assets/by-path/Assets/%E0%A4%A',
      '/cms/rest/pages/by-path/%2F%2F',
      '/cms/rest/folders/by-path/',
    ]) {
      const res = await t.request({ method: 'GET', url });
      expect(res.statusCode, url).toBe(400);
    }
  });
});
