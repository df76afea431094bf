import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AssetList } from '../../../shared/api/assets.js';
import { isPostgres } from '../../db/dialect.js';
import { LIBRARY_NODE_ID } from '../../db/structure.js';
import { createTestApp, problemOf, type TestApp } from '../../test/harness.js';
import { encodePath, image, pdf, upload } from './assets.fixtures.js';
import { assetListQueries, type ListFilter } from './assets.list-queries.js';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});
afterEach(async () => {
  await t.close();
});

/** A rich text asset at `path`, created a minute after the previous one. */
async function createText(path: string, extra: Record<string, unknown> = {}) {
  t.advance(60_000);
  const res = await t.request({
    method: 'PUT',
    url: `/cms/rest/assets/by-path/${encodePath(path)}`,
    payload: { type: 'cmsRichTextAsset', fields: { text: '<p>x</p>' }, ...extra },
  });
  expect(res.statusCode, res.body).toBe(201);
}

async function list(folder: string, query = '', headers: Record<string, string> = {}) {
  const res = await t.request({
    method: 'GET',
    url: `/cms/rest/assets/list/${encodePath(folder)}${query ? `?${query}` : ''}`,
    headers,
  });
  expect(res.statusCode, res.body).toBe(200);
  return AssetList.parse(res.json());
}

/** Every item of a listing, following the cursors with pages of `limit`. */
async function walk(folder: string, query: string, limit: number) {
  const names: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const q: string = [query, `limit=${limit}`, cursor ? `cursor=${cursor}` : ''].filter(Boolean).join('&');
    const page = await list(folder, q);
    expect(page.items.length).toBeLessThanOrEqual(limit);
    names.push(...page.items.map((i) => `${i.folderPath}/${i.name}`));
    cursor = page.nextCursor;
    pages++;
  } while (cursor);
  return { names, pages };
}

describe('asset listing: guards', () => {
  it('rejects unauthenticated', async () => {
    const res = await t.request({ method: 'GET', url: '/cms/rest/assets/list/Assets', headers: { authorization: '' } });
    expect(res.statusCode).toBe(401);
  });

  it('rejects an invalid query', async () => {
    await createText('Assets/a/x');
    for (const q of [
      'limit=0',
      'limit=201',
      'limit=ten',
      'sort=colour',
      'missingAltText=yes',
      'order=up',
      'recursive=yes',
      'type=cmsNope',
      'state=Gone',
    ]) {
      const res = await t.request({ method: 'GET', url: `/cms/rest/assets/list/Assets/a?${q}` });
      expect(res.statusCode, q).toBe(400);
      expect(problemOf(res).code).toBe('INVALID_PARAMETER');
    }
    for (const cursor of ['garbage', Buffer.from('{"s":"name"}').toString('base64url')]) {
      const res = await t.request({ method: 'GET', url: `/cms/rest/assets/list/Assets/a?cursor=${cursor}` });
      expect(res.statusCode).toBe(400);
      expect(problemOf(res).errors?.[0]?.path).toBe('query.cursor');
    }
    const page = await list('Assets/a', 'limit=1');
    expect(page.nextCursor).toBeNull();
  });

  it('answers 404 for a folder that does not exist or is not a folder', async () => {
    await createText('Assets/a/x');
    for (const folder of ['Assets/none', 'Assets/a/x', 'Elsewhere']) {
      const res = await t.request({ method: 'GET', url: `/cms/rest/assets/list/${folder}` });
      expect(res.statusCode, folder).toBe(404);
      expect(problemOf(res).code).toBe('FOLDER_NOT_FOUND');
    }
  });
});

