import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { splitPath } from '../../../shared/api/paths.js';
import type { Actor } from '../../lib/context.js';
import { problemOf, statementsOf } from '../../test/harness.js';
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
    expect((await foldersRepository.withChildrenByPath(db(), splitPath('www/news'))).found?.storedPath).toBe(
      'www/news',
    );
    await expectCurrent('www/news');
    if (app().app.folio.ctx.database.readNow) {
      // Answered now, without a promise.
      const now = createFolderReads(app().app.folio.ctx).get(ADMIN_ACTOR, splitPath('www/news'));
      expect(now instanceof Promise ? now : now.json).toBe(first.res.body);
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
      const { found: read } = await foldersRepository.withChildrenByPath(db(), splitPath(path));
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
      // For good: a trashed folder keeps its doc row (modules/trash) until the purge.
      url: '/cms/rest/folders/by-path/www/a?includeSubFolders=true&purge=true',
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
      // For good: a trashed folder keeps its doc row (modules/trash) until the purge.
      url: '/cms/rest/folders/by-path/Assets/img?includeSubFolders=true&purge=true',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await db().selectFrom('folder_docs').selectAll().where('node_id', '=', id).execute()).toEqual([]);
    expect(((await expectCurrent('Assets')).subfolders as unknown[]).length).toBe(0);
  });
});

