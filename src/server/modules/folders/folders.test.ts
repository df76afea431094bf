import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FindResult, Folder } from '../../../shared/api/folders.js';
import { SiteList } from '../../../shared/api/sites.js';
import http from 'node:http';
import { ADMIN, problemOf, createTestApp, type TestApp } from '../../test/harness.js';
import { splitPath } from '../../../shared/api/paths.js';
import { createFolderReads } from './folders.read.js';
import { foldersRepository } from './folders.repository.js';
import { represent } from './folders.represent.js';
import { locateFolder } from './folders.rules.js';
import {
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
  await createTemplate(t, 'landing');
});
afterEach(async () => {
  await t.close();
});

const P = '/cms/rest/pages/by-path';

/** Expects a problem response with this status and code and that the tree did not change. */
async function expectRefused(
  send: () => Promise<{ statusCode: number; headers: Record<string, unknown>; json(): unknown; body: string }>,
  status: number,
  code: string,
) {
  const before = await snapshot(t);
  const res = await send();
  expect(res.statusCode, res.body).toBe(status);
  expect(problemOf(res as never).code).toBe(code);
  expect(await snapshot(t)).toEqual(before);
  return problemOf(res as never);
}

describe('folders: authentication and bodies', () => {
  it('rejects unauthenticated', async () => {
    await createSite(t, 'www');
    for (const [method, url] of [
      ['GET', folderUrl('www')],
      ['PUT', folderUrl('www/a')],
      ['DELETE', folderUrl('www')],
      ['GET', '/cms/rest/sites'],
      ['GET', '/cms/rest/folders/find?q=w'],
      ['POST', '/cms/rest/folders/move'],
      ['POST', '/cms/rest/folders/copy'],
      ['POST', '/cms/rest/folders/rename'],
    ] as const) {
      const before = await snapshot(t);
      const res = await t.request({ method, url, headers: { authorization: '' } });
      expect(res.statusCode, `${method} ${url}`).toBe(401);
      expect(problemOf(res).code).toBe('UNAUTHENTICATED');
      expect(await snapshot(t)).toEqual(before);
    }
  });

  it('rejects an invalid body', async () => {
    await createSite(t, 'www');
    const p = await expectRefused(
      () =>
        putFolder(t, 'www/news', {
          workflow: 7,
          accessLevel: 'SUPER',
          sectionInfo: { targetWindow: '_new', externalLinkUrl: 'ftp://x' },
          subfolders: [{ name: '..' }],
        }),
      400,
      'INVALID_BODY',
    );
    expect(p.errors!.map((e) => e.path).sort()).toEqual([
      'body.accessLevel',
      'body.sectionInfo.externalLinkUrl',
      'body.sectionInfo.targetWindow',
      'body.subfolders.0.name',
      'body.workflow',
    ]);
    await expectRefused(
      () =>
        t.request({
          method: 'PUT',
          url: folderUrl('www/x'),
          headers: { 'content-type': 'application/json' },
          payload: '{"a":',
        }),
      400,
      'INVALID_JSON',
    );
    await expectRefused(() => putFolder(t, 'www/x', { workflow: 'Some Other Workflow' }), 400, 'INVALID_BODY');
    await expectRefused(
      () => putFolder(t, 'www/x', { subfolders: [{ name: 'a' }, { name: 'a' }] }),
      400,
      'INVALID_BODY',
    );
  });

  it('accepts a folder PUT without a body, with {} and wrapped as {"Folder": {...}}', async () => {
    await createSite(t, 'www');
    const none = await t.request({ method: 'PUT', url: folderUrl('www/a') });
    expect(none.statusCode, none.body).toBe(201);
    const empty = await t.request({
      method: 'PUT',
      url: folderUrl('www/b'),
      headers: { 'content-type': 'application/json' },
      payload: '',
    });
    expect(empty.statusCode, empty.body).toBe(201);
    expect((await putFolder(t, 'www/c', {})).statusCode).toBe(201);
    const wrapped = await putFolder(t, 'www/d', { Folder: { name: 'd', siteName: 'www', path: '' } });
    expect(wrapped.statusCode, wrapped.body).toBe(201);
    expect((await getFolder(t, 'www')).folder.subfolders!.map((f) => f.name)).toEqual(['a', 'b', 'c', 'd']);
  });
});

