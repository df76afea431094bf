import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AssetUsage } from '../../../shared/api/assets.js';
import { PagePutResponse } from '../../../shared/api/pages.js';
import { contentRefs } from '../../db/migrations/0220-content-refs.js';
import { assetRefsOf } from '../../lib/asset-refs.js';
import { createTestApp, problemOf, type TestApp } from '../../test/harness.js';
import { createFolder, createSite, createTemplate } from '../folders/folders.fixtures.js';
import { image, pdf, upload } from './assets.fixtures.js';

/**
 * Where-used and the delete guard count images, links and paths inside widgets' fields (rich text, raw HTML, any
 * field), written with every page write (migration 0210), as they count widgets linking the asset.
 */
let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
  await createTemplate(t, 'basic', [
    { name: 'main', editable: true },
    { name: 'aside', editable: true },
  ]);
  await createTemplate(t, 'narrow', [{ name: 'main', editable: true }]);
  await createSite(t, 'site');
  expect((await upload(t, 'Assets/images/logo.png', await image('png', 40, 20))).statusCode).toBe(201);
});
afterEach(async () => {
  await t.close();
});

const LOGO = '/cms/rest/assets/binary/Assets/images/logo.png';
const pageUrl = (path: string) => `/cms/rest/pages/by-path/${path}`;

async function putPage(path: string, payload: object, status = [200, 201]) {
  const res = await t.request({ method: 'PUT', url: pageUrl(path), payload: { templateName: 'basic', ...payload } });
  expect(status, res.body).toContain(res.statusCode);
  return PagePutResponse.parse(res.json());
}
const richText = (text: string) => ({ type: 'cmsRichText', asset: { fields: { text } } });
const rawHtml = (html: string) => ({ type: 'cmsRawHtml', asset: { fields: { html } } });

async function usageOf(path: string) {
  const res = await t.request({ method: 'GET', url: `/cms/rest/assets/usage/${path}` });
  expect(res.statusCode, res.body).toBe(200);
  return AssetUsage.parse(res.json()).usedBy.map((u) => `${u.path} ${u.region} ${u.state}`);
}
const deleteAsset = (path: string, force = false) =>
  t.request({ method: 'DELETE', url: `/cms/rest/assets/by-path/${path}${force ? '?force=true' : ''}` });