// A PUT of an item's own fields (the properties form) is one read and one write, no transaction, answered from
// the rows read and the columns written: it must answer exactly what the general way would, and lose nothing to a
// write that comes in between.
describe('PUT of an item’s own fields', () => {
  const pg = !!process.env.TEST_DATABASE_URL;
  /** The statements that write a node outside a transaction's own (the one write of the quick way). */
  const nodeWrites = (sent: string[]) => sent.filter((s) => /update "nodes" set/.test(s));

  it('answers what a GET then answers, for every kind, in one read and one write', async () => {
    await createSite(app(), 'www', { templateName: 'landing' });
    await createSection(app(), 'www/news');
    await createExternalLink(app(), 'www/docs', 'https://example.org/a');
    await createFolder(app(), 'www/files');
    await createPage(app(), 'www/news', 'first');
    const edits: [string, Record<string, unknown>][] = [
      ['www', { sectionInfo: { displayTitle: 'Welcome', navClass: 'top' } }],
      ['www/news', { sectionInfo: { displayTitle: 'Press', targetWindow: '_blank' }, workflow: 'Default Workflow' }],
      ['www/docs', { sectionInfo: { externalLinkUrl: 'https://example.org/b', displayTitle: 'Docs' } }],
      ['www/files', { workflow: 'Default Workflow' }],
    ];
    for (const [path, body] of edits) {
      // A GET first: the PUT must also clear the doc it stored.
      await expectCurrent(path);
      let res: Awaited<ReturnType<typeof putFolder>> | undefined;
      const sent = await statementsOf(app(), async () => (res = await putFolder(app(), path, body)));
      expect(res!.statusCode, res!.body).toBe(200);
      // SQLite reads synchronously (not through Kysely's executeQuery); PostgreSQL sends the read, then the write.
      expect(sent, path).toHaveLength(pg ? 2 : 1);
      expect(nodeWrites(sent), path).toHaveLength(1);
      const now = await expectCurrent(path);
      expect(res!.body, path).toBe(JSON.stringify(now));
      const get = await getFolder(app(), path);
      expect(res!.headers.etag, path).toBe(get.res.headers.etag);
      // Written again by this process: the item as it wrote it is written again at once, no read.
      const workflow = body.workflow === undefined ? 'Default Workflow' : '[default]';
      const again = { ...body, workflow };
      const sentAgain = await statementsOf(app(), async () => (res = await putFolder(app(), path, again)));
      expect(res!.statusCode, res!.body).toBe(200);
      expect(sentAgain, `${path} again`).toHaveLength(1);
      expect(res!.body, path).toBe(JSON.stringify(await expectCurrent(path)));
      expect(JSON.parse(res!.body).workflow).toBe(workflow);
    }
    const news = (await getFolder(app(), 'www/news')).folder;
    expect(news.sectionInfo).toMatchObject({ displayTitle: 'Press', targetWindow: '_blank' });
    expect(news.workflow).toBe('[default]');
    expect((await getFolder(app(), 'www/docs')).folder.sectionInfo?.externalLinkUrl).toBe('https://example.org/b');
    // The parent lists its children as before (their titles are not part of its JSON).
    await expectCurrent('www');
  });

  it('writes nothing when nothing changes, and refuses what the general way refuses, changing nothing', async () => {
    await createSite(app(), 'www', { templateName: 'landing' });
    await createSection(app(), 'www/news', { displayTitle: 'News' });
    await createFolder(app(), 'www/files');
    const siteId = (await getFolder(app(), 'www')).folder.id;
    const before = await getFolder(app(), 'www/news');
    const same = await statementsOf(app(), async () => {
      const res = await putFolder(app(), 'www/news', { sectionInfo: { displayTitle: 'News' } });
      expect(res.body).toBe(before.res.body);
    });
    expect(nodeWrites(same)).toEqual([]);
    const refused: [string, Record<string, unknown>, Record<string, string>, number, string][] = [
      ['www/news', { sectionInfo: { displayTitle: 'X' } }, { 'if-match': '"stale"' }, 412, 'PRECONDITION_FAILED'],
      ['www/news', { sectionInfo: { displayTitle: 'X' } }, { 'if-none-match': '*' }, 412, 'PRECONDITION_FAILED'],
      ['www/news', { id: siteId, sectionInfo: { displayTitle: 'X' } }, {}, 409, 'ID_MISMATCH'],
      ['www/news', { sectionInfo: { type: 'externallink', displayTitle: 'X' } }, {}, 409, 'TYPE_MISMATCH'],
      ['www/news', { sectionInfo: { externalLinkUrl: 'https://example.org/' } }, {}, 400, 'INVALID_BODY'],
      ['www/news', { workflow: 'Nightly' }, {}, 400, 'INVALID_BODY'],
      ['www/files', { sectionInfo: { displayTitle: 'X' } }, {}, 409, 'TYPE_MISMATCH'],
    ];
    for (const [path, body, headers, status, code] of refused) {
      const res = await putFolder(app(), path, body, headers);
      expect(res.statusCode, `${path} ${JSON.stringify(body)}`).toBe(status);
      expect(problemOf(res).code).toBe(code);
    }
    const viewer = await app().createUser('vera', 'Viewer');
    const denied = await putFolder(
      app(),
      'www/news',
      { sectionInfo: { displayTitle: 'X' } },
      { authorization: viewer },
    );
    expect(denied.statusCode).toBe(403);
    expect((await getFolder(app(), 'www/news')).res.body).toBe(before.res.body);
    // With the current ETag it goes through.
    const ok = await putFolder(
      app(),
      'www/news',
      { sectionInfo: { displayTitle: 'Matched' } },
      { 'if-match': before.res.headers.etag as string },
    );
    expect(ok.statusCode, ok.body).toBe(200);
    expect(JSON.parse(ok.body).sectionInfo.displayTitle).toBe('Matched');
  });

  it('a write between its read and its write sends it the general way: both writes hold', async () => {
    await createSite(app(), 'www', { templateName: 'landing' });
    await createSection(app(), 'www/news', { displayTitle: 'News' });
    const id = (await locateFolder(db(), splitPath('www/news'))).at(-1)!.id;
    // Just before the quick way's write, another writer changes another field of the same section and adds a child.
    const raced = [
      `update nodes set nav_class = 'raced' where id = '${id}'`,
      `update nodes set display_title = 'Theirs' where id = '${id}'`,
    ];
    for (const race of raced) {
      const database = db();
      const execute = database.executeQuery.bind(database);
      let once = true;
      database.executeQuery = (async (query: Parameters<typeof execute>[0]) => {
        const text = 'sql' in query ? query.sql : query.compile().sql;
        if (once && /update "nodes" set/.test(text) && !database.isTransaction) {
          once = false;
          await sql.raw(race).execute(database);
        }
        return execute(query);
      }) as typeof database.executeQuery;
      let res;
      try {
        res = await putFolder(app(), 'www/news', {
          sectionInfo: { targetWindow: race.includes('nav') ? '_top' : '_blank' },
        });
      } finally {
        database.executeQuery = execute;
      }
      expect(once, 'the quick way was taken').toBe(false);
      expect(res.statusCode, res.body).toBe(200);
      const now = await expectCurrent('www/news');
      expect(res.body).toBe(JSON.stringify(now));
    }
    expect((await getFolder(app(), 'www/news')).folder.sectionInfo).toMatchObject({
      navClass: 'raced',
      displayTitle: 'Theirs',
      targetWindow: '_blank',
    });
    // The section as this process last wrote it is remembered; a write behind the app since makes that stale:
    // the remembered write fails its condition, and a fresh read and write follow.
    expect((await putFolder(app(), 'www/news', { sectionInfo: { navClass: 'mine' } })).statusCode).toBe(200);
    await sql.raw(`update nodes set nav_class = 'behind' where id = '${id}'`).execute(db());
    await app().app.folio.ctx.generation.bump();
    let res: Awaited<ReturnType<typeof putFolder>> | undefined;
    const sent = await statementsOf(
      app(),
      async () => (res = await putFolder(app(), 'www/news', { sectionInfo: { displayTitle: 'Ours' } })),
    );
    expect(nodeWrites(sent)).toHaveLength(2);
    expect(res!.statusCode, res!.body).toBe(200);
    expect(res!.body).toBe(JSON.stringify(await expectCurrent('www/news')));
    expect(JSON.parse(res!.body).sectionInfo).toMatchObject({ navClass: 'behind', displayTitle: 'Ours' });
  });
});
