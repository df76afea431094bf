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

const del = (path: string, opts: { query?: string; headers?: Record<string, string> } = {}) =>
  t.request({ method: 'DELETE', url: `${folderUrl(path)}${opts.query ?? ''}`, headers: opts.headers ?? {} });

async function expectRefused(send: () => ReturnType<typeof del>, status: number, code: string) {
  const before = await snapshot(t);
  const blobsBefore = await blobKeys(t);
  const res = await send();
  expect(res.statusCode, res.body).toBe(status);
  const p = problemOf(res);
  expect(p.code).toBe(code);
  expect(await snapshot(t)).toEqual(before);
  expect(await blobKeys(t)).toEqual(blobsBefore);
  return p as ReturnType<typeof problemOf> & { contents?: Record<string, number> };
}

const countNodes = async () =>
  Number(
    (
      await t.app.folio.ctx.db
        .selectFrom('nodes')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('deleting folders, sections and links', () => {
  it('deletes an empty folder, an empty section (with its landing page) and links', async () => {
    const nodes = await countNodes();
    await createFolder(t, 'www/empty');
    await createSection(t, 'www/sec');
    await createExternalLink(t, 'www/ext');
    await createSectionLink(t, 'www/link', 'www/sec');
    // For good (`purge=true`): the trash's round trip is in modules/trash/trash.test.ts.
    for (const path of ['www/empty', 'www/link', 'www/sec', 'www/ext']) {
      const res = await del(path, { query: '?purge=true' });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ message: 'Deleted' });
      expect((await getFolder(t, path)).res.statusCode).toBe(404);
    }
    expect(await countNodes()).toBe(nodes);
    expect(await t.app.folio.ctx.db.selectFrom('pages').select('node_id').execute()).toHaveLength(1); // www/index
  });

  it('refuses a non-empty folder or section, whatever is inside, and loses nothing', async () => {
    await createFolder(t, 'www/f1');
    await createFolder(t, 'www/f1/sub');
    await createFolder(t, 'www/f2');
    await createPage(t, 'www/f2', 'page');
    await createSection(t, 'www/s1');
    await createSection(t, 'www/s1/inner');
    await createSection(t, 'www/s2');
    await createExternalLink(t, 'www/s2/ext');
    await createSection(t, 'www/s3');
    await createSectionLink(t, 'www/s3/l', 'www/s1');
    for (const path of ['www/f1', 'www/f2', 'www/s1', 'www/s2', 'www/s3', 'www']) {
      await expectRefused(() => del(path), 409, 'FOLDER_NOT_EMPTY');
    }
    await expectRefused(() => del('www/s1', { query: '?includeSubFolders=false' }), 409, 'FOLDER_NOT_EMPTY');
    const p = await expectRefused(() => del('www/s1'), 409, 'FOLDER_NOT_EMPTY');
    expect(p.contents).toEqual({ folders: 0, sections: 1, sectionLinks: 0, externalLinks: 0, pages: 2, assets: 0 });
    expect(p.detail).toContain('includeSubFolders');
  });

  it('deletes a whole subtree with includeSubFolders=true (query or header), pages and widgets included', async () => {
    await createSection(t, 'www/news');
    await createFolder(t, 'www/news/archive');
    await createFolder(t, 'www/news/archive/2024');
    const pageId = await createPage(t, 'www/news/archive/2024', 'story');
    await addWidget(t, pageId, { fields: { text: '<p>local</p>' } });
    await createExternalLink(t, 'www/news/ext');
    const before = await countNodes();
    const res = await del('www/news', { query: '?includeSubFolders=true&purge=true' });
    expect(res.statusCode, res.body).toBe(200);
    expect(await countNodes()).toBe(before - 6);
    expect(await t.app.folio.ctx.db.selectFrom('widgets').select('id').execute()).toEqual([]);
    expect((await getFolder(t, 'www')).folder.subsections).toEqual([]);

    await createFolder(t, 'www/h');
    await createFolder(t, 'www/h/x');
    expect((await del('www/h', { headers: { includeSubFolders: 'true' } })).statusCode).toBe(200);
    expect((await getFolder(t, 'www/h')).res.statusCode).toBe(404);
    await createFolder(t, 'www/q');
    await createFolder(t, 'www/q/x');
    await expectRefused(() => del('www/q', { query: '?includeSubFolders=maybe' }), 400, 'INVALID_PARAMETER');
    await expectRefused(() => del('www/q', { headers: { includeSubFolders: 'nope' } }), 400, 'INVALID_PARAMETER');
    expect((await del('www/q', { query: '?includeSubFolders=TRUE' })).statusCode).toBe(200);
  });

  it('deletes a tree 10 levels deep in one go', async () => {
    let path = 'www/d';
    await createFolder(t, path);
    for (let i = 1; i < 10; i++) {
      path += `/d${i}`;
      await createFolder(t, path);
      await createPage(t, path, `p${i}`);
    }
    const before = await countNodes();
    expect((await del('www/d', { query: '?includeSubFolders=true&purge=true' })).statusCode).toBe(200);
    expect(await countNodes()).toBe(before - 19);
  });

  it('deletes a site: empty (only its landing page) or with includeSubFolders', async () => {
    await createSite(t, 'solo');
    expect((await del('solo', { query: '?purge=true' })).json()).toEqual({ message: 'Deleted' });
    await createFolder(t, 'www/x');
    await expectRefused(() => del('www'), 409, 'FOLDER_NOT_EMPTY');
    expect((await del('www', { query: '?includeSubFolders=true&purge=true' })).statusCode).toBe(200);
    expect((await t.request({ method: 'GET', url: '/cms/rest/sites' })).json()).toEqual([]);
    expect(await countNodes()).toBe(3); // the hidden root, the asset library and the trash root
  });

  it('removes section links elsewhere that point into what was deleted', async () => {
    await createSection(t, 'www/gone');
    await createSection(t, 'www/stays');
    await createSectionLink(t, 'www/stays/to-gone', 'www/gone');
    expect((await del('www/gone')).statusCode).toBe(200);
    expect((await getFolder(t, 'www/stays')).folder.subsections).toEqual([]);
  });

  it('answers 404 for what is not there, or not a folder', async () => {
    await createPage(t, 'www', 'about');
    await expectRefused(() => del('nope'), 404, 'SITE_NOT_FOUND');
    await expectRefused(() => del('www/nope'), 404, 'FOLDER_NOT_FOUND');
    await expectRefused(() => del('www/about'), 404, 'FOLDER_NOT_FOUND');
  });

  it('a delete racing creates inside: never a server error, never an orphan', async () => {
    for (let round = 0; round < 3; round++) {
      await createFolder(t, 'www/race');
      const results = await Promise.all([
        putFolder(t, 'www/race/x', {}),
        del('www/race', { query: '?includeSubFolders=true' }),
        putFolder(t, 'www/race/y', { sectionInfo: {} }),
        t.request({
          method: 'POST',
          url: '/cms/rest/folders/move',
          payload: { itemPath: 'www/race', targetFolderPath: 'www/race' },
        }),
      ]);
      for (const r of results) expect(r.statusCode, r.body).toBeLessThan(500);
      expect(results[1]!.statusCode).toBe(200);
      const orphans = await t.app.folio.ctx.db
        .selectFrom('nodes as n')
        .leftJoin('nodes as p', 'p.id', 'n.parent_id')
        .select('n.id')
        .where('n.parent_id', 'is not', null)
        .where('p.id', 'is', null)
        .execute();
      expect(orphans).toEqual([]);
      if ((await getFolder(t, 'www/race')).res.statusCode === 200) {
        expect((await del('www/race', { query: '?includeSubFolders=true' })).statusCode).toBe(200);
      }
    }
  });

  it('honours If-Match', async () => {
    await createFolder(t, 'www/a');
    const etag = (await getFolder(t, 'www/a')).res.headers.etag as string;
    await putFolder(t, 'www/a', { workflow: 'Default Workflow' });
    await expectRefused(() => del('www/a', { headers: { 'if-match': etag } }), 412, 'PRECONDITION_FAILED');
    const fresh = (await getFolder(t, 'www/a')).res.headers.etag as string;
    expect((await del('www/a', { headers: { 'if-match': fresh } })).statusCode).toBe(200);
  });
});

