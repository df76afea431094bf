import type { InjectOptions } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { splitPath } from '../../../shared/api/paths.js';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { treeRepository } from '../tree/tree.repository.js';
import { findAsset } from './assets.common.js';
import { encodePath, image, metadataOf, upload } from './assets.fixtures.js';
import { representAsset } from './assets.presenter.js';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});
afterEach(async () => {
  await t.close();
});

const req = (method: InjectOptions['method'], url: string, payload?: unknown, headers: Record<string, string> = {}) =>
  t.request({ method, url, headers, ...(payload !== undefined ? { payload: payload as object } : {}) });
const META = '/cms/rest/assets/by-path';

/** Every asset's path now, by id (none for one in the trash: no doc may be trusted for it). */
async function assetPaths(): Promise<Map<string, string>> {
  const db = t.app.folio.ctx.db;
  const ids = (await db.selectFrom('assets').select('node_id').execute()).map((r) => r.node_id);
  const paths = await treeRepository.pathsOf(db, ids);
  const trashed = new Set((await db.selectFrom('trash').select('node_id').execute()).map((r) => r.node_id));
  for (const id of ids) expect(paths.has(id), id).toBe(!trashed.has(id));
  return new Map([...paths].map(([id, segs]) => [id, segs.join('/')]));
}

/**
 * The stored metadata never disagrees with the rows: every doc stored at a path that leads to its asset now is
 * byte for byte what the asset presented from its rows at that path is, with the SHA-256 ETag of it; and every
 * GET answers exactly that.
 */
async function expectDocsTrue(after: string) {
  const db = t.app.folio.ctx.db;
  const paths = await assetPaths();
  const rows = await db.selectFrom('assets').select(['node_id', 'doc', 'doc_etag', 'doc_path']).execute();
  let trusted = 0;
  for (const r of rows) {
    if (r.doc === null || r.doc_path !== paths.get(r.node_id)) continue;
    trusted++;
    const segments = splitPath(r.doc_path);
    const { row } = await findAsset(db, segments);
    const fresh = representAsset(row, segments.slice(0, -1));
    expect(r.doc, `${after}: the doc of ${r.doc_path}`).toBe(fresh.json);
    expect(r.doc_etag, `${after}: the ETag of ${r.doc_path}`).toBe(fresh.etag);
  }
  for (const [id, path] of paths) {
    const segments = splitPath(path);
    const { row } = await findAsset(db, segments);
    const fresh = representAsset(row, segments.slice(0, -1));
    const res = await req('GET', `${META}/${encodePath(path)}`);
    expect(res.statusCode, `${after}: GET ${path}`).toBe(200);
    expect(res.body, `${after}: GET ${path} (${id})`).toBe(fresh.json);
    expect(res.headers.etag).toBe(fresh.etag);
  }
  return trusted;
}

/**
 * Migration 0190: each asset row's folder is its node's, and its time (the asset's last-modified time) is never
 * earlier than its node's; the date listings, which read those columns, show every asset in the order of the times
 * they show, deep from the library and folder by folder.
 */
async function expectListingsTrue(after: string) {
  const db = t.app.folio.ctx.db;
  const rows = await db
    .selectFrom('assets as a')
    .innerJoin('nodes as n', 'n.id', 'a.node_id')
    .select(['a.node_id', 'a.parent_id', 'a.updated_at', 'n.parent_id as node_parent', 'n.updated_at as node_time'])
    .execute();
  // A deleted asset waits in the trash (modules/trash): its rows stay true, but no listing shows it.
  const trashed = new Set((await db.selectFrom('trash').select('node_id').execute()).map((r) => r.node_id));
  for (const r of rows) {
    expect(r.parent_id, `${after}: the folder of ${r.node_id}`).toBe(r.node_parent);
    expect(r.updated_at >= r.node_time, `${after}: the time of ${r.node_id}`).toBe(true);
  }
  type Item = { id: string; folderPath: string; lastModifiedDate: string };
  const listed = async (folder: string, deep: boolean) => {
    const res = await req(
      'GET',
      `/cms/rest/assets/list/${encodePath(folder)}?sort=lastModifiedDate&limit=100${deep ? '&recursive=true' : ''}`,
    );
    expect(res.statusCode, `${after}: the listing of ${folder}`).toBe(200);
    return (JSON.parse(res.body) as { items: Item[] }).items;
  };
  const all = await listed('Assets', true);
  expect(all.map((i) => i.id).sort(), `${after}: the deep listing`).toEqual(
    rows
      .map((r) => r.node_id)
      .filter((id) => !trashed.has(id))
      .sort(),
  );
  const times = all.map((i) => i.lastModifiedDate);
  expect(times, `${after}: the deep listing's order`).toEqual([...times].sort());
  for (const folder of new Set(all.map((i) => i.folderPath))) {
    expect(
      (await listed(folder, false)).map((i) => i.id),
      `${after}: the listing of ${folder}`,
    ).toEqual(all.filter((i) => i.folderPath === folder).map((i) => i.id));
  }
}

