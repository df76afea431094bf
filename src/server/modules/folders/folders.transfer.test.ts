import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, problemOf, type TestApp } from '../../test/harness.js';
import {
  addWidget,
  blobKeys,
  createAsset,
  createExternalLink,
  createFolder,
  createPage,
  createSection,
  createSectionLink,
  createSite,
  createTemplate,
  folderUrl,
  getFolder,
  putFolder,
  snapshot,
} from './folders.fixtures.js';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
  await createTemplate(t, 'basic');
  await createSite(t, 'www');
});
afterEach(async () => {
  await t.close();
});

const post = (op: 'move' | 'copy' | 'rename', payload: object, headers: Record<string, string> = {}) =>
  t.request({ method: 'POST', url: `/cms/rest/folders/${op}`, payload, headers });
const move = (itemPath: string, targetFolderPath: string, headers?: Record<string, string>) =>
  post('move', { itemPath, targetFolderPath }, headers);
const copy = (itemPath: string, targetFolderPath: string, headers?: Record<string, string>) =>
  post('copy', { itemPath, targetFolderPath }, headers);
const rename = (path: string, newName: string, headers?: Record<string, string>) =>
  post('rename', { path, newName }, headers);

async function expectRefused(send: () => ReturnType<typeof post>, status: number, code: string) {
  const before = await snapshot(t);
  const blobsBefore = await blobKeys(t);
  const res = await send();
  expect(res.statusCode, res.body).toBe(status);
  expect(problemOf(res).code).toBe(code);
  expect(await snapshot(t)).toEqual(before);
  expect(await blobKeys(t)).toEqual(blobsBefore);
}

const nodeOf = (id: string) =>
  t.app.folio.ctx.db.selectFrom('nodes').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

describe('tree operations: bodies and access', () => {
  it('rejects an invalid body', async () => {
    await expectRefused(() => post('move', { itemPath: 'www/a' }), 400, 'INVALID_BODY');
    await expectRefused(() => post('copy', { itemPath: 1, targetFolderPath: 'www' }), 400, 'INVALID_BODY');
    await expectRefused(() => post('rename', { path: 'www/a', newName: '..' }), 400, 'INVALID_BODY');
    await expectRefused(() => post('rename', { path: 'www/a', newName: 'a/b' }), 400, 'INVALID_BODY');
    await expectRefused(() => post('rename', { path: 'www/a', newName: ' a' }), 400, 'INVALID_BODY');
    await expectRefused(() => move('www/../x', 'www'), 400, 'INVALID_BODY');
    await expectRefused(() => move('///', 'www'), 400, 'INVALID_BODY');
  });

  it('lets only writers move, copy and rename', async () => {
    await createFolder(t, 'www/a');
    await createFolder(t, 'www/b');
    const viewer = { authorization: await t.createUser('vera', 'Viewer') };
    const editor = { authorization: await t.createUser('ed', 'Editor') };
    await expectRefused(() => move('www/a', 'www/b', viewer), 403, 'NOT_AUTHORIZED');
    await expectRefused(() => copy('www/a', 'www/b', viewer), 403, 'NOT_AUTHORIZED');
    await expectRefused(() => rename('www/a', 'z', viewer), 403, 'NOT_AUTHORIZED');
    await putFolder(t, 'www/b', { accessLevel: 'READ' });
    await expectRefused(() => move('www/a', 'www/b', editor), 403, 'NOT_AUTHORIZED');
    await expectRefused(() => copy('www/a', 'www/b', editor), 403, 'NOT_AUTHORIZED');
    await expectRefused(() => move('www/b', 'www/a', editor), 403, 'NOT_AUTHORIZED');
    await expectRefused(() => rename('www/b', 'z', editor), 403, 'NOT_AUTHORIZED');
    expect((await copy('www/b', 'www/a', editor)).statusCode).toBe(201);
    expect((await move('www/a', 'www/b')).statusCode).toBe(200);
  });
});

