import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { image, upload } from '../modules/assets/assets.fixtures.js';
import { createTestApp, type TestApp } from '../test/harness.js';
import { startTestS3Server, type TestS3Server } from '../test/s3-server.js';
import { createS3Client } from './s3-blob-store.js';

/** The whole service with CMS_BLOB_STORE=s3, on s3rver: what the asset library does with blobs in a bucket. */
let s3: TestS3Server;
let t: TestApp;
const PREFIX = 'folio/blobs/';

function s3Env(bucket = 'assets'): Record<string, string> {
  const s = s3.settings(bucket, PREFIX);
  return {
    CMS_BLOB_STORE: 's3',
    CMS_S3_BUCKET: s.bucket,
    CMS_S3_ENDPOINT: s.endpoint!,
    CMS_S3_ACCESS_KEY_ID: s.accessKeyId!,
    CMS_S3_SECRET_ACCESS_KEY: s.secretAccessKey!,
    CMS_S3_PREFIX: PREFIX,
    CMS_S3_PART_SIZE_MIB: '5',
  };
}

async function objects(): Promise<string[]> {
  const client = createS3Client(s3.settings('assets'));
  try {
    const out = await client.send(new ListObjectsV2Command({ Bucket: 'assets' }));
    return (out.Contents ?? []).map((o) => o.Key!).sort();
  } finally {
    client.destroy();
  }
}

beforeAll(async () => {
  s3 = await startTestS3Server(['assets']);
  t = await createTestApp({ ...s3Env(), CMS_MAX_UPLOAD_BYTES: String(6 * 1024 * 1024) });
}, 60_000);
afterAll(async () => {
  await t?.close();
  await s3?.close();
});

describe('configuration of the S3 blob store', () => {
  it('needs a bucket, and credentials as a pair', () => {
    expect(() => loadConfig({ CMS_BLOB_STORE: 's3' })).toThrow(/CMS_S3_BUCKET: required/);
    expect(() => loadConfig({ CMS_BLOB_STORE: 's3', CMS_S3_BUCKET: 'b', CMS_S3_ACCESS_KEY_ID: 'k' })).toThrow(
      /set both, or neither/,
    );
    expect(() => loadConfig({ CMS_BLOB_STORE: 's3', CMS_S3_BUCKET: 'b', CMS_S3_PART_SIZE_MIB: '1' })).toThrow(
      /CMS_S3_PART_SIZE_MIB/,
    );
    expect(() => loadConfig({ CMS_BLOB_STORE: 's3', CMS_S3_BUCKET: 'b', CMS_S3_ENDPOINT: 'not a url' })).toThrow(
      /CMS_S3_ENDPOINT/,
    );
  });

  it('defaults to path-style addressing with an endpoint and virtual hosts without one', () => {
    const withEndpoint = loadConfig({ CMS_BLOB_STORE: 's3', CMS_S3_BUCKET: 'b', CMS_S3_ENDPOINT: 'http://x:9000' });
    expect(withEndpoint.s3).toMatchObject({ bucket: 'b', forcePathStyle: true, region: 'us-east-1', prefix: '' });
    expect(withEndpoint.s3?.partSize).toBe(8 * 1024 * 1024);
    expect(loadConfig({ CMS_BLOB_STORE: 's3', CMS_S3_BUCKET: 'b' }).s3?.forcePathStyle).toBe(false);
    expect(loadConfig({}).s3).toBeUndefined();
  });

  it('refuses to start when the bucket is not there', async () => {
    await expect(createTestApp(s3Env('no-such-bucket'))).rejects.toThrow(/S3 bucket "no-such-bucket" is not usable/);
  });
});

describe('the asset library on S3', () => {
  it('stores an upload and its thumbnail as objects, serves ranges, and deletes both with the asset', async () => {
    const png = await image('png', 800, 400);
    const res = await upload(t, 'Assets/pictures/wide.png', png, { filename: 'wide.png', contentType: 'image/png' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().image).toMatchObject({ width: 800, height: 400 });
    const stored = await objects();
    expect(stored).toHaveLength(2); // the image and its thumbnail
    for (const k of stored) expect(k).toMatch(/^folio\/blobs\/[0-9a-f]{32}$/);

    const whole = await t.request({ method: 'GET', url: '/cms/rest/assets/binary/Assets/pictures/wide.png' });
    expect(whole.rawPayload.equals(png)).toBe(true);
    const part = await t.request({
      method: 'GET',
      url: '/cms/rest/assets/binary/Assets/pictures/wide.png',
      headers: { range: 'bytes=1-3' },
    });
    expect(part.statusCode).toBe(206);
    expect(part.rawPayload.toString('latin1')).toBe('PNG');

    // Deleted for good (a delete to the trash keeps the objects until the purge).
    const del = await t.request({
      method: 'DELETE',
      url: '/cms/rest/assets/by-path/Assets/pictures/wide.png?purge=true',
    });
    expect(del.statusCode).toBe(200);
    expect(await objects()).toEqual([]);
  });

  it('leaves no object behind when an upload is refused', async () => {
    const tooLarge = Buffer.alloc(7 * 1024 * 1024, 1);
    const big = await upload(t, 'Assets/pictures/big.bin', tooLarge);
    expect(big.statusCode).toBe(413);
    const disguised = await upload(t, 'Assets/pictures/page.png', Buffer.from('<html><script>alert(1)</script>'), {
      contentType: 'image/png',
    });
    expect(disguised.statusCode).toBe(415);
    expect(await objects()).toEqual([]);
  });

  it('copies give an asset a blob of its own', async () => {
    const png = await image('png', 64, 64);
    expect((await upload(t, 'Assets/a/one.png', png)).statusCode).toBe(201);
    expect(
      (await t.request({ method: 'PUT', url: '/cms/rest/folders/by-path/Assets/b', payload: {} })).statusCode,
    ).toBe(201);
    const copy = await t.request({
      method: 'POST',
      url: '/cms/rest/folders/copy',
      payload: { itemPath: 'Assets/a/one.png', targetFolderPath: 'Assets/b' },
    });
    expect(copy.statusCode, copy.body).toBeLessThan(300);
    expect(await objects()).toHaveLength(4);
    await t.request({ method: 'DELETE', url: '/cms/rest/assets/by-path/Assets/a/one.png?purge=true' });
    const viaCopy = await t.request({ method: 'GET', url: '/cms/rest/assets/binary/Assets/b/one.png' });
    expect(viaCopy.rawPayload.equals(png)).toBe(true);
    expect(await objects()).toHaveLength(2);
  });
});
