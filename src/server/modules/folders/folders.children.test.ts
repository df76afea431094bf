import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FindResult, FolderChildren } from '../../../shared/api/folders.js';
import { SYSTEM_ACTOR } from '../../lib/context.js';
import { problemOf, createTestApp, type TestApp } from '../../test/harness.js';
import { ensureAssetFolder, insertAssetRecord } from '../assets/asset-records.js';
import {
  createAsset,
  createExternalLink,
  createFolder,
  createPage,
  createSection,
  createSite,
  createTemplate,
  folderUrl,
  putFolder,
} from './folders.fixtures.js';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
  await createTemplate(t, 'basic');
});
afterEach(async () => {
  await t.close();
});

const childrenUrl = (path: string) => folderUrl(path).replace('/folders/by-path/', '/folders/children/by-path/');
const REFERENCE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\+0000$/;

async function children(path: string, authorization?: string) {
  const res = await t.request({
    method: 'GET',
    url: childrenUrl(path),
    ...(authorization ? { headers: { authorization } } : {}),
  });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers.etag).toBeTruthy();
  return FolderChildren.strict().parse(res.json()).items;
}

describe('children of a container', () => {
  it('rejects unauthenticated, and names a missing container', async () => {
    await createSite(t, 'www');
    const res = await t.request({ method: 'GET', url: childrenUrl('www'), headers: { authorization: '' } });
    expect(res.statusCode).toBe(401);
    const missing = await t.request({ method: 'GET', url: childrenUrl('www/nothing') });
    expect(missing.statusCode).toBe(404);
    expect(problemOf(missing).code).toBe('FOLDER_NOT_FOUND');
    const none = await t.request({ method: 'GET', url: '/cms/rest/folders/children/by-path/' });
    expect(none.statusCode).toBe(400);
  });

  it('lists titles, workflow states and who changed each child when, in the listing’s order', async () => {
    const editor = await t.createUser('erin', 'Editor');
    await createSite(t, 'www');
    await createSection(t, 'www/news', { displayTitle: 'Latest news' });
    await createExternalLink(t, 'www/docs');
    expect((await putFolder(t, 'www/archive', {}, { authorization: editor })).statusCode).toBe(201);
    await createPage(t, 'www', 'contact');
    const res = await t.request({
      method: 'PUT',
      url: '/cms/rest/pages/by-path/www/about',
      headers: { authorization: editor },
      payload: { templateName: 'basic', displayName: 'About us' },
    });
    expect(res.statusCode, res.body).toBe(201);

    const items = await children('www');
    expect(items.map((i) => [i.name, i.kind, i.title ?? null, i.workflowState ?? null])).toEqual([
      ['news', 'section', 'Latest news', null],
      ['docs', 'externallink', 'www/docs', null],
      ['archive', 'folder', null, null],
      ['about', 'page', 'About us', 'Draft'],
      ['contact', 'page', 'contact', 'Draft'],
      ['index', 'page', 'Home', 'Draft'],
    ]);
    const by = Object.fromEntries(items.map((i) => [i.name, i.lastModifiedBy ?? null]));
    expect(by).toMatchObject({ news: 'admin', docs: 'admin', archive: 'erin', about: 'erin', index: 'admin' });
    for (const i of items) expect(i.lastModified).toMatch(REFERENCE_TIME);

    // A change of the node itself (a rename) counts, and says who made it.
    t.advance(60_000);
    const renamed = await t.request({
      method: 'POST',
      url: '/cms/rest/folders/rename',
      headers: { authorization: editor },
      payload: { path: 'www/news', newName: 'latest' },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const after = (await children('www')).find((i) => i.name === 'latest')!;
    expect(after.lastModifiedBy).toBe('erin');
    expect(after.lastModified > items[0]!.lastModified).toBe(true);

    // A page's own write counts (its row's time: the node's is when the node itself changed), by whoever made it.
    t.advance(60_000);
    const edited = await t.request({
      method: 'PUT',
      url: '/cms/rest/pages/by-path/www/contact',
      headers: { authorization: editor },
      payload: { templateName: 'basic', displayName: 'Contact us' },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    const contact = (await children('www')).find((i) => i.name === 'contact')!;
    expect(contact.lastModifiedBy).toBe('erin');
    expect(contact.lastModified > after.lastModified).toBe(true);
  });

  it('lists asset folders and assets of the library, and nothing for an item that holds nothing', async () => {
    await createAsset(t, 'Assets/images', 'logo.png', Buffer.from('png'));
    await createFolder(t, 'Assets/images/icons');
    expect((await children('Assets/images')).map((i) => [i.name, i.kind, i.workflowState ?? null])).toEqual([
      ['icons', 'folder', null],
      ['logo.png', 'asset', 'Draft'],
    ]);
    await createSite(t, 'www');
    await createExternalLink(t, 'www/docs');
    expect(await children('www/docs')).toEqual([]);
  });

  it('keeps only the kinds asked for, and says the caller’s access level as the item’s own GET does', async () => {
    await createAsset(t, 'Assets/images', 'logo.png', Buffer.from('png'));
    await createFolder(t, 'Assets/images/icons');
    await createFolder(t, 'Assets/images/banners');
    const only = await t.request({ method: 'GET', url: `${childrenUrl('Assets/images')}?kind=folder` });
    expect(only.statusCode, only.body).toBe(200);
    const body = FolderChildren.strict().parse(only.json());
    expect(body.items.map((i) => [i.name, i.kind])).toEqual([
      ['banners', 'folder'],
      ['icons', 'folder'],
    ]);
    expect(only.headers.etag).not.toBe(
      (await t.request({ method: 'GET', url: childrenUrl('Assets/images') })).headers.etag,
    );
    const two = await t.request({ method: 'GET', url: `${childrenUrl('Assets/images')}?kind=asset,folder` });
    expect(FolderChildren.parse(two.json()).items).toHaveLength(3);

    const viewer = await t.createUser('vic', 'Viewer');
    for (const authorization of [undefined, viewer]) {
      const headers = authorization ? { authorization } : {};
      const own = await t.request({ method: 'GET', url: folderUrl('Assets/images'), headers });
      const listed = await t.request({ method: 'GET', url: `${childrenUrl('Assets/images')}?kind=folder`, headers });
      expect(FolderChildren.parse(listed.json()).accessLevel).toBe(own.json<{ accessLevel: string }>().accessLevel);
    }

    for (const kind of ['', 'asset,,folder', 'nothing', 'folder;drop']) {
      const bad = await t.request({
        method: 'GET',
        url: `${childrenUrl('Assets/images')}?kind=${encodeURIComponent(kind)}`,
      });
      expect(bad.statusCode, kind).toBe(400);
      expect(problemOf(bad).code).toBeTruthy();
    }
  });

  it('shows who has a page or asset checked out, from the lease, and forgets it when the lease ends', async () => {
    await createSite(t, 'www');
    await createPage(t, 'www', 'home');
    await createPage(t, 'www', 'about');
    await createAsset(t, 'Assets/images', 'logo.png', Buffer.from('png'));
    const erin = await t.createUser('erin', 'Editor');
    const take = (url: string) =>
      t.request({ method: 'POST', url, payload: { mode: 'edit' }, headers: { authorization: erin } });
    expect((await take('/cms/rest/leases/page/www/home')).statusCode).toBe(200);
    expect((await take('/cms/rest/leases/asset/Assets/images/logo.png')).statusCode).toBe(200);
    const pages = async () => (await children('www')).filter((i) => i.name === 'about' || i.name === 'home');
    const lease = (i: { name: string; checkedOut?: boolean; checkedOutUser?: string }) => [
      i.name,
      i.checkedOut ?? false,
      i.checkedOutUser ?? null,
    ];
    expect((await pages()).map(lease)).toEqual([
      ['about', false, null],
      ['home', true, 'erin'],
    ]);
    expect((await children('Assets/images')).map(lease)).toEqual([['logo.png', true, 'erin']]);
    const left = await t.request({
      method: 'DELETE',
      url: '/cms/rest/leases/page/www/home',
      headers: { authorization: erin },
    });
    expect(left.statusCode).toBe(200);
    expect((await pages()).map(lease)).toEqual([
      ['about', false, null],
      ['home', false, null],
    ]);
  });
});

describe('find by title', () => {
  it('finds pages by display name and sections by display title, in any case, with the title in the answer', async () => {
    await createSite(t, 'www');
    await createSection(t, 'www/about', { displayTitle: 'About us' });
    await createFolder(t, 'www/articles');
    const res = await t.request({
      method: 'PUT',
      url: '/cms/rest/pages/by-path/www/articles/welcome',
      payload: { templateName: 'basic', displayName: 'Welcome to Folio' },
    });
    expect(res.statusCode, res.body).toBe(201);

    const find = async (q: string) => {
      const r = await t.request({ method: 'GET', url: `/cms/rest/folders/find?q=${encodeURIComponent(q)}` });
      expect(r.statusCode, r.body).toBe(200);
      return FindResult.parse(r.json());
    };
    // The section by its title; its landing page carries the same title.
    expect((await find('about US')).map((r) => [r.path, r.kind, r.title])).toEqual([
      ['www/about', 'section', 'About us'],
      ['www/about/index', 'page', 'About us'],
    ]);
    expect(await find('WELCOME')).toEqual([
      {
        name: 'welcome',
        path: 'www/articles/welcome',
        kind: 'page',
        href: '/cms/rest/pages/by-path/www/articles/welcome',
        title: 'Welcome to Folio',
      },
    ]);
    // A folder has no title: found by its name only.
    expect((await find('artic')).map((r) => [r.path, r.title ?? null])).toEqual([['www/articles', null]]);
    // An asset by its display title or its alt text (in its fields), in any case.
    await t.app.folio.ctx.db.transaction().execute(async (trx) => {
      const chain = await ensureAssetFolder(trx, ['Assets', 'photos'], Date.now());
      await insertAssetRecord(trx, {
        folderId: chain[chain.length - 1]!.id,
        name: 'img-001.txt',
        type: 'cmsRichTextAsset',
        fields: { displaytitle: 'Harbour Sunset', alttext: 'A ship at dusk', text: '<p>Quay</p>' },
        actor: SYSTEM_ACTOR,
        now: Date.now(),
        folder: ['Assets', 'photos'],
      });
    });
    for (const q of ['sunSET', 'SHIP AT', 'img-001']) {
      expect(
        (await find(q)).map((r) => [r.path, r.title]),
        q,
      ).toEqual([['Assets/photos/img-001.txt', 'Harbour Sunset']]);
    }
    expect(await find('quay')).toEqual([]);
  });
});
