import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AssetList } from '../../../shared/api/assets.js';
import { RevisionList } from '../../../shared/api/revisions.js';
import { SearchResults } from '../../../shared/api/search.js';
import { TrashList, TrashRestored, TrashedMessage } from '../../../shared/api/trash.js';
import { createTestApp, problemOf, type TestApp } from '../../test/harness.js';
import { image, upload } from '../assets/assets.fixtures.js';
import { blobKeys, folderUrl, getFolder, putFolder } from '../folders/folders.fixtures.js';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp({ CMS_SEED: 'true' });
});
afterEach(async () => {
  await t.close();
});

const DAY_MS = 86_400_000;
const pageUrl = (path: string) => `/cms/rest/pages/by-path/${path}`;
const assetUrl = (path: string) => `/cms/rest/assets/by-path/${path}`;

async function ok<R extends { statusCode: number; body: string }>(res: Promise<R>, ...statuses: number[]) {
  const r = await res;
  expect(statuses.length ? statuses : [200, 201], r.body).toContain(r.statusCode);
  return r;
}

/** PUTs an article page at `path` whose rich text holds `text`. */
const putPage = (path: string, text: string) =>
  ok(
    t.request({
      method: 'PUT',
      url: pageUrl(path),
      payload: {
        templateName: 'article',
        displayName: path.split('/').pop(),
        body: [
          {
            name: 'body',
            widgets: [{ type: 'cmsRichText', scope: 'local', editable: true, asset: { fields: { text } } }],
          },
        ],
      },
    }),
  );

/** DELETEs `url`; answers its trash entry id (none when purged). */
async function del(url: string, authorization?: string) {
  const res = await ok(t.request({ method: 'DELETE', url, headers: authorization ? { authorization } : {} }), 200);
  return TrashedMessage.strict().parse(res.json()).trashId;
}

async function trash(query = '', authorization?: string): Promise<TrashList> {
  const res = await t.request({
    method: 'GET',
    url: `/cms/rest/trash${query}`,
    headers: authorization ? { authorization } : {},
  });
  expect(res.statusCode, res.body).toBe(200);
  return TrashList.strict().parse(res.json());
}

const restore = (payload: object, authorization?: string) =>
  t.request({
    method: 'POST',
    url: '/cms/rest/trash/restore',
    payload,
    headers: authorization ? { authorization } : {},
  });

async function searchPaths(q: string): Promise<string[]> {
  const res = await ok(t.request({ method: 'GET', url: `/cms/rest/search?q=${encodeURIComponent(q)}` }), 200);
  return SearchResults.parse(res.json()).items.map((h) => h.path);
}

async function revisions(kind: 'pages' | 'assets', path: string) {
  const res = await ok(t.request({ method: 'GET', url: `/cms/rest/${kind}/revisions/${path}` }), 200);
  return RevisionList.parse(res.json()).items.map((r) => r.revision);
}

const articleNames = async () => (await getFolder(t, 'demo/articles')).folder.pages!.map((p) => p.name);

