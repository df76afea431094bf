import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AssetUsage } from '../../../shared/api/assets.js';
import { createTestApp, problemOf, type TestApp } from '../../test/harness.js';
import { createFolder, createSite, createTemplate } from '../folders/folders.fixtures.js';
import { image, upload } from '../assets/assets.fixtures.js';

/** Links to pages and assets in widget fields follow a rename or move of the item or a folder above it. */
let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
  await createTemplate(t, 'basic', [{ name: 'main', editable: true }]);
  await createSite(t, 'site');
  expect((await upload(t, 'Assets/images/logo.png', await image('png', 40, 20))).statusCode).toBe(201);
});
afterEach(async () => {
  await t.close();
});

const pageUrl = (path: string) => `/cms/rest/pages/by-path/${path}`;
const richText = (text: string) => ({ type: 'cmsRichText', asset: { fields: { text } } });

async function putPage(path: string, payload: object) {
  const res = await t.request({ method: 'PUT', url: pageUrl(path), payload: { templateName: 'basic', ...payload } });
  expect([200, 201], res.body).toContain(res.statusCode);
}
async function textOf(path: string): Promise<{ text: string; etag: string }> {
  const res = await t.request({ method: 'GET', url: pageUrl(path) });
  expect(res.statusCode, res.body).toBe(200);
  const region = res.json().body.find((r: { name: string }) => r.name === 'main');
  return { text: region.widgets[0].asset.fields.text, etag: String(res.headers.etag) };
}
async function post(op: string, payload: object) {
  const res = await t.request({ method: 'POST', url: `/cms/rest/folders/${op}`, payload });
  expect(res.statusCode, res.body).toBeLessThan(300);
}
async function usageOf(path: string) {
  const res = await t.request({ method: 'GET', url: `/cms/rest/assets/usage/${path}` });
  expect(res.statusCode, res.body).toBe(200);
  return AssetUsage.parse(res.json()).usedBy.map((u) => `${u.kind ?? 'page'} ${u.path}`);
}

describe('links that survive renames and moves', () => {
  it('renaming a page rewrites links to it; the old ETag of the linking page gets 412', async () => {
    await createFolder(t, 'site/about');
    await putPage('site/about/team', {});
    await putPage('site/home', {
      body: [
        { name: 'main', widgets: [richText('<p><a href="/cms/rest/pages/by-path/site/about/team">Team</a></p>')] },
      ],
    });
    const before = await textOf('site/home');
    await post('rename', { path: 'site/about/team', newName: 'people' });
    const after = await textOf('site/home');
    expect(after.text).toBe('<p><a href="/cms/rest/pages/by-path/site/about/people">Team</a></p>');
    expect(after.etag).not.toBe(before.etag);
    const stale = await t.request({
      method: 'PUT',
      url: pageUrl('site/home'),
      headers: { 'if-match': before.etag },
      payload: { templateName: 'basic', displayName: 'Home' },
    });
    expect(stale.statusCode).toBe(412);

    // Moving the folder above it: the link follows again (found through the references just rewritten).
    await createFolder(t, 'site/company');
    await post('move', { itemPath: 'site/about', targetFolderPath: 'site/company' });
    expect((await textOf('site/home')).text).toContain('href="/cms/rest/pages/by-path/site/company/about/people"');
  });

  it('renaming an asset and its folder rewrites images in rich text; usage still finds them', async () => {
    await putPage('site/home', {
      body: [
        {
          name: 'main',
          widgets: [
            richText(
              '<p><img src="/cms/rest/assets/binary/Assets/images/logo.png"><img src="/cms/rest/assets/binary/Assets/images/thumb_logo.png"></p>',
            ),
          ],
        },
      ],
    });
    await post('rename', { path: 'Assets/images/logo.png', newName: 'brand mark.png' });
    expect((await textOf('site/home')).text).toBe(
      '<p><img src="/cms/rest/assets/binary/Assets/images/brand%20mark.png"><img src="/cms/rest/assets/binary/Assets/images/thumb_brand%20mark.png"></p>',
    );
    expect(await usageOf('Assets/images/brand mark.png')).toEqual(['page site/home']);
    await post('rename', { path: 'Assets/images', newName: 'pictures' });
    expect((await textOf('site/home')).text).toContain(
      'src="/cms/rest/assets/binary/Assets/pictures/brand%20mark.png"',
    );
    expect(await usageOf('Assets/pictures/brand mark.png')).toEqual(['page site/home']);

    // Deleting the folder would break the image: refused like a single delete.
    const refused = await t.request({
      method: 'DELETE',
      url: '/cms/rest/folders/by-path/Assets/pictures?includeSubFolders=true',
    });
    expect(refused.statusCode, refused.body).toBe(409);
    expect(problemOf(refused).code).toBe('ASSET_IN_USE');
  });

  it('templates and shared rich text assets referring to an asset count in where-used', async () => {
    const shared = await t.request({
      method: 'PUT',
      url: '/cms/rest/assets/by-path/Assets/texts/intro',
      payload: {
        type: 'cmsRichTextAsset',
        fields: { text: '<p><img src="/cms/rest/assets/binary/Assets/images/logo.png"></p>' },
      },
    });
    expect(shared.statusCode, shared.body).toBe(201);
    const template = await t.request({
      method: 'PUT',
      url: '/cms/rest/templates/branded',
      payload: {
        regions: [
          {
            name: 'header',
            editable: false,
            widgets: [richText('<img src="/cms/rest/assets/binary/Assets/images/logo.png">')],
          },
          { name: 'main', editable: true },
        ],
      },
    });
    expect(template.statusCode, template.body).toBe(201);
    expect(await usageOf('Assets/images/logo.png')).toEqual(['template branded', 'asset Assets/texts/intro']);
    const refused = await t.request({ method: 'DELETE', url: '/cms/rest/assets/by-path/Assets/images/logo.png' });
    expect(problemOf(refused).code).toBe('ASSET_IN_USE');
  });
});