describe('sites', () => {
  it('creates a site with its landing page, in the shape of spec 2.6', async () => {
    const res = await putFolder(t, 'www', { siteName: 'www', sectionInfo: { templateName: 'landing' } });
    expect(res.statusCode, res.body).toBe(201);
    const site = Folder.strict().parse(res.json());
    expect(site).toEqual({
      id: expect.stringMatching(/^\d+-\d+-\d+$/),
      name: '',
      siteName: 'www',
      path: '',
      workflow: '[default]',
      accessLevel: 'ADMIN',
      sectionInfo: {
        displayTitle: 'Home',
        targetWindow: '_self',
        navClass: '',
        templateName: 'landing',
        landingPage: { name: 'index', href: `${P}/www/index` },
      },
      pages: [{ name: 'index', href: `${P}/www/index` }],
      subfolders: [],
      subsections: [],
    });
    const landing = await t.app.folio.ctx.db
      .selectFrom('pages')
      .innerJoin('nodes', 'nodes.id', 'pages.node_id')
      .select(['pages.template_name', 'pages.workflow_state', 'nodes.name'])
      .where('nodes.parent_id', '=', site.id)
      .executeTakeFirstOrThrow();
    expect(landing).toEqual({ template_name: 'landing', workflow_state: 'Draft', name: 'index' });
    const { res: got, folder } = await getFolder(t, 'www');
    expect(folder).toEqual(site);
    expect(got.headers.etag).toBe(res.headers.etag);
    expect(got.headers['content-type']).toContain('application/json');
  });

  it('needs a template to create a site, an existing one, and refuses the name Assets', async () => {
    const p = await expectRefused(() => putFolder(t, 'www', { siteName: 'www' }), 400, 'INVALID_BODY');
    expect(p.errors![0]!.path).toBe('body.sectionInfo.templateName');
    await expectRefused(() => putFolder(t, 'www'), 400, 'INVALID_BODY');
    await expectRefused(
      () => putFolder(t, 'www', { sectionInfo: { templateName: 'nope' } }),
      404,
      'TEMPLATE_NOT_FOUND',
    );
    await expectRefused(
      () => putFolder(t, 'Assets/x', { sectionInfo: { templateName: 'basic' } }),
      400,
      'INVALID_BODY',
    );
    expect((await putFolder(t, 'assets', { sectionInfo: { templateName: 'basic' } })).statusCode).toBe(201);
  });

  it('lists every site with its display title', async () => {
    await createSite(t, 'zeta', { displayTitle: 'Zeta Corp' });
    await createSite(t, 'alpha');
    await createSite(t, 'Ünïcode');
    const res = await t.request({ method: 'GET', url: '/cms/rest/sites' });
    expect(res.statusCode).toBe(200);
    expect(res.headers.etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(SiteList.parse(res.json())).toEqual([
      { id: expect.any(String), name: 'alpha', displayTitle: 'Home', href: '/cms/rest/folders/by-path/alpha' },
      {
        id: expect.any(String),
        name: 'Ünïcode',
        displayTitle: 'Home',
        href: '/cms/rest/folders/by-path/%C3%9Cn%C3%AFcode',
      },
      { id: expect.any(String), name: 'zeta', displayTitle: 'Zeta Corp', href: '/cms/rest/folders/by-path/zeta' },
    ]);
    const viewer = await t.createUser('vera', 'Viewer');
    expect(
      (await t.request({ method: 'GET', url: '/cms/rest/sites', headers: { authorization: viewer } })).json(),
    ).toHaveLength(3);
  });

  it('updates only the fields sent', async () => {
    await createSite(t, 'www', { displayTitle: 'Start', navClass: 'top' });
    const res = await putFolder(t, 'www', { sectionInfo: { targetWindow: '_blank' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().sectionInfo).toMatchObject({
      displayTitle: 'Start',
      navClass: 'top',
      targetWindow: '_blank',
      templateName: 'basic',
    });
    const wf = await putFolder(t, 'www', { workflow: 'Default Workflow' });
    expect(wf.json().workflow).toBe('Default Workflow');
    expect((await putFolder(t, 'www', { workflow: '[default]' })).json().workflow).toBe('[default]');
    expect(
      (await putFolder(t, 'www', { sectionInfo: { templateName: 'landing' } })).json().sectionInfo.templateName,
    ).toBe('landing');
  });

  it('answers 404 SITE_NOT_FOUND for a missing site, and for anything inside one', async () => {
    await expectRefused(() => t.request({ method: 'GET', url: folderUrl('nope') }), 404, 'SITE_NOT_FOUND');
    await expectRefused(() => putFolder(t, 'nope/a', {}), 404, 'SITE_NOT_FOUND');
    await expectRefused(() => putFolder(t, 'nope/a/b', {}), 404, 'SITE_NOT_FOUND');
  });
});

describe('folders and sections', () => {
  beforeEach(async () => {
    await createSite(t, 'www');
  });

  it('creates a folder (no sectionInfo) and reads it', async () => {
    const f = await createFolder(t, 'www/docs');
    expect(f).toEqual({
      id: expect.any(String),
      name: 'docs',
      siteName: 'www',
      path: '',
      workflow: '[default]',
      accessLevel: 'ADMIN',
      pages: [],
      subfolders: [],
    });
    await createFolder(t, 'www/docs/2024');
    const inner = (await getFolder(t, 'www/docs/2024')).folder;
    expect(inner).toMatchObject({ name: '2024', siteName: 'www', path: 'docs' });
    expect(inner.sectionInfo).toBeUndefined();
    expect(inner.subsections).toBeUndefined();
  });

  it('creates a section with its landing page from its template (default: the parent one)', async () => {
    const s = await createSection(t, 'www/news', { displayTitle: 'News', templateName: 'landing', navClass: 'n' });
    expect(s).toMatchObject({
      name: 'news',
      path: '',
      sectionInfo: {
        displayTitle: 'News',
        targetWindow: '_self',
        navClass: 'n',
        templateName: 'landing',
        landingPage: { name: 'index', href: `${P}/www/news/index` },
      },
      pages: [{ name: 'index', href: `${P}/www/news/index` }],
      subfolders: [],
      subsections: [],
    });
    const inner = await createSection(t, 'www/news/local', {});
    expect(inner.sectionInfo).toMatchObject({ templateName: 'landing', displayTitle: 'www/news/local' });
    const site = (await getFolder(t, 'www')).folder;
    expect(site.subsections).toEqual([{ name: 'news', href: folderUrl('www/news'), type: 'section' }]);
    expect(site.subfolders).toEqual([]);
    await expectRefused(
      () => putFolder(t, 'www/x', { sectionInfo: { templateName: 'missing' } }),
      404,
      'TEMPLATE_NOT_FOUND',
    );
  });

  it('lists pages, subfolders and subsections separately', async () => {
    await createSection(t, 'www/news');
    await createFolder(t, 'www/files');
    await createExternalLink(t, 'www/blog', 'https://blog.example.com/');
    await createSectionLink(t, 'www/latest', 'www/news');
    await createPage(t, 'www', 'about');
    const site = (await getFolder(t, 'www')).folder;
    expect(site.pages!.map((p) => p.name)).toEqual(['about', 'index']);
    expect(site.subfolders).toEqual([{ name: 'files', href: folderUrl('www/files') }]);
    expect(site.subsections).toEqual([
      { name: 'news', href: folderUrl('www/news'), type: 'section' },
      { name: 'blog', href: 'https://blog.example.com/', type: 'externallink' },
      { name: 'latest', href: folderUrl('www/news'), type: 'sectionlink' },
    ]);
  });

  it('creates and reads an external link in the spec shape', async () => {
    const res = await putFolder(t, 'www/ext', {
      name: 'ext',
      siteName: 'www',
      path: '',
      workflow: '[default]',
      sectionInfo: {
        type: 'externallink',
        displayTitle: 'Elsewhere',
        targetWindow: '_blank',
        navClass: 'x',
        externalLinkUrl: 'https://example.org/a?b=c',
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    const link = Folder.strict().parse(res.json());
    expect(link).toEqual({
      id: expect.any(String),
      name: 'ext',
      siteName: 'www',
      path: '',
      workflow: '[default]',
      accessLevel: 'ADMIN',
      sectionInfo: {
        type: 'externallink',
        displayTitle: 'Elsewhere',
        targetWindow: '_blank',
        navClass: 'x',
        externalLinkUrl: 'https://example.org/a?b=c',
      },
    });
    expect((await getFolder(t, 'www/ext')).folder).toEqual(link);
    const upd = await putFolder(t, 'www/ext', { sectionInfo: { externalLinkUrl: 'http://example.net/' } });
    expect(upd.json().sectionInfo).toMatchObject({ displayTitle: 'Elsewhere', externalLinkUrl: 'http://example.net/' });
    for (const url of ['javascript:alert(1)', '/relative', 'mailto:a@b.c', 'not a url']) {
      await expectRefused(
        () => putFolder(t, 'www/ext2', { sectionInfo: { type: 'externallink', externalLinkUrl: url } }),
        400,
        'INVALID_BODY',
      );
    }
    await expectRefused(() => putFolder(t, 'www/ext2', { sectionInfo: { type: 'externallink' } }), 400, 'INVALID_BODY');
  });

  it('creates a section link pointing at a section; refuses other targets', async () => {
    await createSection(t, 'www/news');
    await createFolder(t, 'www/files');
    const link = await createSectionLink(t, 'www/go', 'www/news');
    expect(link.sectionInfo).toEqual({
      type: 'sectionlink',
      displayTitle: 'go',
      targetWindow: '_self',
      navClass: '',
      linkTarget: { name: 'news', href: folderUrl('www/news') },
    });
    const target = (u: string) => ({ sectionInfo: { type: 'sectionlink', linkTarget: { href: u } } });
    await expectRefused(() => putFolder(t, 'www/l2', target(folderUrl('www/files'))), 409, 'TYPE_MISMATCH');
    await expectRefused(() => putFolder(t, 'www/l2', target(folderUrl('www/nothing'))), 404, 'FOLDER_NOT_FOUND');
    await expectRefused(() => putFolder(t, 'www/l2', target('https://example.com')), 400, 'INVALID_BODY');
    await expectRefused(() => putFolder(t, 'www/l2', target(`${P}/www/index`)), 400, 'INVALID_BODY');
    await expectRefused(() => putFolder(t, 'www/l2', { sectionInfo: { type: 'sectionlink' } }), 400, 'INVALID_BODY');
    // A section link lives only under a site or section.
    await expectRefused(() => putFolder(t, 'www/files/l3', target(folderUrl('www/news'))), 409, 'TYPE_MISMATCH');
    await expectRefused(
      () => putFolder(t, 'www/files/e', { sectionInfo: { type: 'externallink', externalLinkUrl: 'https://a.b/' } }),
      409,
      'TYPE_MISMATCH',
    );
    await expectRefused(() => putFolder(t, 'www/files/s', { sectionInfo: {} }), 409, 'TYPE_MISMATCH');
    // Re-pointing an existing link.
    await createSection(t, 'www/events');
    const moved = await putFolder(t, 'www/go', target(folderUrl('www/events')));
    expect(moved.json().sectionInfo.linkTarget).toEqual({ name: 'events', href: folderUrl('www/events') });
  });

  it('creates children through the parent: subfolders and subsections of every type, in order', async () => {
    await createSection(t, 'www/news');
    await createSection(t, 'www/events');
    const res = await putFolder(t, 'www/news', {
      subfolders: [{ name: 'archive', href: folderUrl('www/news/archive') }],
      subsections: [
        { name: 'ext', href: 'https://example.com/x', type: 'externallink' },
        { name: 'local', href: folderUrl('www/news/local'), type: 'section' },
        { name: 'to-events', href: folderUrl('www/events'), type: 'sectionlink' },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    const news = Folder.parse(res.json());
    expect(news.subfolders).toEqual([{ name: 'archive', href: folderUrl('www/news/archive') }]);
    expect(news.subsections).toEqual([
      { name: 'ext', href: 'https://example.com/x', type: 'externallink' },
      { name: 'local', href: folderUrl('www/news/local'), type: 'section' },
      { name: 'to-events', href: folderUrl('www/events'), type: 'sectionlink' },
    ]);
    const local = (await getFolder(t, 'www/news/local')).folder;
    expect(local.sectionInfo).toMatchObject({
      displayTitle: 'local',
      templateName: 'basic',
      landingPage: { name: 'index' },
    });
    expect((await getFolder(t, 'www/news/archive')).folder.path).toBe('news');

    // The order of subsections in a PUT is the navigation order; unlisted entries follow.
    const reordered = await putFolder(t, 'www/news', {
      subsections: [
        { name: 'to-events', href: folderUrl('www/events'), type: 'sectionlink' },
        { name: 'local', type: 'section' },
      ],
    });
    expect(reordered.json().subsections.map((s: { name: string }) => s.name)).toEqual(['to-events', 'local', 'ext']);
    expect((await getFolder(t, 'www/news')).folder.subsections!.map((s) => s.name)).toEqual([
      'to-events',
      'local',
      'ext',
    ]);

    // A subfolder of a plain folder through its parent.
    await putFolder(t, 'www/news/archive', { subfolders: [{ name: '2024' }, { name: '2023' }] });
    expect((await getFolder(t, 'www/news/archive')).folder.subfolders!.map((f) => f.name)).toEqual(['2023', '2024']);
  });

  it('refuses bad child entries and changes nothing', async () => {
    await createSection(t, 'www/news');
    await createFolder(t, 'www/news/archive');
    await createPage(t, 'www/news', 'story');
    await expectRefused(
      () => putFolder(t, 'www/news', { subfolders: [{ name: 'new' }, { name: 'story' }] }),
      409,
      'NAME_TAKEN',
    );
    await expectRefused(
      () =>
        putFolder(t, 'www/news', {
          subsections: [
            { name: 'ok', type: 'section' },
            { name: 'archive', type: 'section' },
          ],
        }),
      409,
      'NAME_TAKEN',
    );
    await expectRefused(
      () => putFolder(t, 'www/news', { subfolders: [{ name: 'x', href: folderUrl('www/elsewhere/x') }] }),
      409,
      'LOCATION_MISMATCH',
    );
    await expectRefused(
      () =>
        putFolder(t, 'www/news', { subsections: [{ name: 'l', type: 'sectionlink', href: folderUrl('www/none') }] }),
      404,
      'FOLDER_NOT_FOUND',
    );
    await expectRefused(
      () => putFolder(t, 'www/news', { subsections: [{ name: 'e', type: 'externallink', href: 'nope' }] }),
      400,
      'INVALID_BODY',
    );
    await expectRefused(
      () => putFolder(t, 'www/news/archive', { subsections: [{ name: 's', type: 'section' }] }),
      400,
      'INVALID_BODY',
    );
    await createExternalLink(t, 'www/news/ext');
    await expectRefused(
      () => putFolder(t, 'www/news', { subsections: [{ name: 'ext', type: 'section' }] }),
      409,
      'TYPE_MISMATCH',
    );
  });

  it('round-trips: GET, change a field, PUT back', async () => {
    await createSection(t, 'www/news');
    await createSectionLink(t, 'www/news/self', 'www/news');
    await createExternalLink(t, 'www/news/ext');
    await createFolder(t, 'www/news/a');
    const { folder } = await getFolder(t, 'www/news');
    const res = await putFolder(t, 'www/news', {
      ...folder,
      sectionInfo: { ...folder.sectionInfo!, displayTitle: 'Changed' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ ...folder, sectionInfo: { ...folder.sectionInfo, displayTitle: 'Changed' } });
    const site = (await getFolder(t, 'www')).folder;
    expect((await putFolder(t, 'www', site)).json()).toEqual(site);
  });

  it('refuses a name, siteName or path that differ from the URL: 409 LOCATION_MISMATCH', async () => {
    await createFolder(t, 'www/a');
    await expectRefused(() => putFolder(t, 'www/a/b', { name: 'c' }), 409, 'LOCATION_MISMATCH');
    await expectRefused(() => putFolder(t, 'www/a/b', { siteName: 'other' }), 409, 'LOCATION_MISMATCH');
    await expectRefused(() => putFolder(t, 'www/a/b', { path: 'x' }), 409, 'LOCATION_MISMATCH');
    await expectRefused(() => putFolder(t, 'www/a', { path: 'a' }), 409, 'LOCATION_MISMATCH');
    await expectRefused(() => putFolder(t, 'www', { path: 'x' }), 409, 'LOCATION_MISMATCH');
    await expectRefused(() => putFolder(t, 'www', { name: 'other' }), 409, 'LOCATION_MISMATCH');
    expect((await putFolder(t, 'www/a/b', { name: 'b', siteName: 'www', path: 'a' })).statusCode).toBe(201);
    expect((await putFolder(t, 'www/a/b', { path: '/a/' })).statusCode).toBe(200);
    expect((await putFolder(t, 'www', { name: '', siteName: 'www', path: '' })).statusCode).toBe(200);
  });

  it('refuses an id on create and a different id on update: 409 ID_MISMATCH', async () => {
    const a = await createFolder(t, 'www/a');
    await expectRefused(() => putFolder(t, 'www/b', { id: a.id }), 409, 'ID_MISMATCH');
    await expectRefused(() => putFolder(t, 'www/a', { id: '1-2-3' }), 409, 'ID_MISMATCH');
    expect((await putFolder(t, 'www/a', { id: a.id })).statusCode).toBe(200);
  });

  it('does not invent missing parents: 404 FOLDER_NOT_FOUND', async () => {
    await createFolder(t, 'www/a');
    const p = await expectRefused(() => putFolder(t, 'www/a/b/c', {}), 404, 'FOLDER_NOT_FOUND');
    expect(p.detail).toContain('www/a/b');
    await expectRefused(() => t.request({ method: 'GET', url: folderUrl('www/a/b') }), 404, 'FOLDER_NOT_FOUND');
    await createPage(t, 'www/a', 'page');
    await expectRefused(() => t.request({ method: 'GET', url: folderUrl('www/a/page') }), 404, 'FOLDER_NOT_FOUND');
    await expectRefused(() => putFolder(t, 'www/a/page/x', {}), 404, 'FOLDER_NOT_FOUND');
    await expectRefused(() => putFolder(t, 'www/a/page', {}), 409, 'TYPE_MISMATCH');
    await expectRefused(() => putFolder(t, 'www/a', { sectionInfo: { displayTitle: 'x' } }), 409, 'TYPE_MISMATCH');
  });

  it('refuses changing the type of a section or link', async () => {
    await createSection(t, 'www/s');
    await createExternalLink(t, 'www/e');
    await expectRefused(() => putFolder(t, 'www/s', { sectionInfo: { type: 'externallink' } }), 409, 'TYPE_MISMATCH');
    await expectRefused(() => putFolder(t, 'www/e', { sectionInfo: { type: 'section' } }), 409, 'TYPE_MISMATCH');
    await expectRefused(() => putFolder(t, 'www/e', { sectionInfo: { templateName: 'basic' } }), 400, 'INVALID_BODY');
    await expectRefused(
      () => putFolder(t, 'www/s', { sectionInfo: { externalLinkUrl: 'https://x.y/' } }),
      400,
      'INVALID_BODY',
    );
  });
});

describe('names', () => {
  beforeEach(async () => {
    await createSite(t, 'www');
  });

  it('accepts Unicode names and finds them again by their encoded paths', async () => {
    const names = ['Über uns', '日本語のフォルダ', 'emoji 🚀 launch', 'Ñandú & co', 'a+b=c?', '#hash', '100%'];
    for (const name of names) await createFolder(t, `www/${name}`);
    const site = (await getFolder(t, 'www')).folder;
    expect(site.subfolders!.map((f) => f.name).sort()).toEqual([...names].sort());
    for (const f of site.subfolders!) {
      const res = await t.request({ method: 'GET', url: f.href });
      expect(res.statusCode, f.href).toBe(200);
      expect(res.json().name).toBe(f.name);
    }
    await createSection(t, 'www/Nachrichten ü');
    expect((await getFolder(t, 'www/Nachrichten ü')).folder.pages![0]!.href).toBe(
      `${P}/www/Nachrichten%20%C3%BC/index`,
    );
  });

  it('refuses bad names with 400 and keeps names case-sensitive', async () => {
    for (const raw of ['x%00y', '%20lead', 'trail%20', 'x'.repeat(256)]) {
      const res = await t.request({ method: 'PUT', url: `/cms/rest/folders/by-path/www/${raw}`, payload: {} });
      expect(res.statusCode, raw).toBe(400);
      expect(problemOf(res).code).toBe('INVALID_PARAMETER');
    }
    for (const name of ['.', '..', 'a/b']) {
      await expectRefused(() => putFolder(t, 'www/ok', { subfolders: [{ name }] }), 400, 'INVALID_BODY');
    }
    expect((await putFolder(t, 'www/Docs', {})).statusCode).toBe(201);
    expect((await putFolder(t, 'www/docs', {})).statusCode).toBe(201);
    expect((await putFolder(t, 'www/Docs', {})).statusCode).toBe(200);
    expect((await getFolder(t, 'www')).folder.subfolders!.map((f) => f.name)).toEqual(['Docs', 'docs']);
  });

  it('refuses . and .. in a URL as sent on the wire (no normalisation)', async () => {
    // The injector normalises dot segments like a browser would; a raw HTTP client need not.
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const send = (method: string, rawPath: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const { hostname, port } = new URL(address);
        const options = { hostname, port, path: rawPath, method, headers: { authorization: ADMIN } };
        const req = http.request(options, (res) => {
          let body = '';
          res.on('data', (c: Buffer) => (body += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode!, body }));
        });
        req.on('error', reject);
        req.end();
      });
    for (const raw of ['/www/..', '/www/.', '/www/%2E%2E/x', '/www/./x', '/..']) {
      const before = await snapshot(t);
      const res = await send('PUT', `/cms/rest/folders/by-path${raw}`);
      expect(res.status, raw).toBe(400);
      expect(JSON.parse(res.body).code).toBe('INVALID_PARAMETER');
      expect((await send('GET', `/cms/rest/folders/by-path${raw}`)).status).toBe(400);
      expect(await snapshot(t)).toEqual(before);
    }
  });

  it('never lets two siblings share a name, whatever their kinds', async () => {
    await createPage(t, 'www', 'about');
    await expectRefused(() => putFolder(t, 'www/about', {}), 409, 'TYPE_MISMATCH');
    await createFolder(t, 'www/docs');
    await expectRefused(() => putFolder(t, 'www/docs', { sectionInfo: {} }), 409, 'TYPE_MISMATCH');
  });
});

describe('deep trees and scale', () => {
  it('creates, reads and addresses a tree 10 levels deep', async () => {
    await createSite(t, 'www');
    const names = Array.from({ length: 10 }, (_, i) => `level-${i + 1}`);
    for (let i = 1; i <= names.length; i++) await createFolder(t, ['www', ...names.slice(0, i)].join('/'));
    const deepest = (await getFolder(t, ['www', ...names].join('/'))).folder;
    expect(deepest).toMatchObject({ name: 'level-10', siteName: 'www', path: names.slice(0, 9).join('/') });
    const nine = (await getFolder(t, ['www', ...names.slice(0, 9)].join('/'))).folder;
    expect(nine.subfolders).toEqual([{ name: 'level-10', href: folderUrl(['www', ...names].join('/')) }]);
    // Sections ten deep, each with its landing page.
    let path = 'www';
    for (let i = 1; i <= 10; i++) {
      path += `/s${i}`;
      await createSection(t, path);
    }
    const s10 = (await getFolder(t, path)).folder;
    expect(s10.path).toBe('s1/s2/s3/s4/s5/s6/s7/s8/s9');
    expect(s10.sectionInfo!.landingPage!.href).toBe(`${P}/${path}/index`);
  });

  it('lists a folder of many children sorted by name', async () => {
    await createSite(t, 'www');
    await createFolder(t, 'www/big');
    const names = Array.from({ length: 300 }, (_, i) => `item ${i}`);
    const res = await putFolder(t, 'www/big', { subfolders: names.map((name) => ({ name })) });
    expect(res.statusCode).toBe(200);
    const listed = (await getFolder(t, 'www/big')).folder.subfolders!.map((f) => f.name);
    expect(listed).toHaveLength(300);
    expect(listed.slice(0, 3)).toEqual(['item 0', 'item 1', 'item 2']);
    expect(listed[299]).toBe('item 299');
  });
});

describe('reading in one statement', () => {
  it('answers the same JSON and ETag as the general way for every kind and role, and defers what it cannot answer', async () => {
    await createSite(t, 'www', { templateName: 'landing' });
    await createSection(t, 'www/news');
    await createFolder(t, 'www/news/Ärger 10');
    await createFolder(t, 'www/news/ärger 9');
    await createPage(t, 'www/news', 'item 2');
    await createPage(t, 'www/news', 'Item 10');
    await createExternalLink(t, 'www/news/out');
    await createSite(t, 'linked');
    await createSectionLink(t, 'linked/to-news', 'www/news');
    await createAsset(t, 'Assets/img/ünïcode', 'a.txt');
    const db = t.app.folio.ctx.db;
    await db.updateTable('nodes').set({ access_level: 'READ' }).where('name', '=', 'news').execute();
    const reads = createFolderReads(t.app.folio.ctx);
    const sync = t.app.folio.ctx.database.readNow !== undefined;
    const actors = [
      { username: 'admin', role: 'Admin' },
      { username: 'ed', role: 'Editor' },
      { username: 'vera', role: 'Viewer' },
    ] as const;
    const answered = [
      'www',
      'www/news',
      'www/news/Ärger 10',
      'www/news/out',
      'Assets',
      'Assets/img',
      'Assets/img/ünïcode',
    ];
    // Section links (their targets' paths), a container holding one, and what is not a folder take the general way.
    const deferred = ['linked', 'linked/to-news', 'www/news/item 2', 'www/nope', 'Assets/img/ünïcode/a.txt'];
    for (const actor of actors) {
      for (const path of answered) {
        const segments = splitPath(path);
        // The general way: the walk, the children, the link targets' paths, each a statement of its own.
        const general = await represent(db, actor, await locateFolder(db, segments), segments);
        expect(await foldersRepository.withChildrenByPath(db, segments), path).toBeDefined();
        const got = await reads.get(actor, segments);
        expect(got.json, `${path} as ${actor.role}`).toBe(general.json);
        expect(got.etag).toBe(general.etag);
        // Read again: on SQLite answered now (no promise) from what the first read stored.
        const now = reads.get(actor, segments);
        if (sync) expect(now instanceof Promise ? now : now.json, `${path} as ${actor.role}`).toBe(general.json);
        else expect(now, path).toBeInstanceOf(Promise);
        await now;
      }
      for (const path of deferred) {
        const later = reads.get(actor, splitPath(path));
        expect(later, path).toBeInstanceOf(Promise);
        await Promise.resolve(later).catch(() => undefined);
      }
    }
    // Over HTTP: the names in people's order, the access level capped below the section.
    const news = (await getFolder(t, 'www/news', { authorization: await t.createUser('ed', 'Editor') })).folder;
    expect(news.accessLevel).toBe('READ');
    expect(news.pages?.map((p) => p.name)).toEqual(['index', 'item 2', 'Item 10']);
    expect(news.subfolders?.map((p) => p.name)).toEqual(['ärger 9', 'Ärger 10']);
  });
});

describe('concurrency and ETags', () => {
  beforeEach(async () => {
    await createSite(t, 'www');
  });

  it('concurrent creates of one path: exactly one creates it, nothing is duplicated, nothing fails', async () => {
    const results = await Promise.all(Array.from({ length: 8 }, () => putFolder(t, 'www/race', { sectionInfo: {} })));
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 201)).toHaveLength(1);
    expect(codes.every((c) => c === 201 || c === 200 || c === 409)).toBe(true);
    const rows = await t.app.folio.ctx.db.selectFrom('nodes').select('id').where('name', '=', 'race').execute();
    expect(rows).toHaveLength(1);
    const pages = (await getFolder(t, 'www/race')).folder.pages;
    expect(pages).toEqual([{ name: 'index', href: `${P}/www/race/index` }]);
  });

  it('concurrent create-only PUTs (If-None-Match: *): exactly one wins, the others get 412', async () => {
    const results = await Promise.all(
      Array.from({ length: 6 }, () => putFolder(t, 'www/once', {}, { 'if-none-match': '*' })),
    );
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes).toEqual([201, 412, 412, 412, 412, 412]);
    for (const r of results.filter((x) => x.statusCode === 412)) expect(problemOf(r).code).toBe('PRECONDITION_FAILED');
  });

  it('sends a strong ETag of the exact body and honours If-Match on PUT', async () => {
    await createFolder(t, 'www/a');
    const { res } = await getFolder(t, 'www/a');
    const etag = res.headers.etag as string;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect((await getFolder(t, 'www/a')).res.headers.etag).toBe(etag);
    const ok = await putFolder(t, 'www/a', { subfolders: [{ name: 'b' }] }, { 'if-match': etag });
    expect(ok.statusCode).toBe(200);
    expect(ok.headers.etag).not.toBe(etag);
    await expectRefused(
      () => putFolder(t, 'www/a', { subfolders: [{ name: 'c' }] }, { 'if-match': etag }),
      412,
      'PRECONDITION_FAILED',
    );
    expect((await putFolder(t, 'www/a', {}, { 'if-match': ok.headers.etag as string })).statusCode).toBe(200);
    expect((await putFolder(t, 'www/a', {}, { 'if-match': '*' })).statusCode).toBe(200);
    await expectRefused(() => putFolder(t, 'www/new', {}, { 'if-match': '*' }), 412, 'PRECONDITION_FAILED');
    // A change inside (a new page) changes the folder's ETag too.
    const before = (await getFolder(t, 'www/a')).res.headers.etag;
    await createPage(t, 'www/a', 'p');
    expect((await getFolder(t, 'www/a')).res.headers.etag).not.toBe(before);
  });

  it('concurrent conflicting PUTs with the same If-Match: exactly one wins', async () => {
    await createSection(t, 'www/s');
    const etag = (await getFolder(t, 'www/s')).res.headers.etag as string;
    const results = await Promise.all(
      ['A', 'B', 'C'].map((title) =>
        putFolder(t, 'www/s', { sectionInfo: { displayTitle: title } }, { 'if-match': etag }),
      ),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 412, 412]);
  });
});

describe('access levels', () => {
  let viewer: string;
  let editor: string;
  let contributor: string;
  beforeEach(async () => {
    await createSite(t, 'www');
    await createFolder(t, 'www/open');
    await createFolder(t, 'www/locked');
    viewer = await t.createUser('vera', 'Viewer');
    editor = await t.createUser('ed', 'Editor');
    contributor = await t.createUser('cora', 'Contributor');
  });

  it('shows each user the level they have', async () => {
    expect((await getFolder(t, 'www/open', { authorization: viewer })).folder.accessLevel).toBe('READ');
    expect((await getFolder(t, 'www/open', { authorization: editor })).folder.accessLevel).toBe('WRITE');
    expect((await getFolder(t, 'www/open', { authorization: contributor })).folder.accessLevel).toBe('WRITE');
    expect((await getFolder(t, 'www/open')).folder.accessLevel).toBe('ADMIN');
  });

  it('lets viewers read and nothing else', async () => {
    const as = { authorization: viewer };
    await expectRefused(() => putFolder(t, 'www/open/x', {}, as), 403, 'NOT_AUTHORIZED');
    await expectRefused(
      () => putFolder(t, 'site2', { sectionInfo: { templateName: 'basic' } }, as),
      403,
      'NOT_AUTHORIZED',
    );
    await expectRefused(
      () => t.request({ method: 'DELETE', url: folderUrl('www/open'), headers: as }),
      403,
      'NOT_AUTHORIZED',
    );
    await expectRefused(
      () =>
        t.request({
          method: 'POST',
          url: '/cms/rest/folders/rename',
          payload: { path: 'www/open', newName: 'o' },
          headers: as,
        }),
      403,
      'NOT_AUTHORIZED',
    );
  });

  it('lets editors and contributors write, but only admins set accessLevel', async () => {
    expect((await putFolder(t, 'www/open/x', {}, { authorization: editor })).statusCode).toBe(201);
    expect((await putFolder(t, 'www/open/y', {}, { authorization: contributor })).statusCode).toBe(201);
    await expectRefused(
      () => putFolder(t, 'www/open', { accessLevel: 'READ' }, { authorization: editor }),
      403,
      'NOT_AUTHORIZED',
    );
    // Sending back the level the GET showed changes nothing and is fine.
    expect((await putFolder(t, 'www/open', { accessLevel: 'WRITE' }, { authorization: editor })).statusCode).toBe(200);
  });

  it('leaves creating, renaming and deleting sites to admins; editors still work inside a site', async () => {
    for (const as of [{ authorization: editor }, { authorization: contributor }]) {
      const created = await expectRefused(
        () => putFolder(t, 'site2', { sectionInfo: { templateName: 'basic' } }, as),
        403,
        'NOT_AUTHORIZED',
      );
      expect(created.detail).toMatch(/only admins create sites/i);
      await expectRefused(
        () => t.request({ method: 'DELETE', url: folderUrl('www'), headers: as }),
        403,
        'NOT_AUTHORIZED',
      );
      await expectRefused(
        () =>
          t.request({
            method: 'POST',
            url: '/cms/rest/folders/rename',
            payload: { path: 'www', newName: 'web' },
            headers: as,
          }),
        403,
        'NOT_AUTHORIZED',
      );
    }
    // Inside the site, and on the site's own properties, WRITE is what counts.
    const as = { authorization: editor };
    expect((await putFolder(t, 'www/news', { sectionInfo: { templateName: 'basic' } }, as)).statusCode).toBe(201);
    const site = await putFolder(t, 'www', { sectionInfo: { displayTitle: 'The web site' } }, as);
    expect(site.statusCode, site.body).toBe(200);
    // Admins do all three.
    expect((await putFolder(t, 'site2', { sectionInfo: { templateName: 'basic' } })).statusCode).toBe(201);
    const renamed = await t.request({
      method: 'POST',
      url: '/cms/rest/folders/rename',
      payload: { path: 'site2', newName: 'site3' },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect((await t.request({ method: 'DELETE', url: folderUrl('site3') })).statusCode).toBe(200);
  });

  it('READ set by an admin makes a folder and everything inside read-only for non-admins', async () => {
    const res = await putFolder(t, 'www/locked', { accessLevel: 'READ', subfolders: [{ name: 'inner' }] });
    expect(res.statusCode).toBe(200);
    expect(res.json().accessLevel).toBe('ADMIN');
    const as = { authorization: editor };
    expect((await getFolder(t, 'www/locked', as)).folder.accessLevel).toBe('READ');
    expect((await getFolder(t, 'www/locked/inner', as)).folder.accessLevel).toBe('READ');
    expect((await getFolder(t, 'www', as)).folder.accessLevel).toBe('WRITE');
    await expectRefused(() => putFolder(t, 'www/locked/inner/x', {}, as), 403, 'NOT_AUTHORIZED');
    await expectRefused(() => putFolder(t, 'www/locked', { subfolders: [{ name: 'y' }] }, as), 403, 'NOT_AUTHORIZED');
    await expectRefused(
      () => t.request({ method: 'DELETE', url: folderUrl('www/locked/inner'), headers: as }),
      403,
      'NOT_AUTHORIZED',
    );
    // Deleting what holds a read-only folder is refused too.
    await createSection(t, 'www/sec');
    await putFolder(t, 'www/sec', { subfolders: [{ name: 'ro' }] });
    await putFolder(t, 'www/sec/ro', { accessLevel: 'READ' });
    await expectRefused(
      () => t.request({ method: 'DELETE', url: `${folderUrl('www/sec')}?includeSubFolders=true`, headers: as }),
      403,
      'NOT_AUTHORIZED',
    );
    // An admin's round trip (accessLevel ADMIN) keeps the restriction; WRITE lifts it.
    const admin = (await getFolder(t, 'www/locked')).folder;
    await putFolder(t, 'www/locked', admin);
    expect((await getFolder(t, 'www/locked', as)).folder.accessLevel).toBe('READ');
    await putFolder(t, 'www/locked', { accessLevel: 'WRITE' });
    expect((await getFolder(t, 'www/locked', as)).folder.accessLevel).toBe('WRITE');
    expect((await putFolder(t, 'www/locked/inner/x', {}, as)).statusCode).toBe(201);
  });
});

describe('asset library folders', () => {
  it('creates, reads and lists asset folders under Assets', async () => {
    const res = await putFolder(t, 'Assets/images', {});
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toEqual({
      id: expect.any(String),
      name: 'images',
      siteName: 'Assets',
      path: '',
      workflow: '[default]',
      accessLevel: 'ADMIN',
      subfolders: [],
      assets: [],
    });
    await putFolder(t, 'Assets/images', { subfolders: [{ name: 'logos' }] });
    const { createAsset } = await import('./folders.fixtures.js');
    await createAsset(t, 'Assets/images/logos', 'logo.png', Buffer.from('png'));
    const logos = (await getFolder(t, 'Assets/images/logos')).folder;
    expect(logos).toMatchObject({ name: 'logos', siteName: 'Assets', path: 'images' });
    expect(logos.assets).toEqual([{ name: 'logo.png', href: '/cms/rest/assets/by-path/Assets/images/logos/logo.png' }]);
    const library = (await getFolder(t, 'Assets')).folder;
    expect(library).toMatchObject({ id: '0-0-2', name: '', siteName: 'Assets', path: '' });
    expect(library.subfolders).toEqual([{ name: 'images', href: folderUrl('Assets/images') }]);
    await expectRefused(
      () => putFolder(t, 'Assets/images', { subsections: [{ name: 's', type: 'section' }] }),
      400,
      'INVALID_BODY',
    );
    await expectRefused(() => putFolder(t, 'Assets/none/x', {}), 404, 'FOLDER_NOT_FOUND');
    await expectRefused(
      () => t.request({ method: 'GET', url: folderUrl('Assets/images/logos/logo.png') }),
      404,
      'FOLDER_NOT_FOUND',
    );
    await expectRefused(() => t.request({ method: 'DELETE', url: folderUrl('Assets') }), 409, 'CONFLICT');
    await expectRefused(() => putFolder(t, 'Assets', { sectionInfo: { displayTitle: 'x' } }), 409, 'TYPE_MISMATCH');
    const library2 = await putFolder(t, 'Assets', { siteName: 'Assets', subfolders: [{ name: 'docs' }] });
    expect(library2.statusCode, library2.body).toBe(200);
    expect(library2.json().subfolders.map((f: { name: string }) => f.name)).toEqual(['docs', 'images']);
    await expectRefused(
      () => t.request({ method: 'GET', url: '/cms/rest/folders/by-path/' }),
      400,
      'INVALID_PARAMETER',
    );
  });
});

describe('find', () => {
  it('finds items by part of their name, any case, Unicode too', async () => {
    await createSite(t, 'www');
    await createSection(t, 'www/News');
    await createFolder(t, 'www/News/old-news');
    await createFolder(t, 'www/Übersicht');
    await createPage(t, 'www/News', 'breaking news');
    await putFolder(t, 'Assets/newsletters', {});
    const find = async (q: string, extra = '') => {
      const res = await t.request({ method: 'GET', url: `/cms/rest/folders/find?q=${encodeURIComponent(q)}${extra}` });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers.etag).toBeTruthy();
      return FindResult.parse(res.json());
    };
    // Names and titles both count: the section's landing page carries its title ("www/News").
    expect(await find('NEWS')).toEqual([
      { name: 'News', path: 'www/News', kind: 'section', href: folderUrl('www/News'), title: 'www/News' },
      { name: 'newsletters', path: 'Assets/newsletters', kind: 'folder', href: folderUrl('Assets/newsletters') },
      { name: 'index', path: 'www/News/index', kind: 'page', href: `${P}/www/News/index`, title: 'www/News' },
      { name: 'old-news', path: 'www/News/old-news', kind: 'folder', href: folderUrl('www/News/old-news') },
      {
        name: 'breaking news',
        path: 'www/News/breaking news',
        kind: 'page',
        href: `${P}/www/News/breaking%20news`,
        title: 'breaking news',
      },
    ]);
    expect((await find('übersicht')).map((r) => r.path)).toEqual(['www/Übersicht']);
    expect((await find('ÜBER')).map((r) => r.path)).toEqual(['www/Übersicht']);
    expect((await find('news', '&kind=page')).map((r) => r.name)).toEqual(['index', 'breaking news']);
    expect(await find('news', '&limit=1')).toHaveLength(1);
    expect(await find('%_*?[')).toEqual([]);
    const bad = await t.request({ method: 'GET', url: '/cms/rest/folders/find?q=x&limit=500' });
    expect(bad.statusCode).toBe(400);
    expect((await t.request({ method: 'GET', url: '/cms/rest/folders/find' })).statusCode).toBe(400);
    expect((await t.request({ method: 'GET', url: '/cms/rest/folders/find?q=x&kind=nothing' })).statusCode).toBe(400);
  });
});