describe('asset references inside widget fields', () => {
  it('a PUT adding an <img> of a library image makes it used: 409 ASSET_IN_USE naming the page, listed as used', async () => {
    await putPage('site/about', { displayName: 'About us' });
    await putPage('site/about', {
      body: [{ name: 'main', widgets: [richText(`<p>Hi</p><p><img src="${LOGO}" alt="Logo"></p>`)] }],
    });
    expect(await usageOf('Assets/images/logo.png')).toEqual(['site/about main Draft']);

    const refused = await deleteAsset('Assets/images/logo.png');
    expect(refused.statusCode).toBe(409);
    expect(problemOf(refused).code).toBe('ASSET_IN_USE');
    expect(refused.json().usedBy).toEqual([
      expect.objectContaining({ path: 'site/about', displayName: 'About us', region: 'main', state: 'Draft' }),
    ]);

    // The page's fields written the quick way (one UPDATE) keep what its body uses.
    await putPage('site/about', { displayName: 'About' });
    await putPage('site/about', { workflow: { state: 'Public' } });
    expect(await usageOf('Assets/images/logo.png')).toEqual(['site/about main Public']);
  });

  it('follows the widget: edited without the image, moved, dropped by a template switch, deleted with its page', async () => {
    const first = await putPage('site/news', {
      body: [{ name: 'aside', widgets: [richText(`<a href="https://cms.example${LOGO}">logo</a>`)] }],
    });
    const id = first.body.find((r) => r.name === 'aside')!.widgets[0]!.id!;
    expect(await usageOf('Assets/images/logo.png')).toEqual(['site/news aside Draft']);

    // Moved to another region with its id: the region shown follows.
    await putPage('site/news', {
      body: [
        { name: 'aside', widgets: [] },
        { name: 'main', widgets: [{ id, type: 'cmsRichText' }] },
      ],
    });
    expect(await usageOf('Assets/images/logo.png')).toEqual(['site/news main Draft']);

    // Edited without the image.
    await putPage('site/news', {
      body: [{ name: 'main', widgets: [{ id, type: 'cmsRichText', asset: { fields: { text: '<p>none</p>' } } }] }],
    });
    expect(await usageOf('Assets/images/logo.png')).toEqual([]);
    expect((await deleteAsset('Assets/images/logo.png')).statusCode).toBe(200);
    expect((await upload(t, 'Assets/images/logo.png', await image('png', 40, 20))).statusCode).toBe(201);

    // In again, then the template switch drops its region.
    await putPage('site/news', { body: [{ name: 'aside', widgets: [rawHtml(`<img src="${LOGO}">`)] }] });
    expect(await usageOf('Assets/images/logo.png')).toEqual(['site/news aside Draft']);
    await putPage('site/news', { templateName: 'narrow' });
    expect(await usageOf('Assets/images/logo.png')).toEqual([]);

    // Deleted with its page.
    await putPage('site/gone', { body: [{ name: 'main', widgets: [richText(`<img src="${LOGO}">`)] }] });
    expect(await usageOf('Assets/images/logo.png')).toEqual(['site/gone main Draft']);
    expect((await t.request({ method: 'DELETE', url: pageUrl('site/gone') })).statusCode).toBe(200);
    expect(await usageOf('Assets/images/logo.png')).toEqual([]);
  });

  it('counts srcset, thumbnails, links to files with odd names and raw HTML, and copies of pages', async () => {
    expect((await upload(t, 'Assets/docs/Price list (2026).pdf', pdf())).statusCode).toBe(201);
    const pdfUrl = `/cms/rest/assets/binary/Assets/docs/${encodeURIComponent('Price list (2026).pdf')}`;
    await putPage('site/shop', {
      body: [
        {
          name: 'main',
          widgets: [
            richText(`<p><a href="${pdfUrl}">prices</a></p>`),
            rawHtml(`<img srcset="/cms/rest/assets/binary/Assets/images/thumb_logo.png 1x, ${LOGO} 2x" alt="">`),
          ],
        },
      ],
    });
    expect(await usageOf('Assets/images/logo.png')).toEqual(['site/shop main Draft']);
    expect(await usageOf('Assets/docs/Price list (2026).pdf')).toEqual(['site/shop main Draft']);
    expect(problemOf(await deleteAsset('Assets/docs/Price list (2026).pdf')).code).toBe('ASSET_IN_USE');

    await createFolder(t, 'site/archive');
    const copied = await t.request({
      method: 'POST',
      url: '/cms/rest/folders/copy',
      payload: { itemPath: 'site/shop', targetFolderPath: 'site/archive' },
    });
    expect(copied.statusCode, copied.body).toBe(201);
    expect(await usageOf('Assets/images/logo.png')).toEqual(['site/archive/shop main Draft', 'site/shop main Draft']);

    // Forced: the asset goes; the markup stays as written (and would show the path's next asset).
    expect((await deleteAsset('Assets/images/logo.png', true)).statusCode).toBe(200);
    expect((await upload(t, 'Assets/images/logo.png', await image('png', 40, 20))).statusCode).toBe(201);
    expect(await usageOf('Assets/images/logo.png')).toHaveLength(2);
  });

  it('the migration makes the references of widgets stored before it', async () => {
    await putPage('site/old', { body: [{ name: 'main', widgets: [richText(`<img src="${LOGO}">`)] }] });
    const db = t.app.folio.ctx.db;
    await sql`drop table content_refs`.execute(db);
    await sql`create table widget_asset_refs (widget_id text, path text)`.execute(db);
    await contentRefs.up(db);
    expect(await usageOf('Assets/images/logo.png')).toEqual(['site/old main Draft']);
    expect((await deleteAsset('Assets/images/logo.png')).statusCode).toBe(409);
  });
});

describe('assetRefsOf', () => {
  const refs = (fields: object) => assetRefsOf(JSON.stringify(fields)).sort();
  it('finds asset URLs in any attribute or CSS, entity-encoded or not, and whole library paths', () => {
    expect(
      refs({
        text: `<p style="background:url('/cms/rest/assets/binary/Assets/a/b%20c.png')">x</p><a href="/cms/rest/assets/by-path/Assets/a/d.pdf?x=1#y">d</a>`,
        html: '<img data-src="&#x2F;cms&#x2F;rest&#x2F;assets&#x2F;binary&#x2F;Assets&#x2F;e.gif">',
        nested: [{ path: '/Assets/docs/f.txt' }],
        other: '/cms/rest/pages/by-path/site/page and Assets are great',
      }),
    ).toEqual(
      [
        "Assets/a/b c.png')",
        "Assets/a/b c.png'",
        'Assets/a/b c.png',
        'Assets/a/d.pdf',
        'Assets/e.gif',
        'Assets/docs/f.txt',
      ].sort(),
    );
    expect(assetRefsOf(null)).toEqual([]);
    expect(assetRefsOf('{"text":"<p>no assets</p>"}')).toEqual([]);
  });
});
