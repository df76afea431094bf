import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FolderContents } from '../../../shared/api/folders.js';
import { createTestApp, problemOf, type TestApp } from '../../test/harness.js';
import {
  addWidget,
  createAsset,
  createExternalLink,
  createFolder,
  createPage,
  createSection,
  createSectionLink,
  createSite,
  createTemplate,
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

const contentsUrl = (path: string) =>
  `/cms/rest/folders/contents/by-path/${path.split('/').map(encodeURIComponent).join('/')}`;

async function contentsOf(path: string, headers: Record<string, string> = {}) {
  const res = await t.request({ method: 'GET', url: contentsUrl(path), headers });
  expect(res.statusCode, res.body).toBe(200);
  return FolderContents.strict().parse(res.json());
}

const none = {
  folders: 0,
  sections: 0,
  sectionLinks: 0,
  externalLinks: 0,
  pages: 0,
  assets: 0,
  sectionLinksElsewhere: 0,
  widgetsElsewhere: 0,
};

describe('GET /cms/rest/folders/contents/by-path/…', () => {
  it('rejects unauthenticated', async () => {
    const res = await t.request({ method: 'GET', url: contentsUrl('www'), headers: { authorization: '' } });
    expect(res.statusCode).toBe(401);
    expect(problemOf(res).code).toBe('UNAUTHENTICATED');
  });

  it('rejects an invalid path', async () => {
    const res = await t.request({ method: 'GET', url: '/cms/rest/folders/contents/by-path/www/%2E%2E' });
    expect(res.statusCode).toBe(400);
    expect(problemOf(res).code).toBe('INVALID_PARAMETER');
    const empty = await t.request({ method: 'GET', url: '/cms/rest/folders/contents/by-path/' });
    expect(empty.statusCode).toBe(400);
  });

  it('counts everything below an item by kind, landing pages as pages, without changing anything', async () => {
    await createSection(t, 'www/news');
    await createFolder(t, 'www/news/archive');
    await createFolder(t, 'www/news/archive/2024');
    await createPage(t, 'www/news/archive/2024', 'story');
    await createPage(t, 'www/news/archive', 'older');
    await createSection(t, 'www/news/local');
    await createExternalLink(t, 'www/news/ext');
    await createSectionLink(t, 'www/news/to-local', 'www/news/local');
    const before = await snapshot(t);

    expect(await contentsOf('www/news')).toEqual({
      ...none,
      folders: 2,
      sections: 1,
      sectionLinks: 1,
      externalLinks: 1,
      // news/index, local/index, story, older
      pages: 4,
      empty: false,
    });
    expect(await contentsOf('www/news/archive')).toEqual({ ...none, folders: 1, pages: 2, empty: false });
    expect(await snapshot(t)).toEqual(before);
  });

  it('says a section or site holding only its landing page, a folder or a link is empty', async () => {
    await createSection(t, 'www/alone');
    await createFolder(t, 'www/f');
    await createExternalLink(t, 'www/ext');
    expect(await contentsOf('www/alone')).toEqual({ ...none, pages: 1, empty: true });
    expect(await contentsOf('www/f')).toEqual({ ...none, empty: true });
    expect(await contentsOf('www/ext')).toEqual({ ...none, empty: true });
    await createSite(t, 'solo');
    expect(await contentsOf('solo')).toEqual({ ...none, pages: 1, empty: true });
  });

  it('names section links elsewhere that point into the item, and widgets elsewhere that show its assets', async () => {
    await createSection(t, 'www/gone');
    await createSection(t, 'www/gone/inner');
    await createSection(t, 'www/stays');
    await createSectionLink(t, 'www/stays/to-gone', 'www/gone');
    await createSectionLink(t, 'www/stays/to-inner', 'www/gone/inner');
    await createSectionLink(t, 'www/gone/to-inner', 'www/gone/inner');
    expect(await contentsOf('www/gone')).toMatchObject({ sections: 1, sectionLinks: 1, sectionLinksElsewhere: 2 });

    await putFolder(t, 'Assets/img', {});
    const logo = await createAsset(t, 'Assets/img', 'logo.png', Buffer.from('logo'));
    await createAsset(t, 'Assets/img/deep', 'note');
    const page = await createPage(t, 'www', 'uses-logo');
    await addWidget(t, page, { sharedAssetId: logo.id });
    await addWidget(t, page, { fields: { text: 'local' } });
    expect(await contentsOf('Assets/img')).toEqual({
      ...none,
      folders: 1,
      assets: 2,
      widgetsElsewhere: 1,
      empty: false,
    });
    expect(await contentsOf('Assets')).toMatchObject({ folders: 2, assets: 2, widgetsElsewhere: 1 });
  });

  it('answers 404 for what is missing or not a folder, and is readable by viewers', async () => {
    await createPage(t, 'www', 'about');
    for (const [path, code] of [
      ['nope', 'SITE_NOT_FOUND'],
      ['www/nope', 'FOLDER_NOT_FOUND'],
      ['www/about', 'FOLDER_NOT_FOUND'],
    ] as const) {
      const res = await t.request({ method: 'GET', url: contentsUrl(path) });
      expect(res.statusCode).toBe(404);
      expect(problemOf(res).code).toBe(code);
    }
    const viewer = await t.createUser('vera', 'Viewer');
    expect(await contentsOf('www', { authorization: viewer })).toMatchObject({ pages: 2, empty: false });
  });
});