describe('stored asset metadata', () => {
  it('is stored by a GET and agrees with the rows after every kind of write', async () => {
    expect((await upload(t, 'Assets/img/a.png', await image('png', 40, 30))).statusCode).toBe(201);
    expect((await upload(t, 'Assets/img/sub/b.png', await image('png', 20, 20))).statusCode).toBe(201);
    const text = await req('PUT', `${META}/Assets/texts/note`, {
      type: 'cmsRichTextAsset',
      fields: { text: '<p>1</p>' },
    });
    expect(text.statusCode).toBe(201);

    // Every write stores its doc with its revision (migration 0280), so the first reads answer from them too.
    expect(await expectDocsTrue('the first reads')).toBe(3);
    expect(await expectDocsTrue('the second reads')).toBe(3);

    const writes: [string, () => Promise<{ statusCode: number; body: string }>][] = [
      ['a PUT of fields', () => req('PUT', `${META}/Assets/img/a.png`, { fields: { alttext: 'An apple' } })],
      ['a transition', () => req('PUT', `${META}/Assets/img/a.png`, { workflow: { state: 'Public' } })],
      ['a non-binary PUT', () => req('PUT', `${META}/Assets/texts/note`, { fields: { text: '<p>2</p>' } })],
      [
        'a replaced file',
        async () => {
          const { payload, headers } = await import('./assets.fixtures.js').then(async (f) =>
            f.multipart([
              { name: 'file', filename: 'a.png', content: await image('png', 60, 10), contentType: 'image/png' },
            ]),
          );
          return req('PUT', '/cms/rest/assets/binary/Assets/img/a.png', payload, headers);
        },
      ],
      ['a bulk approval', () => req('POST', '/cms/rest/assets/approve-all/Assets/img')],
      ['a rename', () => req('POST', '/cms/rest/folders/rename', { path: 'Assets/img/a.png', newName: 'apple.png' })],
      [
        'a move',
        () =>
          req('POST', '/cms/rest/folders/move', { itemPath: 'Assets/img/sub/b.png', targetFolderPath: 'Assets/texts' }),
      ],
      [
        'a folder renamed above',
        () => req('POST', '/cms/rest/folders/rename', { path: 'Assets/img', newName: 'pictures' }),
      ],
      [
        'a folder moved above',
        () => req('POST', '/cms/rest/folders/move', { itemPath: 'Assets/texts', targetFolderPath: 'Assets/pictures' }),
      ],
      [
        'a copy of a folder',
        () => req('POST', '/cms/rest/folders/copy', { itemPath: 'Assets/pictures', targetFolderPath: 'Assets' }),
      ],
      ['a delete', () => req('DELETE', `${META}/Assets/pictures/texts/note`)],
    ];
    const modified = async (path: string) =>
      metadataOf(await req('GET', `${META}/${encodePath(path)}`)).lastModifiedDate;
    const beforeRename = await modified('Assets/img/a.png');
    for (const [what, write] of writes) {
      const res = await write();
      expect(res.statusCode, `${what}: ${res.body}`).toBeLessThan(300);
      await expectListingsTrue(`after ${what}`);
      await expectDocsTrue(`after ${what}`);
      // Read again: what the GETs just stored is trusted and still true.
      await expectDocsTrue(`reading again after ${what}`);
    }
    // A rename is a change of the asset: its last-modified time moved on.
    expect(await modified('Assets/pictures/apple.png')).not.toBe(beforeRename);
    // The old paths are gone; the copied folder's assets have docs of their own, at their own paths.
    expect((await req('GET', `${META}/Assets/img/a.png`)).statusCode).toBe(404);
    const copy = await req('GET', `/cms/rest/folders/by-path/Assets`);
    expect(copy.statusCode).toBe(200);
  });

  it('is not stored from a row that changed after it was read, and a doc of another path is not trusted', async () => {
    expect((await upload(t, 'Assets/img/a.png', await image('png', 40, 30))).statusCode).toBe(201);
    const db = t.app.folio.ctx.db;
    const { row } = await findAsset(db, ['Assets', 'img', 'a.png']);
    const { assetsRepository } = await import('./assets.repository.js');
    // Made from the row as read, then the row changes: the store is refused.
    const rep = representAsset(row, ['Assets', 'img']);
    expect((await req('PUT', `${META}/Assets/img/a.png`, { fields: { alttext: 'Changed' } })).statusCode).toBe(200);
    const stored = await assetsRepository.storeDoc(db, {
      id: row.node_id,
      doc: rep.json,
      etag: rep.etag,
      path: 'Assets/img/a.png',
      seq: row.doc_seq,
    });
    expect(stored).toBe(false);
    expect(metadataOf(await req('GET', `${META}/Assets/img/a.png`)).fields.alttext).toBe('Changed');
    // A doc stored under another path (as if made before a folder above was renamed) is not answered here.
    await db
      .updateTable('assets')
      .set({ doc_path: 'Assets/elsewhere/a.png', doc_seq: 999 })
      .where('node_id', '=', row.node_id)
      .execute();
    // A write behind the API bumps the change generation as the API does (else the response cache answers).
    await t.app.folio.ctx.generation.bump();
    const res = await req('GET', `${META}/Assets/img/a.png`);
    expect(metadataOf(res).folderPath).toBe('Assets/img');
    expect((await db.selectFrom('assets').select('doc_path').executeTakeFirstOrThrow()).doc_path).toBe(
      'Assets/img/a.png',
    );
  });
});
