import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FsBlobStore } from './fs-blob-store.js';

// What every store does is in blob-store.contract.test.ts; these are the filesystem store's own promises.

let dir: string;
let store: FsBlobStore;
beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'folio-blobs-'));
  store = new FsBlobStore(dir);
  await store.init();
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

async function allFiles(d: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await fs.readdir(d, { withFileTypes: true })) {
    const p = path.join(d, e.name);
    if (e.isDirectory()) out.push(...(await allFiles(p)));
    else out.push(p);
  }
  return out;
}

describe('filesystem blob store', () => {
  it('stores a blob larger than its flush interval whole, with its size and hash', async () => {
    // 150 MiB in 1 MiB chunks of varying bytes: two background flushes on the way, then the final fsync.
    const chunks = Array.from({ length: 150 }, (_, i) => Buffer.alloc(1024 * 1024, i));
    const expected = createHash('sha256');
    for (const c of chunks) expected.update(c);
    const info = await store.put(Readable.from(chunks));
    expect(info.size).toBe(150 * 1024 * 1024);
    expect(info.sha256).toBe(expected.digest('hex'));
    const stored = createHash('sha256');
    for await (const c of await store.get(info.key)) stored.update(c as Buffer);
    expect(stored.digest('hex')).toBe(info.sha256);
    expect(await fs.readdir(path.join(dir, 'tmp'))).toEqual([]);
  });

  it('hashes concurrent multi-batch blobs each on its own (one hashing worker for all)', async () => {
    const contents = [3, 5, 7].map((mib, i) => {
      const b = Buffer.alloc(mib * 1024 * 1024 + 1234 * i);
      for (let j = 0; j < b.length; j += 4096) b[j] = (j / 4096 + i) & 0xff;
      return b;
    });
    // 64 KiB chunks, as an upload arrives.
    const chunksOf = (b: Buffer) =>
      Array.from({ length: Math.ceil(b.length / 65536) }, (_, k) => b.subarray(k * 65536, (k + 1) * 65536));
    const infos = await Promise.all(contents.map((b) => store.put(Readable.from(chunksOf(b)))));
    infos.forEach((info, i) => {
      expect(info.size).toBe(contents[i]!.length);
      expect(info.sha256).toBe(createHash('sha256').update(contents[i]!).digest('hex'));
    });
    for (const [i, info] of infos.entries()) {
      expect(
        (await fs.readFile(path.join(dir, info.key.slice(0, 2), info.key.slice(2, 4), info.key))).equals(contents[i]!),
      ).toBe(true);
    }
  });

  it('keeps each blob as one file under a two-level fan-out, nothing in tmp/', async () => {
    const info = await store.put(Readable.from([Buffer.from('hello')]));
    expect(await allFiles(dir)).toEqual([path.join(dir, info.key.slice(0, 2), info.key.slice(2, 4), info.key)]);
    expect(await store.withLocalFile(info.key, async (p) => p)).toBe(
      path.join(dir, info.key.slice(0, 2), info.key.slice(2, 4), info.key),
    );
  });

  it('sweeps stale temp files at start, and keeps fresh ones another node may be writing', async () => {
    await fs.writeFile(path.join(dir, 'tmp', 'stale.part'), 'partial');
    await fs.writeFile(path.join(dir, 'tmp', 'fresh.part'), 'being written');
    const old = new Date(Date.now() - 48 * 3600_000);
    await fs.utimes(path.join(dir, 'tmp', 'stale.part'), old, old);
    await new FsBlobStore(dir).init();
    expect(await allFiles(dir)).toEqual([path.join(dir, 'tmp', 'fresh.part')]);
  });

  it('lets several stores (one per server node) share one directory', async () => {
    const other = new FsBlobStore(dir);
    await other.init();
    const a = await store.put(Readable.from([Buffer.from('from node A')]));
    const b = await other.put(Readable.from([Buffer.from('from node B')]));
    expect(await text(await other.get(a.key))).toBe('from node A');
    expect(await text(await store.get(b.key))).toBe('from node B');
    await other.delete(a.key);
    expect(await store.size(a.key)).toBeNull();
    const keys: string[] = [];
    for await (const k of store.keys()) keys.push(k);
    expect(keys).toEqual([b.key]);
  });
});