describe('deleting asset folders', () => {
  it('deletes assets, their blobs (after commit) and the widgets that linked them', async () => {
    await putFolder(t, 'Assets/img', {});
    const logo = await createAsset(t, 'Assets/img', 'logo.png', Buffer.from('logo bytes'));
    const nested = await createAsset(t, 'Assets/img/deep', 'b.bin', Buffer.from('b'));
    const keep = await createAsset(t, 'Assets/keep', 'k.bin', Buffer.from('k'));
    const pageId = await createPage(t, 'www', 'uses-logo');
    const linkedWidget = await addWidget(t, pageId, { sharedAssetId: logo.id });
    const localWidget = await addWidget(t, pageId, { fields: { text: 'x' } });
    const keptWidget = await addWidget(t, pageId, { sharedAssetId: keep.id });

    const p = await expectRefused(() => del('Assets/img'), 409, 'FOLDER_NOT_EMPTY');
    expect(p.contents).toMatchObject({ folders: 1, assets: 2 });

    const pageBefore = await t.app.folio.ctx.db
      .selectFrom('pages')
      .select('updated_at')
      .where('node_id', '=', pageId)
      .executeTakeFirstOrThrow();
    t.advance(1000);
    const res = await del('Assets/img', { query: '?includeSubFolders=true&purge=true' });
    expect(res.statusCode, res.body).toBe(200);
    const widgets = (await t.app.folio.ctx.db.selectFrom('widgets').select('id').execute()).map((w) => w.id).sort();
    expect(widgets).toEqual([localWidget, keptWidget].sort());
    expect(widgets).not.toContain(linkedWidget);
    const pageAfter = await t.app.folio.ctx.db
      .selectFrom('pages')
      .select('updated_at')
      .where('node_id', '=', pageId)
      .executeTakeFirstOrThrow();
    expect(pageAfter.updated_at > pageBefore.updated_at).toBe(true);
    const keys = await blobKeys(t);
    for (const k of [logo.blobKey, logo.thumbKey, nested.blobKey, nested.thumbKey]) expect(keys).not.toContain(k);
    expect(keys).toContain(keep.blobKey);
    expect((await getFolder(t, 'Assets')).folder.subfolders!.map((f) => f.name)).toEqual(['keep']);
  });
});
