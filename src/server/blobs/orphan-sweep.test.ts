import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { image, multipart } from '../modules/assets/assets.fixtures.js';
import { assetsRepository } from '../modules/assets/assets.repository.js';
import { createTestApp, type TestApp } from '../test/harness.js';
import { sweepOrphanBlobs } from './orphan-sweep.js';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});
afterEach(async () => {
  await t.close();
});

const blobs = () => t.app.folio.ctx.blobs;
const db = () => t.app.folio.ctx.db;
const put = async (text: string) => (await blobs().put(Readable.from([Buffer.from(text)]))).key;
const allKeys = async () => {
  const out: string[] = [];
  for await (const k of blobs().keys()) out.push(k);
  return out.sort();
};

async function upload(path: string) {
  const body = multipart([{ name: 'file', filename: 'x.png', content: await image('png', 64, 48) }]);
  const res = await t.request({ method: 'POST', url: `/cms/rest/assets/binary/${path}`, ...body });
  expect(res.statusCode, res.body).toBe(201);
}

describe('orphan blob sweep', () => {
  it('deletes only blobs that no asset referred to in two passes in a row', async () => {
    await upload('Assets/img/one.png');
    const referenced = await allKeys();
    expect(referenced).toHaveLength(2); // the image and its thumbnail

    const early = await put('left by a crash before its row committed');
    const adopted = await put('its row commits between the passes');
    const first = await sweepOrphanBlobs(() => assetsRepository.blobKeysInUse(db()), blobs(), new Set());
    expect(first.deleted).toBe(0);
    expect(first.scanned).toBe(4);
    expect([...first.unreferenced].sort()).toEqual([early, adopted].sort());

    // The row that refers to `adopted` commits now; `late` is written after the first pass.
    await db().updateTable('assets').set({ thumb_blob_key: adopted }).where('thumb_blob_key', 'is not', null).execute();
    const late = await put('written after the first pass');
    const second = await sweepOrphanBlobs(() => assetsRepository.blobKeysInUse(db()), blobs(), first.unreferenced);
    expect(second.deleted).toBe(1);
    const afterSecond = await allKeys();
    expect(afterSecond).not.toContain(early);
    expect(afterSecond).toContain(adopted);
    expect(afterSecond).toContain(late);
    // The old thumbnail lost its reference with the update: it is a candidate now, not yet deleted.
    expect(afterSecond).toEqual(expect.arrayContaining(referenced));

    // `late` goes. The replaced thumbnail stays: the upload's revision refers to it (issue 38 keeps a blob while
    // a revision refers to it; migration 0280), until retention prunes that revision.
    const third = await sweepOrphanBlobs(() => assetsRepository.blobKeysInUse(db()), blobs(), second.unreferenced);
    expect(third.deleted).toBe(1);
    expect(third.unreferenced.size).toBe(0);
    const row = await db().selectFrom('assets').select(['blob_key', 'thumb_blob_key']).executeTakeFirstOrThrow();
    expect(await allKeys()).toEqual([...referenced, row.thumb_blob_key!].sort());
    expect(row.thumb_blob_key).toBe(adopted);
    const download = await t.request({ method: 'GET', url: '/cms/rest/assets/binary/Assets/img/one.png' });
    expect(download.statusCode).toBe(200);
  });

  it('keeps every referenced blob however often it runs', async () => {
    await upload('Assets/img/a.png');
    await upload('Assets/img/b.png');
    const before = await allKeys();
    let previous: ReadonlySet<string> = new Set();
    for (let i = 0; i < 3; i++) {
      const r = await sweepOrphanBlobs(() => assetsRepository.blobKeysInUse(db()), blobs(), previous);
      expect(r.deleted).toBe(0);
      previous = r.unreferenced;
    }
    expect(await allKeys()).toEqual(before);
  });
});