describe('move', () => {
  it('moves a folder with everything inside, keeping ids', async () => {
    const a = await createFolder(t, 'www/a');
    await createFolder(t, 'www/a/inner');
    await createPage(t, 'www/a/inner', 'p');
    await createFolder(t, 'www/b');
    const res = await move('www/a', 'www/b');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ name: 'a', path: 'www/b/a', kind: 'folder', href: folderUrl('www/b/a') });
    expect((await getFolder(t, 'www/a')).res.statusCode).toBe(404);
    const moved = (await getFolder(t, 'www/b/a')).folder;
    expect(moved).toMatchObject({
      id: a.id,
      path: 'b',
      subfolders: [{ name: 'inner', href: folderUrl('www/b/a/inner') }],
    });
    expect((await getFolder(t, 'www/b/a/inner')).folder.pages).toEqual([
      { name: 'p', href: '/cms/rest/pages/by-path/www/b/a/inner/p' },
    ]);
    // Moving to where it already is changes nothing.
    expect((await move('www/b/a', 'www/b')).statusCode).toBe(200);
  });

  it('refuses moving into itself or below it, onto a taken name, or to the wrong place', async () => {
    await createFolder(t, 'www/a');
    await createFolder(t, 'www/a/b');
    await createFolder(t, 'www/a/b/c');
    await createFolder(t, 'www/x');
    await createFolder(t, 'www/x/b');
    await createSection(t, 'www/s');
    await createPage(t, 'www/a', 'page');
    await expectRefused(() => move('www/a', 'www/a'), 409, 'INVALID_MOVE');
    await expectRefused(() => move('www/a', 'www/a/b/c'), 409, 'INVALID_MOVE');
    await expectRefused(() => move('www/a/b', 'www/x'), 409, 'NAME_TAKEN');
    await expectRefused(() => move('www/s', 'www/a'), 409, 'INVALID_MOVE');
    await expectRefused(() => move('www/a/b', 'www/a/page'), 409, 'INVALID_MOVE');
    await expectRefused(() => move('www', 'www/a'), 409, 'INVALID_MOVE');
    await expectRefused(() => move('www/a', 'Assets'), 409, 'INVALID_MOVE');
    await expectRefused(() => move('www/nothing', 'www/a'), 404, 'NOT_FOUND');
    await expectRefused(() => move('www/a', 'www/nothing'), 404, 'FOLDER_NOT_FOUND');
    await expectRefused(() => move('nosite/a', 'www'), 404, 'SITE_NOT_FOUND');
    await expectRefused(() => move('www/a/b', 'nosite'), 404, 'SITE_NOT_FOUND');
    await expectRefused(() => move('www/zz/a', 'www'), 404, 'FOLDER_NOT_FOUND');
  });

  it('moves sections and links only under sites and sections, to the end of the navigation', async () => {
    await createSection(t, 'www/one');
    await createSection(t, 'www/two');
    await createSection(t, 'www/two/child');
    await createExternalLink(t, 'www/ext');
    await createSectionLink(t, 'www/link', 'www/two/child');
    await createFolder(t, 'www/plain');
    await expectRefused(() => move('www/ext', 'www/plain'), 409, 'INVALID_MOVE');
    expect((await move('www/two/child', 'www')).statusCode).toBe(200);
    expect((await move('www/ext', 'www/one')).json()).toMatchObject({ kind: 'externallink', path: 'www/one/ext' });
    expect((await move('www/link', 'www/one')).statusCode).toBe(200);
    const site = (await getFolder(t, 'www')).folder;
    expect(site.subsections!.map((s) => s.name)).toEqual(['one', 'two', 'child']);
    expect((await getFolder(t, 'www/one')).folder.subsections).toEqual([
      { name: 'ext', href: 'https://example.com/', type: 'externallink' },
      { name: 'link', href: folderUrl('www/child'), type: 'sectionlink' },
    ]);
    // Folders may go into sections and back.
    expect((await move('www/plain', 'www/one')).statusCode).toBe(200);
    expect((await move('www/one/plain', 'www')).statusCode).toBe(200);
  });

  it('moves pages, but not a landing page', async () => {
    await createFolder(t, 'www/a');
    const pageId = await createPage(t, 'www', 'about');
    const res = await move('www/about', 'www/a');
    expect(res.json()).toEqual({
      name: 'about',
      path: 'www/a/about',
      kind: 'page',
      href: '/cms/rest/pages/by-path/www/a/about',
    });
    expect((await nodeOf(pageId)).name).toBe('about');
    await expectRefused(() => move('www/index', 'www/a'), 409, 'INVALID_MOVE');
    await expectRefused(() => move('www/a/about', 'Assets'), 409, 'INVALID_MOVE');
  });

  it('moves assets and asset folders within the asset library only', async () => {
    const logo = await createAsset(t, 'Assets/img', 'logo.png', Buffer.from('x'));
    await putFolder(t, 'Assets/other', {});
    const res = await move('Assets/img/logo.png', 'Assets/other');
    expect(res.json()).toEqual({
      name: 'logo.png',
      path: 'Assets/other/logo.png',
      kind: 'asset',
      href: '/cms/rest/assets/by-path/Assets/other/logo.png',
    });
    expect((await nodeOf(logo.id)).name).toBe('logo.png');
    expect((await move('Assets/other', 'Assets/img')).json()).toMatchObject({
      path: 'Assets/img/other',
      kind: 'folder',
    });
    await expectRefused(() => move('Assets/img', 'www'), 409, 'INVALID_MOVE');
    await expectRefused(() => move('Assets/img/other/logo.png', 'www'), 409, 'INVALID_MOVE');
    await expectRefused(() => move('Assets', 'Assets/img'), 409, 'INVALID_MOVE');
  });

  it('honours If-Match for folders and pages', async () => {
    await createFolder(t, 'www/a');
    await createFolder(t, 'www/b');
    const etag = (await getFolder(t, 'www/a')).res.headers.etag as string;
    await putFolder(t, 'www/a', { subfolders: [{ name: 'new' }] });
    await expectRefused(() => move('www/a', 'www/b', { 'if-match': etag }), 412, 'PRECONDITION_FAILED');
    const fresh = (await getFolder(t, 'www/a')).res.headers.etag as string;
    expect((await move('www/a', 'www/b', { 'if-match': fresh })).statusCode).toBe(200);

    await createPage(t, 'www', 'p');
    const page = await t.request({ method: 'GET', url: '/cms/rest/pages/by-path/www/p' });
    expect(page.statusCode, page.body).toBe(200);
    const pageEtag = page.headers.etag as string;
    await expectRefused(() => move('www/p', 'www/b', { 'if-match': '"stale"' }), 412, 'PRECONDITION_FAILED');
    expect((await move('www/p', 'www/b', { 'if-match': pageEtag })).statusCode).toBe(200);
    expect((await rename('www/b/p', 'q', { 'if-match': pageEtag })).statusCode).toBe(412);
    const moved = await t.request({ method: 'GET', url: '/cms/rest/pages/by-path/www/b/p' });
    expect((await rename('www/b/p', 'q', { 'if-match': moved.headers.etag as string })).statusCode).toBe(200);

    await createAsset(t, 'Assets/img', 'a.txt');
    await putFolder(t, 'Assets/other', {});
    const asset = await t.request({ method: 'GET', url: '/cms/rest/assets/by-path/Assets/img/a.txt' });
    expect(asset.statusCode, asset.body).toBe(200);
    await expectRefused(
      () => move('Assets/img/a.txt', 'Assets/other', { 'if-match': '"old"' }),
      412,
      'PRECONDITION_FAILED',
    );
    const ok = await move('Assets/img/a.txt', 'Assets/other', { 'if-match': asset.headers.etag as string });
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await rename('Assets/other/a.txt', 'b.txt', { 'if-match': '*' })).statusCode).toBe(200);
  });

  it('concurrent crossing moves (a into b, b into a): one wins, no cycle', async () => {
    await createFolder(t, 'www/a');
    await createFolder(t, 'www/b');
    const results = await Promise.all([move('www/a', 'www/b'), move('www/b', 'www/a')]);
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes[0]).toBe(200);
    // The loser finds its item gone (404) or its target now inside it (409).
    expect([404, 409]).toContain(codes[1]);
    const site = (await getFolder(t, 'www')).folder;
    expect(site.subfolders).toHaveLength(1);
    const top = site.subfolders![0]!.name;
    const other = top === 'a' ? 'b' : 'a';
    expect((await getFolder(t, `www/${top}/${other}`)).folder.subfolders).toEqual([]);
  });
});