describe('asset listing', () => {
  it('pages through a folder by name with a cursor, both ways, with the total', async () => {
    const names = ['delta', 'alpha', 'echo', 'charlie', 'bravo', 'golf', 'foxtrot'];
    for (const n of names) await createText(`Assets/lib/${n}`);
    await createText('Assets/lib/sub/zulu');
    const first = await list('Assets/lib', 'limit=3');
    expect(first.total).toBe(7);
    expect(first.items.map((i) => i.name)).toEqual(['alpha', 'bravo', 'charlie']);
    expect(first.items[0]).toMatchObject({ type: 'cmsRichTextAsset', folderPath: 'Assets/lib' });
    const asc = await walk('Assets/lib', '', 3);
    expect(asc).toEqual({ names: [...names].sort().map((n) => `Assets/lib/${n}`), pages: 3 });
    const desc = await walk('Assets/lib', 'order=desc', 2);
    expect(desc.names).toEqual(
      [...names]
        .sort()
        .reverse()
        .map((n) => `Assets/lib/${n}`),
    );
    expect((await list('Assets/lib')).items).toHaveLength(7);
  });

  it('sorts by last modification, either way', async () => {
    for (const n of ['c', 'a', 'b']) await createText(`Assets/m/${n}`);
    t.advance(60_000);
    await t.request({
      method: 'PUT',
      url: '/cms/rest/assets/by-path/Assets/m/c',
      payload: { fields: { text: 'new' } },
    });
    expect((await walk('Assets/m', 'sort=lastModifiedDate', 1)).names).toEqual([
      'Assets/m/a',
      'Assets/m/b',
      'Assets/m/c',
    ]);
    expect((await walk('Assets/m', 'sort=lastModifiedDate&order=desc', 2)).names).toEqual([
      'Assets/m/c',
      'Assets/m/b',
      'Assets/m/a',
    ]);
    const cursor = (await list('Assets/m', 'sort=lastModifiedDate&limit=1')).nextCursor!;
    const wrongSort = await t.request({ method: 'GET', url: `/cms/rest/assets/list/Assets/m?cursor=${cursor}` });
    expect(wrongSort.statusCode).toBe(400);
  });

  it('lists a whole subtree with recursive=true, each item with its own folder path', async () => {
    await createText('Assets/r/b');
    await createText('Assets/r/x/a');
    await createText('Assets/r/x/y/c');
    await createText('Assets/elsewhere/d');
    const all = await walk('Assets/r', 'recursive=true', 2);
    expect(all.names).toEqual(['Assets/r/x/a', 'Assets/r/b', 'Assets/r/x/y/c']);
    expect((await list('Assets/r', 'recursive=true')).total).toBe(3);
    expect((await list('Assets', 'recursive=true')).total).toBe(4);
    expect((await list('Assets')).total).toBe(0);
    const byDate = await walk('Assets/r', 'recursive=true&sort=lastModifiedDate&order=desc', 1);
    expect(byDate.names).toEqual(['Assets/r/x/y/c', 'Assets/r/x/a', 'Assets/r/b']);
    // Same names in different folders keep their order by id.
    await createText('Assets/r/x/b');
    expect((await walk('Assets/r', 'recursive=true', 1)).names).toEqual([
      'Assets/r/x/a',
      'Assets/r/b',
      'Assets/r/x/b',
      'Assets/r/x/y/c',
    ]);
  });

  it('filters by q with the search engine over name, title and alt text (any case, Unicode), type, state', async () => {
    await createText('Assets/q/Straße');
    await upload(t, 'Assets/q/photo.png', await image('png', 20, 20));
    await t.request({
      method: 'PUT',
      url: '/cms/rest/assets/by-path/Assets/q/photo.png',
      payload: { fields: { alttext: 'A red SUNSET over Köln', displaytitle: 'Holiday' } },
    });
    await t.request({
      method: 'PUT',
      url: '/cms/rest/assets/by-path/Assets/q/list',
      payload: {
        type: 'cmsSimpleAutoList',
        fields: { query: 'x', displaytitle: '100%_done' },
        workflow: { state: 'Public' },
      },
    });
    const names = async (q: string) => (await list('Assets/q', q)).items.map((i) => i.name);
    expect(await names('q=sunset')).toEqual(['photo.png']);
    expect(await names('q=KÖLN')).toEqual(['photo.png']);
    expect(await names('q=holi')).toEqual(['photo.png']);
    expect(await names('q=STRASSE')).toEqual([]);
    expect(await names(`q=${encodeURIComponent('straße')}`)).toEqual(['Straße']);
    expect(await names(`q=${encodeURIComponent('100%_')}`)).toEqual(['list']);
    // The search engine's words: stems, the last word as a prefix, phrases, exclusions; punctuation is no word.
    expect(await names('q=sunsets')).toEqual(['photo.png']);
    expect(await names(`q=${encodeURIComponent('"red sunset"')}`)).toEqual(['photo.png']);
    expect(await names(`q=${encodeURIComponent('"sunset red"')}`)).toEqual([]);
    expect(await names(`q=${encodeURIComponent('holiday -köln')}`)).toEqual([]);
    expect(await names(`q=${encodeURIComponent('%')}`)).toEqual([]);
    expect(await names('q=_')).toEqual([]);
    expect(await names('type=cmsImageAsset')).toEqual(['photo.png']);
    expect(await names('state=Public')).toEqual(['list']);
    expect(await names('state=Draft&type=cmsRichTextAsset')).toEqual(['Straße']);
    expect((await list('Assets/q', 'q=s&limit=1')).total).toBe(2);
    // The alt text change is searchable only while it is there.
    await t.request({
      method: 'PUT',
      url: '/cms/rest/assets/by-path/Assets/q/photo.png',
      payload: { fields: { alttext: null } },
    });
    expect(await names('q=sunset')).toEqual([]);
  });

  it('sorts by type, state and size (then by name), either way, through cursors', async () => {
    await upload(t, 'Assets/s/big.png', await image('png', 300, 200));
    await upload(t, 'Assets/s/small.png', await image('png', 8, 8));
    await upload(t, 'Assets/s/doc.pdf', pdf());
    await createText('Assets/s/b-text');
    await createText('Assets/s/a-text', { workflow: { state: 'Public' } });
    await createText('Assets/s/sub/z-text');
    const sizes = async (name: string) => {
      const res = await t.request({ method: 'GET', url: `/cms/rest/assets/by-path/Assets/s/${name}` });
      const meta = res.json() as { image?: { size: number }; file?: { size: number } };
      return meta.image?.size ?? meta.file?.size ?? -1;
    };
    const bySize = [
      ['a-text', -1],
      ['b-text', -1],
      ...(await Promise.all(['big.png', 'small.png', 'doc.pdf'].map(async (n) => [n, await sizes(n)] as const))).sort(
        (x, y) => x[1] - y[1] || (x[0] < y[0] ? -1 : 1),
      ),
    ].map(([n]) => `Assets/s/${n}`);
    for (const limit of [1, 2, 50]) {
      expect((await walk('Assets/s', 'sort=size', limit)).names, `size ${limit}`).toEqual(bySize);
      expect((await walk('Assets/s', 'sort=size&order=desc', limit)).names).toEqual([...bySize].reverse());
      expect((await walk('Assets/s', 'sort=type', limit)).names).toEqual(
        ['doc.pdf', 'big.png', 'small.png', 'a-text', 'b-text'].map((n) => `Assets/s/${n}`),
      );
      expect((await walk('Assets/s', 'sort=state&order=desc', limit)).names).toEqual(
        ['a-text', 'small.png', 'doc.pdf', 'big.png', 'b-text'].map((n) => `Assets/s/${n}`),
      );
    }
    expect((await walk('Assets/s', 'sort=type&recursive=true', 2)).names.slice(-3)).toEqual([
      'Assets/s/a-text',
      'Assets/s/b-text',
      'Assets/s/sub/z-text',
    ]);
    // A cursor of one sort is refused by another, and a size cursor must hold a number.
    const cursor = (await list('Assets/s', 'sort=type&limit=1')).nextCursor!;
    for (const q of [`sort=state&cursor=${cursor}`, `sort=name&cursor=${cursor}`]) {
      const res = await t.request({ method: 'GET', url: `/cms/rest/assets/list/Assets/s?${q}` });
      expect(res.statusCode, q).toBe(400);
    }
    const forged = Buffer.from(JSON.stringify({ s: 'size', o: 'asc', v: 'big', i: '1-1-1', n: 'x' })).toString(
      'base64url',
    );
    const res = await t.request({ method: 'GET', url: `/cms/rest/assets/list/Assets/s?sort=size&cursor=${forged}` });
    expect(res.statusCode).toBe(400);
  });

  it('lists the images without alt text with missingAltText=true', async () => {
    for (const n of ['a.png', 'b.png', 'c.png', 'd.png']) await upload(t, `Assets/alt/${n}`, await image('png', 4, 4));
    await upload(t, 'Assets/alt/doc.pdf', pdf());
    await createText('Assets/alt/text');
    const put = (name: string, fields: Record<string, unknown>) =>
      t.request({ method: 'PUT', url: `/cms/rest/assets/by-path/Assets/alt/${name}`, payload: { fields } });
    expect((await put('a.png', { alttext: 'A described picture' })).statusCode).toBe(200);
    expect((await put('b.png', { alttext: '   ' })).statusCode).toBe(200);
    expect((await put('c.png', { alttext: 'was set' })).statusCode).toBe(200);
    expect((await put('c.png', { alttext: null })).statusCode).toBe(200);
    const missing = await list('Assets/alt', 'missingAltText=true');
    expect(missing.items.map((i) => i.name)).toEqual(['b.png', 'c.png', 'd.png']);
    expect(missing.total).toBe(3);
    expect((await list('Assets', 'missingAltText=true&recursive=true')).total).toBe(3);
    expect((await walk('Assets/alt', 'missingAltText=true&sort=lastModifiedDate', 1)).names).toHaveLength(3);
    expect((await list('Assets/alt', 'missingAltText=false')).total).toBe(6);
    expect((await list('Assets/alt', 'missingAltText=true&q=d')).items.map((i) => i.name)).toEqual(['d.png']);
  });

  it('keeps its place when assets are added between pages', async () => {
    for (const n of ['b', 'd', 'f', 'h']) await createText(`Assets/k/${n}`);
    const first = await list('Assets/k', 'limit=2');
    expect(first.items.map((i) => i.name)).toEqual(['b', 'd']);
    await createText('Assets/k/a');
    await createText('Assets/k/e');
    const second = await list('Assets/k', `limit=2&cursor=${first.nextCursor}`);
    expect(second.items.map((i) => i.name)).toEqual(['e', 'f']);
  });

  it('lets viewers list', async () => {
    await createText('Assets/v/a');
    const vera = await t.createUser('vera', 'Viewer');
    expect((await list('Assets/v', '', { authorization: vera })).total).toBe(1);
  });

  it('reads every page as an index range (SQLite query plan)', async () => {
    const db = t.app.folio.ctx.db;
    if (isPostgres(db)) return; // PostgreSQL plans by table statistics; the SQLite plan is deterministic.
    const filters: ListFilter[] = [
      { folderId: LIBRARY_NODE_ID, folderPath: 'Assets', recursive: false, sort: 'name', order: 'asc' },
      { folderId: LIBRARY_NODE_ID, folderPath: 'Assets', recursive: false, sort: 'name', order: 'desc' },
      { folderId: LIBRARY_NODE_ID, folderPath: 'Assets', recursive: false, sort: 'lastModifiedDate', order: 'asc' },
      { folderId: LIBRARY_NODE_ID, folderPath: 'Assets', recursive: false, sort: 'lastModifiedDate', order: 'desc' },
      { folderId: LIBRARY_NODE_ID, folderPath: 'Assets', recursive: true, sort: 'lastModifiedDate', order: 'asc' },
      { folderId: LIBRARY_NODE_ID, folderPath: 'Assets', recursive: true, sort: 'lastModifiedDate', order: 'desc' },
    ];
    for (const f of filters) {
      const compiled = assetListQueries.listPageQuery(db, f, { value: 'm', id: '1-1-1' }, 51).compile();
      const plan = await db.executeQuery<{ detail: string }>({
        ...compiled,
        sql: `explain query plan ${compiled.sql}`,
      });
      const details = plan.rows.map((r) => r.detail).join('\n');
      // Names: the folder's nodes by name; dates: the asset rows by their own time, the folder's or (deep) the
      // library's (migration 0190).
      const index =
        f.sort === 'name' ? 'nodes_parent_kind_name' : f.recursive ? 'assets_updated' : 'assets_parent_updated';
      expect(details, JSON.stringify(f)).toMatch(new RegExp(`USING (COVERING )?INDEX ${index}`));
      expect(details, JSON.stringify(f)).not.toMatch(/TEMP B-TREE/);
    }
  });
});