describe('the trash', () => {
  it('takes a deleted page out of its path, listings and search, and restores it with its history', async () => {
    await putPage('demo/articles/binned', '<p>A zanzibarian aardvark</p>');
    await putPage('demo/articles/binned', '<p>A zanzibarian aardvark, twice</p>');
    const before = await ok(t.request({ method: 'GET', url: pageUrl('demo/articles/binned') }), 200);
    expect(await searchPaths('zanzibarian')).toEqual(['demo/articles/binned']);

    t.advance(1000);
    const id = await del(pageUrl('demo/articles/binned'));
    expect(id).toMatch(/^\d+$/);
    const gone = await t.request({ method: 'GET', url: pageUrl('demo/articles/binned') });
    expect(gone.statusCode).toBe(404);
    expect(await articleNames()).not.toContain('binned');
    expect(await searchPaths('zanzibarian')).toEqual([]);
    expect((await t.request({ method: 'GET', url: `/cms/rest/pages/revisions/demo/articles/binned` })).statusCode).toBe(
      404,
    );

    const listed = await trash();
    expect(listed.items).toHaveLength(1);
    expect(listed.items[0]).toMatchObject({
      id,
      kind: 'page',
      name: 'binned',
      path: 'demo/articles/binned',
      from: 'demo/articles',
      deletedBy: 'admin',
    });
    const when = Date.parse(listed.items[0]!.deletedAt);
    expect(Date.parse(listed.items[0]!.purgeAt) - when).toBe(30 * DAY_MS);

    const res = await restore({ id });
    expect(res.statusCode, res.body).toBe(200);
    expect(TrashRestored.strict().parse(res.json())).toEqual({
      kind: 'page',
      path: 'demo/articles/binned',
      href: pageUrl('demo/articles/binned'),
    });
    const back = await ok(t.request({ method: 'GET', url: pageUrl('demo/articles/binned') }), 200);
    expect(back.body).toBe(before.body);
    expect(back.headers.etag).toBe(before.headers.etag);
    expect(await revisions('pages', 'demo/articles/binned')).toEqual([2, 1]);
    expect(await articleNames()).toContain('binned');
    expect(await searchPaths('zanzibarian')).toEqual(['demo/articles/binned']);
    expect((await trash()).items).toEqual([]);

    // The change log said deleted, then changed (live events read it).
    const changes = await t.app.folio.ctx.db
      .selectFrom('changes')
      .select(['deleted', 'path'])
      .where('item_id', '=', JSON.parse(back.body).id)
      .orderBy('id')
      .execute();
    const deletedAt = changes.findLastIndex((c) => Number(c.deleted) === 1);
    expect(changes[deletedAt]!.path).toBe('demo/articles/binned');
    expect(deletedAt).toBeLessThan(changes.length - 1);

    // Restored once: the entry is gone.
    const again = await restore({ id });
    expect(again.statusCode).toBe(404);
    expect(problemOf(again).code).toBe('TRASH_ENTRY_NOT_FOUND');
  });

  it('titles each entry as people know it (its name when it has no title), and says when it is purged', async () => {
    const page = (path: string, displayName?: string) =>
      ok(
        t.request({
          method: 'PUT',
          url: pageUrl(path),
          payload: { templateName: 'article', ...(displayName === undefined ? {} : { displayName }) },
        }),
      );
    await page('demo/articles/notes', 'Binned notes');
    await page('demo/articles/untitled');
    await upload(t, 'Assets/bin/logo.png', await image('png', 20, 20));
    await ok(
      t.request({ method: 'PUT', url: assetUrl('Assets/bin/logo.png'), payload: { fields: { displaytitle: 'Logo' } } }),
    );
    await ok(
      t.request({
        method: 'PUT',
        url: assetUrl('Assets/bin/note'),
        payload: { type: 'cmsRichTextAsset', fields: { text: '<p>A note</p>' } },
      }),
    );
    await ok(putFolder(t, 'demo/desk', { sectionInfo: { displayTitle: 'News desk' } }), 201);
    await ok(putFolder(t, 'demo/box', {}), 201);
    const deleted = [
      pageUrl('demo/articles/notes'),
      pageUrl('demo/articles/untitled'),
      assetUrl('Assets/bin/logo.png'),
      assetUrl('Assets/bin/note'),
      folderUrl('demo/desk'),
      folderUrl('demo/box'),
    ];
    for (const url of deleted) await del(url);

    const listed = (await trash()).items.reverse();
    expect(listed.map((e) => [e.kind, e.path, e.title])).toEqual([
      ['page', 'demo/articles/notes', 'Binned notes'],
      ['page', 'demo/articles/untitled', 'untitled'],
      ['asset', 'Assets/bin/logo.png', 'Logo'],
      ['asset', 'Assets/bin/note', 'note'],
      ['section', 'demo/desk', 'News desk'],
      ['folder', 'demo/box', 'box'],
    ]);

    // CMS_TRASH_DAYS sets when: `purgeAt` is that many days after `deletedAt`.
    const twelve = await createTestApp({ CMS_SEED: 'true', CMS_TRASH_DAYS: '12' });
    try {
      const put = await twelve.request({
        method: 'PUT',
        url: pageUrl('demo/soon-gone'),
        payload: { templateName: 'article' },
      });
      expect(put.statusCode, put.body).toBe(201);
      expect((await twelve.request({ method: 'DELETE', url: pageUrl('demo/soon-gone') })).statusCode).toBe(200);
      const res = await twelve.request({ method: 'GET', url: '/cms/rest/trash' });
      const [entry] = TrashList.strict().parse(res.json()).items;
      expect(entry).toMatchObject({ name: 'soon-gone', title: 'soon-gone' });
      expect(Date.parse(entry!.purgeAt) - Date.parse(entry!.deletedAt)).toBe(12 * DAY_MS);
    } finally {
      await twelve.close();
    }
  });

  it('lists newest first, a page at a time', async () => {
    const ids: string[] = [];
    for (const name of ['one', 'two', 'three']) {
      await putPage(`demo/articles/${name}`, `<p>${name}</p>`);
      ids.push((await del(pageUrl(`demo/articles/${name}`)))!);
    }
    const first = await trash('?limit=2');
    expect(first.items.map((e) => e.id)).toEqual([ids[2], ids[1]]);
    expect(first.next).toBeTruthy();
    const second = await trash(`?limit=2&cursor=${first.next}`);
    expect(second.items.map((e) => e.name)).toEqual(['one']);
    expect(second.next).toBeNull();
  });

  it('answers 409 when the place is taken, 409 when it is gone, and restores elsewhere with `to`', async () => {
    await putPage('demo/articles/twin', '<p>first</p>');
    const id = (await del(pageUrl('demo/articles/twin')))!;
    await putPage('demo/articles/twin', '<p>second</p>');
    const taken = await restore({ id });
    expect(taken.statusCode, taken.body).toBe(409);
    expect(problemOf(taken).code).toBe('NAME_TAKEN');

    await ok(putFolder(t, 'demo/elsewhere', {}));
    const moved = await restore({ id, to: 'demo/elsewhere' });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().path).toBe('demo/elsewhere/twin');
    expect(
      JSON.parse((await ok(t.request({ method: 'GET', url: pageUrl('demo/elsewhere/twin') }))).body),
    ).toMatchObject({ name: 'twin' });
    expect(await revisions('pages', 'demo/elsewhere/twin')).toEqual([1]);

    // The folder it was in goes too: it has no place to go back to.
    const again = (await del(pageUrl('demo/elsewhere/twin')))!;
    await del(folderUrl('demo/elsewhere'));
    const gone = await restore({ id: again });
    expect(gone.statusCode, gone.body).toBe(409);
    expect(problemOf(gone).code).toBe('RESTORE_PLACE_GONE');
    // Not into an asset folder, nor into a page.
    const wrong = await restore({ id: again, to: 'Assets' });
    expect(problemOf(wrong).code).toBe('INVALID_MOVE');
    expect((await restore({ id: again, to: 'demo' })).statusCode).toBe(200);
  });

  it('deletes and restores a folder with everything inside it', async () => {
    await ok(putFolder(t, 'demo/box', {}));
    await ok(putFolder(t, 'demo/box/inner', {}));
    await putPage('demo/box/p1', '<p>quixotic one</p>');
    await putPage('demo/box/inner/p2', '<p>quixotic two</p>');
    const boxId = (await getFolder(t, 'demo/box')).folder.id;
    const res = await t.request({ method: 'DELETE', url: `${folderUrl('demo/box')}?includeSubFolders=true` });
    expect(res.statusCode, res.body).toBe(200);
    const id = TrashedMessage.parse(res.json()).trashId!;
    for (const url of [folderUrl('demo/box'), pageUrl('demo/box/p1'), pageUrl('demo/box/inner/p2')]) {
      expect((await t.request({ method: 'GET', url })).statusCode, url).toBe(404);
    }
    expect(await searchPaths('quixotic')).toEqual([]);
    // One entry for the folder, not one per item inside.
    expect((await trash()).items.map((e) => [e.kind, e.path])).toEqual([['folder', 'demo/box']]);

    // A new folder at its path is answered, not the trashed one; it takes the place until it goes too.
    await ok(putFolder(t, 'demo/box', {}), 201);
    expect((await getFolder(t, 'demo/box')).folder.id).not.toBe(boxId);
    expect(problemOf(await restore({ id })).code).toBe('NAME_TAKEN');
    expect(await del(`${folderUrl('demo/box')}?purge=true`)).toBeUndefined();

    expect((await restore({ id })).statusCode).toBe(200);
    expect((await getFolder(t, 'demo/box')).folder.id).toBe(boxId);
    for (const url of [folderUrl('demo/box'), pageUrl('demo/box/p1'), pageUrl('demo/box/inner/p2')]) {
      expect((await t.request({ method: 'GET', url })).statusCode, url).toBe(200);
    }
    expect((await searchPaths('quixotic')).sort()).toEqual(['demo/box/inner/p2', 'demo/box/p1']);
  });

  it('keeps a trashed asset file until the purge, which takes its history and files', async () => {
    const path = 'Assets/bin/logo.png';
    const png = await image('png', 20, 20);
    await upload(t, path, png);
    await ok(t.request({ method: 'PUT', url: assetUrl(path), payload: { fields: { alttext: 'A logo' } } }));
    const db = t.app.folio.ctx.db;
    const assetId = JSON.parse((await ok(t.request({ method: 'GET', url: assetUrl(path) }))).body).id as string;
    const row = await db
      .selectFrom('assets')
      .select(['node_id', 'blob_key'])
      .where('node_id', '=', assetId)
      .executeTakeFirstOrThrow();
    const keysBefore = await blobKeys(t);
    expect(keysBefore).toContain(row.blob_key);

    const id = (await del(assetUrl(path)))!;
    expect((await t.request({ method: 'GET', url: assetUrl(path) })).statusCode).toBe(404);
    expect(await blobKeys(t)).toEqual(keysBefore);
    const list = AssetList.parse(
      (await ok(t.request({ method: 'GET', url: '/cms/rest/assets/list/Assets/bin' }))).json(),
    );
    expect([list.items, list.total]).toEqual([[], 0]);

    // Restored: the same file, the same history.
    expect((await restore({ id })).statusCode).toBe(200);
    const file = await t.request({ method: 'GET', url: `/cms/rest/assets/binary/${path}` });
    expect(file.rawPayload.equals(png)).toBe(true);
    expect(await revisions('assets', path)).toEqual([2, 1]);

    // Deleted again and left for CMS_TRASH_DAYS: the sweep purges it with its revisions and its files.
    await del(assetUrl(path));
    expect(await t.app.folio.trashSweep.runNow()).toBe(0);
    t.advance(29 * DAY_MS);
    expect(await t.app.folio.trashSweep.runNow()).toBe(0);
    expect(await blobKeys(t)).toEqual(keysBefore);
    t.advance(2 * DAY_MS);
    expect(await t.app.folio.trashSweep.runNow()).toBe(1);
    expect((await trash()).items).toEqual([]);
    expect(await db.selectFrom('revisions').select('revision').where('item_id', '=', row.node_id).execute()).toEqual(
      [],
    );
    expect(await db.selectFrom('nodes').select('id').where('id', '=', row.node_id).execute()).toEqual([]);
    const keysAfter = await blobKeys(t);
    expect(keysAfter).not.toContain(row.blob_key);
    expect(keysAfter.length).toBeLessThan(keysBefore.length);
  });

  it('purges at once with purge=true for admins only', async () => {
    const editor = await t.createUser('ed', 'Editor');
    await putPage('demo/articles/doomed', '<p>doomed</p>');
    const refused = await t.request({
      method: 'DELETE',
      url: `${pageUrl('demo/articles/doomed')}?purge=true`,
      headers: { authorization: editor },
    });
    expect(refused.statusCode, refused.body).toBe(403);
    expect(problemOf(refused).code).toBe('NOT_AUTHORIZED');
    expect((await t.request({ method: 'GET', url: pageUrl('demo/articles/doomed') })).statusCode).toBe(200);
    const bad = await t.request({ method: 'DELETE', url: `${pageUrl('demo/articles/doomed')}?purge=yes` });
    expect(bad.statusCode).toBe(400);

    expect(await del(`${pageUrl('demo/articles/doomed')}?purge=true`)).toBeUndefined();
    expect((await t.request({ method: 'GET', url: pageUrl('demo/articles/doomed') })).statusCode).toBe(404);
    expect((await trash()).items).toEqual([]);

    // An entry purged from the trash by an admin (an editor may not).
    await putPage('demo/articles/later', '<p>later</p>');
    const id = (await del(pageUrl('demo/articles/later'), editor))!;
    const no = await t.request({ method: 'DELETE', url: `/cms/rest/trash/${id}`, headers: { authorization: editor } });
    expect(no.statusCode).toBe(403);
    expect((await t.request({ method: 'DELETE', url: `/cms/rest/trash/${id}` })).statusCode).toBe(200);
    expect((await trash()).items).toEqual([]);
  });

  it('purges a folder with its contents and their history, live revisions included', async () => {
    await ok(putFolder(t, 'demo/box', {}));
    await ok(putFolder(t, 'demo/box/inner', {}));
    await putPage('demo/box/inner/deep', '<p>deep</p>');
    await ok(
      t.request({
        method: 'PUT',
        url: pageUrl('demo/box/inner/deep'),
        payload: { templateName: 'article', workflow: { state: 'Public' } },
      }),
    );
    await putPage('demo/box/kept', '<p>kept</p>');
    const db = t.app.folio.ctx.db;
    const idOf = async (path: string) =>
      JSON.parse((await ok(t.request({ method: 'GET', url: pageUrl(path) }))).body).id as string;
    const ids = [await idOf('demo/box/inner/deep'), await idOf('demo/box/kept')];
    const historyOf = async () => ({
      revisions: (await db.selectFrom('revisions').select('item_id').where('item_id', 'in', ids).execute()).length,
      live: (await db.selectFrom('live_revisions').select('item_id').where('item_id', 'in', ids).execute()).length,
    });
    expect(await historyOf()).toEqual({ revisions: 3, live: 1 });
    // A page elsewhere keeps its own.
    const other = await idOf('demo/index');
    const othersBefore = await db.selectFrom('revisions').select('revision').where('item_id', '=', other).execute();

    // In the trash the history stays (a restore brings it back); the purge takes it from the nested items too.
    await del(`${folderUrl('demo/box')}?includeSubFolders=true`);
    expect(await historyOf()).toEqual({ revisions: 3, live: 1 });
    const [entry] = (await trash()).items;
    expect((await ok(t.request({ method: 'DELETE', url: `/cms/rest/trash/${entry!.id}` }))).statusCode).toBe(200);
    expect(await historyOf()).toEqual({ revisions: 0, live: 0 });
    expect(await db.selectFrom('revisions').select('revision').where('item_id', '=', other).execute()).toEqual(
      othersBefore,
    );
  });

  it('shows editors what they may restore, viewers nothing', async () => {
    const editor = await t.createUser('ed', 'Editor');
    const viewer = await t.createUser('vi', 'Viewer');
    await putPage('demo/articles/mine', '<p>mine</p>');
    const pageId = (await del(pageUrl('demo/articles/mine'), editor))!;
    await ok(putFolder(t, 'site2', { sectionInfo: { templateName: 'article' } }), 201);
    const siteId = (await del(folderUrl('site2')))!;
    expect((await trash('', editor)).items.map((e) => e.id)).toEqual([pageId]);
    expect((await trash()).items.map((e) => e.id)).toEqual([siteId, pageId]);
    const res = await restore({ id: siteId }, editor);
    expect(res.statusCode).toBe(403);
    const v = await t.request({ method: 'GET', url: '/cms/rest/trash', headers: { authorization: viewer } });
    expect(v.statusCode).toBe(403);
    expect((await restore({ id: pageId }, editor)).statusCode).toBe(200);
  });

  it('answers bad input with 4xx problems', async () => {
    const cases: [string, string, object | undefined, number, string][] = [
      ['GET', '/cms/rest/trash?limit=0', undefined, 400, 'INVALID_PARAMETER'],
      ['GET', '/cms/rest/trash?cursor=nonsense', undefined, 400, 'INVALID_PARAMETER'],
      ['POST', '/cms/rest/trash/restore', { id: 'abc' }, 400, 'INVALID_BODY'],
      ['POST', '/cms/rest/trash/restore', {}, 400, 'INVALID_BODY'],
      ['POST', '/cms/rest/trash/restore', { id: '999' }, 404, 'TRASH_ENTRY_NOT_FOUND'],
      ['DELETE', '/cms/rest/trash/abc', undefined, 400, 'INVALID_PARAMETER'],
      ['DELETE', '/cms/rest/trash/999', undefined, 404, 'TRASH_ENTRY_NOT_FOUND'],
    ];
    for (const [method, url, payload, status, code] of cases) {
      const res = await t.request({ method: method as 'GET', url, ...(payload ? { payload } : {}) });
      expect(res.statusCode, `${method} ${url} ${res.body}`).toBe(status);
      expect(problemOf(res).code, `${method} ${url}`).toBe(code);
    }
    await putPage('demo/articles/x', '<p>x</p>');
    const id = (await del(pageUrl('demo/articles/x')))!;
    const nowhere = await restore({ id, to: 'demo/missing' });
    expect(nowhere.statusCode).toBe(404);
    const badTo = await restore({ id, to: 'demo/../x' });
    expect(badTo.statusCode).toBe(400);
    expect(
      (await t.request({ method: 'GET', url: '/cms/rest/trash', headers: { authorization: '' } })).statusCode,
    ).toBe(401);
  });
});
