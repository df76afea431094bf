import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { buffer, text } from 'node:stream/consumers';
import { ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestS3Server, type TestS3Server } from '../test/s3-server.js';
import { BlobTooLargeError, type BlobStore } from './blob-store.js';
import { FsBlobStore } from './fs-blob-store.js';
import { createS3Client, S3BlobStore } from './s3-blob-store.js';

/**
 * The BlobStore contract, run against every implementation: what the assets and folders modules rely on,
 * whichever store a deployment picks (CMS_BLOB_STORE).
 */
interface StoreUnderTest {
  store: BlobStore;
  /** Everything the backing storage holds (files, objects), visible or not, to prove failures leave nothing. */
  leftovers(): Promise<string[]>;
  dispose(): Promise<void>;
}

const MiB = 1024 * 1024;
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** `size` deterministic pseudo-random bytes, so ranges and part boundaries are checked against real content. */
function bytes(size: number, seed = 1): Buffer {
  const out = Buffer.alloc(size);
  let x = seed;
  for (let i = 0; i < size; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    out[i] = x >>> 24;
  }
  return out;
}

/** A stream of `data` in chunks of `chunk` bytes, as an upload arrives. */
function chunked(data: Buffer, chunk = 64 * 1024): Readable {
  return Readable.from(
    (function* () {
      for (let i = 0; i < data.length; i += chunk) yield data.subarray(i, i + chunk);
    })(),
  );
}

/** A stream that yields `before` bytes, then fails the way a dropped client connection does. */
function failingAfter(before: number): Readable {
  return Readable.from(
    (async function* () {
      for (let sent = 0; sent < before; sent += 64 * 1024) yield Buffer.alloc(Math.min(64 * 1024, before - sent), 7);
      throw new Error('client went away');
    })(),
  );
}

async function allFiles(d: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await fs.readdir(d, { withFileTypes: true }).catch(() => [])) {
    const p = path.join(d, e.name);
    if (e.isDirectory()) out.push(...(await allFiles(p)));
    else out.push(p);
  }
  return out;
}

async function allObjects(client: S3Client, bucket: string): Promise<string[]> {
  const out = await client.send(new ListObjectsV2Command({ Bucket: bucket }));
  return (out.Contents ?? []).map((o) => o.Key!);
}

let s3: TestS3Server;
beforeAll(async () => {
  s3 = await startTestS3Server(['contract']);
});
afterAll(async () => {
  await s3?.close();
});

const implementations: [string, () => Promise<StoreUnderTest>][] = [
  [
    'filesystem store',
    async () => {
      const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'folio-blobs-'));
      const store = new FsBlobStore(dir);
      await store.init();
      return {
        store,
        leftovers: () => allFiles(dir),
        dispose: () => fs.rm(dir, { recursive: true, force: true }),
      };
    },
  ],
  [
    'S3 store (against s3rver, a real S3-compatible server)',
    async () => {
      const settings = s3.settings('contract', `c${Date.now()}/`);
      const client = createS3Client(settings);
      const store = new S3BlobStore({ client, ...settings });
      await store.init();
      return {
        store,
        leftovers: async () => (await allObjects(client, 'contract')).filter((k) => k.startsWith(settings.prefix)),
        dispose: async () => {
          for await (const k of store.keys()) await store.delete(k);
          client.destroy();
        },
      };
    },
  ],
];