describe('copy', () => {
  it('copies a folder with new ids and a unique name when taken', async () => {
    const a = await createFolder(t, 'www/a');
    await createFolder(t, 'www/a/inner');
    await createFolder(t, 'www/dest');
    const first = await copy('www/a', 'www/dest');
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json()).toEqual({ name: 'a', path: 'www/dest/a', kind: 'folder', href: folderUrl('www/dest/a') });
    const copied = (await getFolder(t, 'www/dest/a')).folder;
    expect(copied.id).not.toBe(a.id);
    expect(copied.subfolders!.map((f) => f.name)).toEqual(['inner']);
    expect((await copy('www/a', 'www')).json().name).toBe('a-copy');
    expect((await copy('www/a', 'www')).json().name).toBe('a-copy-2');
    expect((await copy('www/a', 'www/dest')).json().path).toBe('www/dest/a-copy');
    expect((await getFolder(t, 'www/a')).folder).toMatchObject({
      id: a.id,
      subfolders: [{ name: 'inner', href: folderUrl('www/a/inner') }],
    });
    await expectRefused(() => copy('www/a', 'www/a/inner'), 409, 'INVALID_MOVE');
    await expectRefused(() => copy('www', 'www/dest'), 409, 'INVALID_MOVE');
    await expectRefused(() => copy('www/nothing', 'www/dest'), 404, 'NOT_FOUND');
  });

  it('copies sections with their landing pages, pages with their widgets, and re-points inner links', async () => {
    await createSection(t, 'www/news');
    await createSection(t, 'www/news/local');
    await createSection(t, 'www/other');
    await createSectionLink(t, 'www/news/to-local', 'www/news/local');
    await createSectionLink(t, 'www/news/to-other', 'www/other');
    const shared = await createAsset(t, 'Assets/snippets', 'contact');
    const pageId = await createPage(t, 'www/news', 'story');
    const local = await addWidget(t, pageId, { fields: { text: '<p>hello</p>' } });
    const linked = await addWidget(t, pageId, { sharedAssetId: shared.id });

    const res = await copy('www/news', 'www/other');
    expect(res.statusCode, res.body).toBe(201);
    const copyOf = (await getFolder(t, 'www/other/news')).folder;
    expect(copyOf.sectionInfo!.landingPage).toEqual({
      name: 'index',
      href: '/cms/rest/pages/by-path/www/other/news/index',
    });
    expect(copyOf.pages!.map((p) => p.name)).toEqual(['index', 'story']);
    expect(copyOf.subsections).toEqual([
      { name: 'local', href: folderUrl('www/other/news/local'), type: 'section' },
      { name: 'to-local', href: folderUrl('www/other/news/local'), type: 'sectionlink' },
      { name: 'to-other', href: folderUrl('www/other'), type: 'sectionlink' },
    ]);
    const db = t.app.folio.ctx.db;
    const copyNode = await db.selectFrom('nodes').selectAll().where('id', '=', copyOf.id).executeTakeFirstOrThrow();
    const landing = await nodeOf(copyNode.landing_page_id!);
    expect(landing.parent_id).toBe(copyOf.id);
    const storyCopy = await db
      .selectFrom('nodes')
      .select('id')
      .where('parent_id', '=', copyOf.id)
      .where('name', '=', 'story')
      .executeTakeFirstOrThrow();
    expect(storyCopy.id).not.toBe(pageId);
    const widgets = await db
      .selectFrom('widgets')
      .selectAll()
      .where('page_id', '=', storyCopy.id)
      .orderBy('id')
      .execute();
    expect(widgets).toHaveLength(2);
    expect(widgets.map((w) => w.id)).not.toContain(local);
    expect(widgets.map((w) => w.id)).not.toContain(linked);
    expect(widgets.find((w) => w.fields)!.fields).toBe(JSON.stringify({ text: '<p>hello</p>' }));
    expect(widgets.find((w) => !w.fields)!.shared_asset_id).toBe(shared.id);
    const pageRow = await db
      .selectFrom('pages')
      .selectAll()
      .where('node_id', '=', storyCopy.id)
      .executeTakeFirstOrThrow();
    expect(pageRow).toMatchObject({
      template_name: 'basic',
      workflow_state: 'Draft',
      // Check-out is a lease (modules/leases): a copy is not checked out to anyone.
      checked_out: 0,
      checked_out_user: '',
    });
    // The original is untouched.
    expect(
      (await db.selectFrom('widgets').select('id').where('page_id', '=', pageId).execute()).map((w) => w.id).sort(),
    ).toEqual([local, linked].sort());
  });

  it('copies a page with a new name when the name is taken, never a landing page as a landing page', async () => {
    await createPage(t, 'www', 'about');
    expect((await copy('www/about', 'www')).json()).toMatchObject({ name: 'about-copy', kind: 'page' });
    expect((await copy('www/index', 'www')).json()).toMatchObject({ name: 'index-copy' });
    const site = (await getFolder(t, 'www')).folder;
    expect(site.pages!.map((p) => p.name)).toEqual(['about', 'about-copy', 'index', 'index-copy']);
    expect(site.sectionInfo!.landingPage!.name).toBe('index');
  });

  it('copies assets with their own blobs, never sharing a key', async () => {
    const a = await createAsset(t, 'Assets/img', 'logo.png', Buffer.from('logo bytes'));
    await createAsset(t, 'Assets/img/sub', 'b.bin', Buffer.from('bbb'));
    const res = await copy('Assets/img/logo.png', 'Assets/img');
    expect(res.json()).toMatchObject({ name: 'logo-copy.png', path: 'Assets/img/logo-copy.png', kind: 'asset' });
    const db = t.app.folio.ctx.db;
    const copyRow = await db
      .selectFrom('assets')
      .innerJoin('nodes', 'nodes.id', 'assets.node_id')
      .selectAll('assets')
      .where('nodes.name', '=', 'logo-copy.png')
      .executeTakeFirstOrThrow();
    expect(copyRow.blob_key).not.toBe(a.blobKey);
    expect(copyRow.thumb_blob_key).not.toBe(a.thumbKey);
    const read = async (key: string) => {
      const chunks: Buffer[] = [];
      for await (const c of await t.app.folio.ctx.blobs.get(key)) chunks.push(c as Buffer);
      return Buffer.concat(chunks).toString();
    };
    expect(await read(copyRow.blob_key!)).toBe('logo bytes');

    const before = (await blobKeys(t)).length;
    const folderCopy = await copy('Assets/img', 'Assets');
    expect(folderCopy.json()).toMatchObject({ name: 'img-copy', kind: 'folder' });
    expect((await blobKeys(t)).length).toBe(before + 6);
    expect((await getFolder(t, 'Assets/img-copy')).folder.assets!.map((x) => x.name)).toEqual([
      'logo-copy.png',
      'logo.png',
    ]);
    // Deleting the copy for good (past the trash) leaves the original's blobs alone.
    const del = await t.request({
      method: 'DELETE',
      url: `${folderUrl('Assets/img-copy')}?includeSubFolders=true&purge=true`,
    });
    expect(del.statusCode).toBe(200);
    expect((await blobKeys(t)).length).toBe(before);
    expect(await read(a.blobKey!)).toBe('logo bytes');
    await expectRefused(() => copy('Assets/img', 'www'), 409, 'INVALID_MOVE');
  });
});

