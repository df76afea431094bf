import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestS3Server, type TestS3Server } from '../test/s3-server.js';
import { BlobStoreError } from './blob-store.js';
import { createS3Client, S3BlobStore, S3_MIN_PART_SIZE } from './s3-blob-store.js';

// What every store does is in blob-store.contract.test.ts; these are the S3 store's own promises, checked
// against s3rver (a real S3-compatible server from npm, run in this process).

let s3: TestS3Server;
const clients: { destroy(): void }[] = [];
beforeAll(async () => {
  s3 = await startTestS3Server(['folio']);
});
afterAll(async () => {
  for (const c of clients) c.destroy();
  await s3?.close();
});

function open(prefix: string, extra: { tmpDir?: string; bucket?: string } = {}) {
  const settings = s3.settings(extra.bucket ?? 'folio', prefix);
  const client = createS3Client(settings);
  clients.push(client);
  return { client, store: new S3BlobStore({ client, ...settings, tmpDir: extra.tmpDir }) };
}

async function keysOf(store: S3BlobStore) {
  const out: string[] = [];
  for await (const k of store.keys()) out.push(k);
  return out.sort();
}

describe('S3 blob store', () => {
  let tmp: string | undefined;
  afterEach(async () => {
    if (tmp) await fs.rm(tmp, { recursive: true, force: true });
    tmp = undefined;
  });

  it('stores under its prefix, and lists only its own blobs', async () => {
    const { client, store } = open('site-a/blobs/');
    const other = open('site-b/blobs/').store;
    const a = await store.put(Readable.from([Buffer.from('a')]));
    const b = await other.put(Readable.from([Buffer.from('b')]));
    // Objects that are not blobs of this store are ignored.
    await client.send(new PutObjectCommand({ Bucket: 'folio', Key: 'site-a/blobs/readme.txt', Body: 'x' }));
    expect(await keysOf(store)).toEqual([a.key]);
    expect(await keysOf(other)).toEqual([b.key]);
    expect(await store.size(b.key)).toBeNull();
  });

  it('lets several stores (one per server node) on one bucket and prefix see each other’s blobs', async () => {
    const nodeA = open('shared/').store;
    const nodeB = open('shared/').store;
    const blob = await nodeA.put(Readable.from([Buffer.from('written by A')]));
    expect(await text(await nodeB.get(blob.key))).toBe('written by A');
    await nodeB.delete(blob.key);
    expect(await nodeA.size(blob.key)).toBeNull();
  });

  it('removes the local copy it lends, whether the tool succeeds or fails', async () => {
    tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'folio-s3-lend-'));
    const { store } = open('lend/', { tmpDir: tmp });
    const blob = await store.put(Readable.from([Buffer.from('image bytes')]));
    let seen = '';
    await store.withLocalFile(blob.key, async (p) => {
      seen = p;
      expect(await fs.readFile(p, 'utf8')).toBe('image bytes');
    });
    await expect(
      store.withLocalFile(blob.key, async () => {
        throw new Error('sharp failed');
      }),
    ).rejects.toThrow('sharp failed');
    expect(seen.startsWith(tmp)).toBe(true);
    expect(await fs.readdir(tmp)).toEqual([]);
  });

  it('uploads a large blob in parts and aborts the multipart upload when the source fails', async () => {
    const { client, store } = open('parts/');
    const commands: string[] = [];
    client.middlewareStack.add(
      (next, context) => async (args) => {
        commands.push(String(context.commandName));
        return next(args);
      },
      { step: 'initialize' },
    );
    const part = Buffer.alloc(S3_MIN_PART_SIZE, 1);
    const whole = await store.put(Readable.from([part, part, Buffer.from('tail')]));
    expect(await store.size(whole.key)).toBe(2 * S3_MIN_PART_SIZE + 4);
    expect(commands.filter((c) => c === 'UploadPartCommand').length).toBe(3);
    expect(commands).toContain('CompleteMultipartUploadCommand');

    commands.length = 0;
    const failing = Readable.from(
      (async function* () {
        yield part;
        yield part;
        throw new Error('client went away');
      })(),
    );
    await expect(store.put(failing)).rejects.toThrow('client went away');
    expect(commands).toContain('CreateMultipartUploadCommand');
    // s3rver answers AbortMultipartUpload with MethodNotAllowed; the store still reports the source's error.
    expect(commands).toContain('AbortMultipartUploadCommand');
    expect(commands).not.toContain('CompleteMultipartUploadCommand');
    expect(await keysOf(store)).toEqual([whole.key]);
  });

  it('reports a failing store as a server fault, not as a broken upload, and stops reading the source', async () => {
    const { store } = open('x/', { bucket: 'no-such-bucket' });
    await expect(store.init()).rejects.toThrow(/S3 bucket "no-such-bucket" is not usable/);
    const source = Readable.from([Buffer.from('data')]);
    const err = await store.put(source).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BlobStoreError);
    expect(err).toMatchObject({ syscall: 's3:put', code: 'NoSuchBucket' });
    expect(source.destroyed).toBe(true);
    await expect(store.get('0123456789abcdef0123456789abcdef')).rejects.toBeInstanceOf(BlobStoreError);
  });

  it('fails fast at start-up when the endpoint does not answer', async () => {
    const settings = { ...s3.settings('folio'), endpoint: 'http://127.0.0.1:9' };
    const client = createS3Client(settings);
    clients.push(client);
    await expect(new S3BlobStore({ client, ...settings }).init()).rejects.toThrow(/not usable/);
  });
});
