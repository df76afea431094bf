import { describe, expect, it } from 'vitest';
import { splitPath } from '../../../shared/api/paths.js';
import type { Actor } from '../../lib/context.js';
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
  getFolder,
  putFolder,
  useFolderTestApp,
} from './folders.fixtures.js';

// Stored folder docs (migration 0130): a GET answers the stored JSON of a site, folder, section, external link or
// asset folder from one read, and nothing it shows may be stale after any change, made through the API or in SQL.

const app = useFolderTestApp();

const ADMIN_ACTOR: Actor = { username: 'admin', role: 'Admin' };
const EDITOR: Actor = { username: 'ed', role: 'Editor' };
const VIEWER: Actor = { username: 'vera', role: 'Viewer' };

const db = () => app().app.folio.ctx.db;
const post = (op: 'move' | 'rename', payload: object) =>
  app().request({ method: 'POST', url: `/cms/rest/folders/${op}`, payload });

/** The stored doc row of the item at `path` (undefined: none). */
async function storedAt(path: string) {
  const chain = await locateFolder(db(), splitPath(path));
  return db()
    .selectFrom('folder_docs')
    .selectAll()
    .where('node_id', '=', chain[chain.length - 1]!.id)
    .executeTakeFirst();
}

/** What the GET answers for `actor` equals what the general way presents from the rows now. */
async function expectCurrent(path: string, actor: Actor = ADMIN_ACTOR) {
  const segments = splitPath(path);
  const general = await represent(db(), actor, await locateFolder(db(), segments), segments);
  const reads = createFolderReads(app().app.folio.ctx);
  const got = await reads.get(actor, segments);
  expect(got.json, `${path} as ${actor.role}`).toBe(general.json);
  expect(got.etag).toBe(general.etag);
  // The next read is answered the same (from the stored doc, when one answers).
  const again = await reads.get(actor, segments);
  expect(again.json, `${path} as ${actor.role}, again`).toBe(general.json);
  return JSON.parse(got.json) as Record<string, unknown>;
}

