import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AssetList } from '../../../shared/api/assets.js';
import { toNumber } from '../../db/dialect.js';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { encodePath, image, upload } from './assets.fixtures.js';

/**
 * The `total` of a listing without filters comes from per-folder counters kept by triggers (migration 0050):
 * after every kind of write they must equal a real count, folder by folder.
 */
let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});
afterEach(async () => {
  await t.close();
});

async function createText(path: string) {
  const res = await t.request({
    method: 'PUT',
    url: `/cms/rest/assets/by-path/${encodePath(path)}`,
    // Not the path itself: a field that is a whole `Assets/…` path refers to that asset (a copy would keep the
    // original in use).
    payload: { type: 'cmsSimpleTextAsset', fields: { text: `Some text: ${path.split('/').pop()}` } },
  });
  expect(res.statusCode, res.body).toBe(201);
}

async function call(method: 'POST' | 'DELETE', url: string, payload?: object) {
  const res = await t.request({ method, url, ...(payload ? { payload } : {}) });
  expect(res.statusCode, res.body).toBeLessThan(300);
}

async function total(folder: string, query = '') {
  const res = await t.request({ method: 'GET', url: `/cms/rest/assets/list/${encodePath(folder)}?${query}` });
  expect(res.statusCode, res.body).toBe(200);
  return AssetList.parse(res.json()).total;
}

/** Every folder's counter equals the number of asset nodes in it (folders without assets: no row, or 0). */
async function expectCountersExact() {
  const db = t.app.folio.ctx.db;
  const real = await sql<{ folder_id: string; n: number | string }>`
    select parent_id as folder_id, count(*) as n from nodes where kind = 'asset' group by parent_id`.execute(db);
  const kept = await sql<{ folder_id: string; n: number | string }>`
    select folder_id, n from folder_asset_counts where n <> 0`.execute(db);
  const asMap = (rows: { folder_id: string; n: number | string }[]) =>
    Object.fromEntries(rows.map((r) => [r.folder_id, toNumber(r.n)]));
  expect(asMap(kept.rows)).toEqual(asMap(real.rows));
  const negative = await sql`select folder_id from folder_asset_counts where n < 0`.execute(db);
  expect(negative.rows).toEqual([]);
}

describe('asset listing total (per-folder counters)', () => {
  it('stays exact across create, upload, delete, forced delete, move and rename', async () => {
    for (const n of ['a', 'b', 'c', 'd']) await createText(`Assets/one/${n}`);
    expect((await upload(t, 'Assets/one/photo.png', await image('png', 8, 8))).statusCode).toBe(201);
    await createText('Assets/two/x');
    expect(await total('Assets/one')).toBe(5);
    expect(await total('Assets/two')).toBe(1);
    await expectCountersExact();

    await call('DELETE', '/cms/rest/assets/by-path/Assets/one/a');
    await call('DELETE', '/cms/rest/assets/by-path/Assets/one/b?force=true');
    expect(await total('Assets/one')).toBe(3);
    await expectCountersExact();

    await call('POST', '/cms/rest/folders/move', { itemPath: 'Assets/one/c', targetFolderPath: 'Assets/two' });
    expect(await total('Assets/one')).toBe(2);
    expect(await total('Assets/two')).toBe(2);
    await call('POST', '/cms/rest/folders/rename', { path: 'Assets/two/c', newName: 'c2' });
    expect(await total('Assets/two')).toBe(2);
    // Moving a folder moves no asset from its folder.
    await call('POST', '/cms/rest/folders/move', { itemPath: 'Assets/two', targetFolderPath: 'Assets/one' });
    expect(await total('Assets/one/two')).toBe(2);
    expect(await total('Assets/one')).toBe(2);
    expect(await total('Assets/one', 'recursive=true')).toBe(4);
    expect(await total('Assets', 'recursive=true')).toBe(4);
    await expectCountersExact();
  });

  it('stays exact when folders are copied and deleted with their assets', async () => {
    for (const n of ['a', 'b', 'c']) await createText(`Assets/src/${n}`);
    for (const n of ['d', 'e']) await createText(`Assets/src/deep/${n}`);
    await createText('Assets/dst/keep');
    await call('POST', '/cms/rest/folders/copy', { itemPath: 'Assets/src', targetFolderPath: 'Assets/dst' });
    expect(await total('Assets/dst/src')).toBe(3);
    expect(await total('Assets/dst/src/deep')).toBe(2);
    expect(await total('Assets/dst')).toBe(1);
    expect(await total('Assets', 'recursive=true')).toBe(11);
    await expectCountersExact();

    await call('DELETE', '/cms/rest/folders/by-path/Assets/src?includeSubFolders=true');
    expect(await total('Assets', 'recursive=true')).toBe(6);
    await expectCountersExact();
    // A folder made again under the old name starts from nothing.
    await createText('Assets/src/z');
    expect(await total('Assets/src')).toBe(1);
    await expectCountersExact();
  });

  it('stays exact under concurrent creates in one folder', async () => {
    const names = Array.from({ length: 24 }, (_, i) => `n${i}`);
    await Promise.all(names.map((n) => createText(`Assets/busy/${n}`)));
    expect(await total('Assets/busy')).toBe(24);
    await Promise.all(names.slice(0, 10).map((n) => call('DELETE', `/cms/rest/assets/by-path/Assets/busy/${n}`)));
    expect(await total('Assets/busy')).toBe(14);
    await expectCountersExact();
  });

  it('counts the matching rows when a filter applies', async () => {
    for (const n of ['apple', 'apricot', 'banana']) await createText(`Assets/f/${n}`);
    expect((await upload(t, 'Assets/f/pic.png', await image('png', 8, 8))).statusCode).toBe(201);
    expect(await total('Assets/f')).toBe(4);
    expect(await total('Assets/f', 'q=ap')).toBe(2);
    expect(await total('Assets/f', 'type=cmsImageAsset')).toBe(1);
    expect(await total('Assets/f', 'state=Draft&type=cmsSimpleTextAsset')).toBe(3);
    expect(await total('Assets', 'recursive=true&q=banana')).toBe(1);
  });
});