describe.each(implementations)('BlobStore contract: %s', (_name, open) => {
  let t: StoreUnderTest;
  let store: BlobStore;
  beforeEach(async () => {
    t = await open();
    store = t.store;
  });
  afterEach(async () => {
    await t.dispose();
  });

  const listKeys = async () => {
    const keys: string[] = [];
    for await (const k of store.keys()) keys.push(k);
    return keys.sort();
  };

  it('stores, reads whole and in ranges, sizes, lists and deletes', async () => {
    const info = await store.put(Readable.from([Buffer.from('hello '), Buffer.from('world')]));
    expect(info).toEqual({
      key: expect.stringMatching(/^[0-9a-f]{32}$/),
      size: 11,
      sha256: 'b94d27b9934d3e08a52e52d7da7dabfac484efe37a5380ee9088f7ace2efcde9',
    });
    expect(await text(await store.get(info.key))).toBe('hello world');
    expect(await text(await store.get(info.key, { start: 6, end: 10 }))).toBe('world');
    expect(await text(await store.get(info.key, { start: 0, end: 0 }))).toBe('h');
    expect(await store.size(info.key)).toBe(11);
    expect(await listKeys()).toEqual([info.key]);
    await store.delete(info.key);
    expect(await store.size(info.key)).toBeNull();
    expect(await listKeys()).toEqual([]);
    await store.delete(info.key); // deleting a missing blob is fine
  });

  it('stores an empty blob', async () => {
    const info = await store.put(Readable.from([]));
    expect(info.size).toBe(0);
    expect(info.sha256).toBe(sha256(Buffer.alloc(0)));
    expect(await store.size(info.key)).toBe(0);
    expect((await buffer(await store.get(info.key))).length).toBe(0);
  });

  it('gives every blob its own key, even for equal content', async () => {
    const a = await store.put(Readable.from([Buffer.from('same')]));
    const b = await store.put(Readable.from([Buffer.from('same')]));
    expect(a.key).not.toBe(b.key);
    await store.delete(a.key);
    expect(await text(await store.get(b.key))).toBe('same');
  });

  it('streams a blob larger than an upload part and reads ranges across part boundaries', async () => {
    const data = bytes(12 * MiB + 12345);
    const info = await store.put(chunked(data));
    expect(info.size).toBe(data.length);
    expect(info.sha256).toBe(sha256(data));
    expect(sha256(await buffer(await store.get(info.key)))).toBe(sha256(data));
    const start = 5 * MiB - 10;
    const end = 10 * MiB + 10;
    expect((await buffer(await store.get(info.key, { start, end }))).equals(data.subarray(start, end + 1))).toBe(true);
    const last = data.length - 1;
    expect((await buffer(await store.get(info.key, { start: last, end: last })))[0]).toBe(data[last]);
  }, 60_000);

  it('stores concurrent writes side by side', async () => {
    const datas = Array.from({ length: 6 }, (_, i) => bytes(200_000 + i, i + 1));
    const infos = await Promise.all(datas.map((d) => store.put(chunked(d, 10_000))));
    expect(new Set(infos.map((i) => i.key)).size).toBe(datas.length);
    for (const [i, info] of infos.entries()) {
      expect((await buffer(await store.get(info.key))).equals(datas[i]!)).toBe(true);
    }
    expect(await listKeys()).toEqual(infos.map((i) => i.key).sort());
  });

  it('refuses content over maxBytes and leaves nothing behind, small or multipart', async () => {
    await expect(store.put(chunked(bytes(10_000), 1000), { maxBytes: 5000 })).rejects.toBeInstanceOf(BlobTooLargeError);
    await expect(store.put(chunked(bytes(11 * MiB)), { maxBytes: 10 * MiB })).rejects.toBeInstanceOf(BlobTooLargeError);
    expect(await listKeys()).toEqual([]);
    expect(await t.leftovers()).toEqual([]);
    // Exactly maxBytes is allowed.
    const ok = await store.put(chunked(bytes(5000), 1000), { maxBytes: 5000 });
    expect(ok.size).toBe(5000);
  }, 60_000);

  it('rejects with the source error when the source fails, small or multipart, and leaves nothing', async () => {
    await expect(store.put(failingAfter(100))).rejects.toThrow(/went away/);
    await expect(store.put(failingAfter(11 * MiB))).rejects.toThrow(/went away/);
    expect(await listKeys()).toEqual([]);
    expect(await t.leftovers()).toEqual([]);
  }, 60_000);

  it('answers a missing blob: get and withLocalFile reject with ENOENT, size is null', async () => {
    const info = await store.put(Readable.from([Buffer.from('x')]));
    await store.delete(info.key);
    await expect(store.get(info.key)).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(store.withLocalFile(info.key, async () => 1)).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await store.size(info.key)).toBeNull();
    expect(await store.size('0123456789abcdef0123456789abcdef')).toBeNull();
  });

  it('refuses malformed keys without touching anything else', async () => {
    await expect(store.get('../../etc/passwd')).rejects.toThrow(/Invalid blob key/);
    expect(await store.size('../x')).toBeNull();
    await store.delete('../x');
  });

  it('lends a local file with the bytes to a tool, passing its result and its failure through', async () => {
    const data = bytes(300_000);
    const info = await store.put(chunked(data));
    const seen = await store.withLocalFile(info.key, async (p) => sha256(await fs.readFile(p)));
    expect(seen).toBe(sha256(data));
    await expect(
      store.withLocalFile(info.key, async () => {
        throw new Error('tool failed');
      }),
    ).rejects.toThrow('tool failed');
    expect(await store.size(info.key)).toBe(data.length);
  });
});