describe('stored folder docs', () => {
  it('a GET stores what it answers; the next one is that doc, read with the path in one statement', async () => {
    await createSite(app(), 'www', { templateName: 'landing' });
    await createSection(app(), 'www/news');
    await createPage(app(), 'www/news', 'item');
    await createFolder(app(), 'www/news/archive');

    expect((await storedAt('www/news'))?.doc ?? null).toBeNull();
    const first = await getFolder(app(), 'www/news');
    expect(first.res.statusCode).toBe(200);
    const row = await storedAt('www/news');
    expect(row?.doc).toBe(first.res.body);
    expect(row?.doc_etag).toBe(first.res.headers.etag);
    expect(row).toMatchObject({ doc_path: 'www/news', doc_access: 'ADMIN' });

    // One indexed read by the path answers the doc; the statement of a miss sees it stored there. The doc is what
    // the general way presents.
    expect((await foldersRepository.docAtPath(db(), 'www/news'))?.doc).toBe(first.res.body);
    expect((await foldersRepository.withChildrenByPath(db(), splitPath('www/news')))?.storedPath).toBe('www/news');
    await expectCurrent('www/news');
    if (app().app.folio.ctx.database.readNow) {
      expect(createFolderReads(app().app.folio.ctx).getNow(ADMIN_ACTOR, splitPath('www/news'))?.json).toBe(
        first.res.body,
      );
    }
  });

  it('every change of what a folder shows clears its doc: children added, renamed, reordered, moved, deleted; its own fields', async () => {
    await createSite(app(), 'www', { templateName: 'landing' });
    await createSection(app(), 'www/news');
    await createSection(app(), 'www/other');
    await createSection(app(), 'www/news/sub');
    await createFolder(app(), 'www/news/archive');
    await createPage(app(), 'www/news', 'item');
    await expectCurrent('www/news');
    await expectCurrent('www/other');

    const steps: [string, () => Promise<unknown>][] = [
      ['a page created', () => createPage(app(), 'www/news', 'second')],
      ['a folder created', () => createFolder(app(), 'www/news/drafts')],
      ['an external link created', () => createExternalLink(app(), 'www/news/out')],
      ['a child renamed', () => post('rename', { path: 'www/news/archive', newName: 'old' })],
      ['a child moved out', () => post('move', { itemPath: 'www/news/drafts', targetFolderPath: 'www/other' })],
      ['a child moved in', () => post('move', { itemPath: 'www/other/drafts', targetFolderPath: 'www/news' })],
      ['a child deleted', () => app().request({ method: 'DELETE', url: '/cms/rest/folders/by-path/www/news/old' })],
      ['its own fields', () => putFolder(app(), 'www/news', { sectionInfo: { displayTitle: 'News!' } })],
      [
        'a child reordered (in SQL)',
        () => db().updateTable('nodes').set({ sort_order: -1 }).where('name', '=', 'out').execute(),
      ],
      [
        'a link changed (in SQL)',
        () =>
          db().updateTable('nodes').set({ external_url: 'https://example.org/' }).where('name', '=', 'out').execute(),
      ],
      [
        'its workflow (in SQL)',
        () => db().updateTable('nodes').set({ workflow: 'Other' }).where('name', '=', 'news').execute(),
      ],
    ];
    let before = await expectCurrent('www/news');
    for (const [what, change] of steps) {
      const res = (await change()) as { statusCode?: number; body?: string } | undefined;
      if (res && typeof res.statusCode === 'number') expect(res.statusCode, `${what}: ${res.body}`).toBeLessThan(300);
      await app().app.folio.ctx.generation.bump();
      const after = await expectCurrent('www/news');
      expect(after, what).not.toEqual(before);
      before = after;
      await expectCurrent('www/other');
    }
  });

  it('a doc is used only at the path it was made at and for the access level it shows', async () => {
    await createSite(app(), 'www', { templateName: 'landing' });
    await createSection(app(), 'www/news');
    await createFolder(app(), 'www/news/archive');
    await app().createUser('ed', 'Editor');
    await app().createUser('vera', 'Viewer');
    await expectCurrent('www/news/archive');

    // A rename of an ancestor does not touch the folder's row: the doc's path no longer matches and it is remade.
    expect((await post('rename', { path: 'www/news', newName: 'press' })).statusCode).toBe(200);
    const moved = await expectCurrent('www/press/archive');
    expect(moved).toMatchObject({ siteName: 'www', path: 'press', name: 'archive' });
    expect((await storedAt('www/press/archive'))?.doc_path).toBe('www/press/archive');

    // Each caller sees their own access level; the doc kept is the first one made (no taking turns).
    expect((await expectCurrent('www/press/archive', EDITOR)).accessLevel).toBe('WRITE');
    expect((await expectCurrent('www/press/archive', VIEWER)).accessLevel).toBe('READ');
    expect((await storedAt('www/press/archive'))?.doc_access).toBe('ADMIN');
    // A level set above it lowers an Editor's, doc or not.
    await db().updateTable('nodes').set({ access_level: 'READ' }).where('name', '=', 'www').execute();
    expect((await expectCurrent('www/press/archive', EDITOR)).accessLevel).toBe('READ');
    expect((await expectCurrent('www/press/archive', ADMIN_ACTOR)).accessLevel).toBe('ADMIN');
  });

  it('a doc made from rows read before a change is not stored', async () => {
    await createSite(app(), 'www');
    await createFolder(app(), 'www/a');
    await createFolder(app(), 'www/b');
    await expectCurrent('www/b');
    for (const path of ['www/a', 'www/b']) {
      // www/a has no doc row yet (nothing below it changed since it was made); www/b has one.
      const read = await foldersRepository.withChildrenByPath(db(), splitPath(path));
      expect(read).toBeDefined();
      await createPage(app(), path, 'late');
      await foldersRepository.storeDoc(db(), {
        id: read!.chain[read!.chain.length - 1]!.id,
        doc: '{"stale":true}',
        etag: '"stale"',
        path,
        access: 'ADMIN',
        cap: null,
        epoch: read!.epoch,
        seq: read!.seq,
      });
      const now = await expectCurrent(path);
      expect(
        (now.pages as { name: string }[]).map((p) => p.name),
        path,
      ).toContain('late');
    }
  });

  it('a folder deleted with what holds it, and made again at the same path, is not answered by the old doc', async () => {
    await createSite(app(), 'www');
    await createFolder(app(), 'www/a');
    const old = await createFolder(app(), 'www/a/b');
    await expectCurrent('www/a/b');
    expect((await storedAt('www/a/b'))?.doc).toContain(old.id);
    const res = await app().request({
      method: 'DELETE',
      url: '/cms/rest/folders/by-path/www/a?includeSubFolders=true',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await db().selectFrom('folder_docs').select('node_id').where('node_id', '=', old.id).execute()).toEqual([]);
    await createFolder(app(), 'www/a');
    const again = await createFolder(app(), 'www/a/b');
    expect(again.id).not.toBe(old.id);
    expect((await expectCurrent('www/a/b')).id).toBe(again.id);
    expect((await getFolder(app(), 'www/a/b')).folder.id).toBe(again.id);
  });

  it('a rename or move of what holds a folder, or an access level set above it, is seen by a read by path', async () => {
    await createSite(app(), 'www');
    await createFolder(app(), 'www/a');
    await createFolder(app(), 'www/a/b');
    await createFolder(app(), 'www/c');
    await app().createUser('ed', 'Editor');
    const reads = createFolderReads(app().app.folio.ctx);
    await expectCurrent('www/a/b');
    await expectCurrent('www/a/b', EDITOR);
    // The old path answers 404 once its holder moved; the new one answers what the general way does.
    expect((await post('move', { itemPath: 'www/a', targetFolderPath: 'www/c' })).statusCode).toBe(200);
    await expect(reads.get(ADMIN_ACTOR, splitPath('www/a/b'))).rejects.toMatchObject({ status: 404 });
    // An Editor reads first at the new path: the doc kept is theirs (WRITE, no level set on the path).
    expect(await expectCurrent('www/c/a/b', EDITOR)).toMatchObject({ path: 'c/a', name: 'b', accessLevel: 'WRITE' });
    expect(await storedAt('www/c/a/b')).toMatchObject({ doc_access: 'WRITE', doc_cap: null });
    expect((await expectCurrent('www/c/a/b')).accessLevel).toBe('ADMIN');
    // A level set on the site: the Editor's answer shows it at once, though their doc was made before.
    await db().updateTable('nodes').set({ access_level: 'READ' }).where('name', '=', 'www').execute();
    expect((await expectCurrent('www/c/a/b', EDITOR)).accessLevel).toBe('READ');
    expect((await expectCurrent('www/c/a/b', VIEWER)).accessLevel).toBe('READ');
    expect((await expectCurrent('www/c/a/b')).accessLevel).toBe('ADMIN');
  });

  it('section links and folders holding them are presented each time, never stored', async () => {
    await createSite(app(), 'www');
    await createSection(app(), 'www/news');
    await createSectionLink(app(), 'www/to-news', 'www/news');
    await expectCurrent('www');
    await expectCurrent('www/to-news');
    expect((await storedAt('www'))?.doc ?? null).toBeNull();
    expect((await storedAt('www/to-news'))?.doc ?? null).toBeNull();
    // The target renamed: the link's href follows.
    expect((await post('rename', { path: 'www/news', newName: 'press' })).statusCode).toBe(200);
    const site = await expectCurrent('www');
    expect(JSON.stringify(site)).toContain('/www/press');
  });

  it('asset folders: an upload, a rename and a delete of an asset show at once; deleting a folder leaves no doc row', async () => {
    await createAsset(app(), 'Assets/img', 'a.txt');
    await expectCurrent('Assets/img');
    await expectCurrent('Assets');
    await createAsset(app(), 'Assets/img', 'b.txt');
    expect(((await expectCurrent('Assets/img')).assets as { name: string }[]).map((a) => a.name)).toEqual([
      'a.txt',
      'b.txt',
    ]);
    expect((await post('rename', { path: 'Assets/img/a.txt', newName: 'c.txt' })).statusCode).toBe(200);
    expect(((await expectCurrent('Assets/img')).assets as { name: string }[]).map((a) => a.name)).toEqual([
      'b.txt',
      'c.txt',
    ]);
    const id = (await locateFolder(db(), splitPath('Assets/img'))).at(-1)!.id;
    const res = await app().request({
      method: 'DELETE',
      url: '/cms/rest/folders/by-path/Assets/img?includeSubFolders=true',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await db().selectFrom('folder_docs').selectAll().where('node_id', '=', id).execute()).toEqual([]);
    expect(((await expectCurrent('Assets')).subfolders as unknown[]).length).toBe(0);
  });
});