describe('rename', () => {
  it('renames folders, sections, links, pages, assets and sites', async () => {
    const f = await createFolder(t, 'www/old');
    await createFolder(t, 'www/old/inner');
    const res = await rename('www/old', 'Neu ü');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ name: 'Neu ü', path: 'www/Neu ü', kind: 'folder', href: folderUrl('www/Neu ü') });
    expect((await getFolder(t, 'www/Neu ü')).folder.id).toBe(f.id);
    expect((await getFolder(t, 'www/Neu ü/inner')).folder.path).toBe('Neu ü');
    await createSection(t, 'www/sec');
    await createExternalLink(t, 'www/ext');
    expect((await rename('www/sec', 'section')).json().kind).toBe('section');
    expect((await rename('www/ext', 'link')).json().kind).toBe('externallink');
    await createPage(t, 'www', 'p');
    expect((await rename('www/p', 'page')).json().href).toBe('/cms/rest/pages/by-path/www/page');
    await createAsset(t, 'Assets/img', 'a.png', Buffer.from('a'));
    expect((await rename('Assets/img/a.png', 'B.png')).json().path).toBe('Assets/img/B.png');
    // The item finder finds it by its new name (its display title stays "a.png").
    const found = await t.request({ method: 'GET', url: '/cms/rest/folders/find?q=b.png&kind=asset' });
    expect((found.json() as { path: string }[]).map((r) => r.path)).toEqual(['Assets/img/B.png']);
    expect((await rename('www', 'web')).json()).toEqual({
      name: 'web',
      path: 'web',
      kind: 'site',
      href: folderUrl('web'),
    });
    expect(
      (await t.request({ method: 'GET', url: '/cms/rest/sites' })).json().map((s: { name: string }) => s.name),
    ).toEqual(['web']);
    expect((await getFolder(t, 'web')).folder.sectionInfo!.landingPage!.href).toBe('/cms/rest/pages/by-path/web/index');
    expect((await rename('web/section', 'section')).statusCode).toBe(200);
  });

  it('refuses taken names, the asset library, landing pages and stale If-Match', async () => {
    await createFolder(t, 'www/a');
    await createFolder(t, 'www/b');
    await createSite(t, 'other');
    await expectRefused(() => rename('www/a', 'b'), 409, 'NAME_TAKEN');
    await expectRefused(() => rename('www', 'other'), 409, 'NAME_TAKEN');
    await expectRefused(() => rename('www', 'Assets'), 409, 'NAME_TAKEN');
    await expectRefused(() => rename('Assets', 'Library'), 409, 'INVALID_MOVE');
    await expectRefused(() => rename('www/index', 'home'), 409, 'INVALID_MOVE');
    await expectRefused(() => rename('www/none', 'x'), 404, 'NOT_FOUND');
    const etag = (await getFolder(t, 'www/a')).res.headers.etag as string;
    await putFolder(t, 'www/a', { subfolders: [{ name: 'c' }] });
    await expectRefused(() => rename('www/a', 'z', { 'if-match': etag }), 412, 'PRECONDITION_FAILED');
    expect((await rename('www/a', 'A')).statusCode).toBe(200);
    expect((await getFolder(t, 'www')).folder.subfolders!.map((s) => s.name)).toEqual(['A', 'b']);
  });
});
