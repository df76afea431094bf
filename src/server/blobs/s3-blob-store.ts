import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import {
  BlobNotFoundError,
  BlobStoreError,
  BlobTooLargeError,
  type BlobInfo,
  type BlobStore,
  type PutOptions,
} from './blob-store.js';

const KEY_PATTERN = /^[0-9a-f]{32}$/;
const MiB = 1024 * 1024;
/** S3's smallest part of a multipart upload (all but the last part). */
export const S3_MIN_PART_SIZE = 5 * MiB;
/** Sockets to the S3 endpoint per node: downloads stream to slow clients and hold theirs open meanwhile. */
const MAX_SOCKETS = 256;

/** Where the S3-compatible store is and how to sign in to it (read from `CMS_S3_*`). */
export interface S3Settings {
  bucket: string;
  /** `https://…` of an S3-compatible service (MinIO, Ceph, R2…); unset for AWS S3 itself. */
  endpoint?: string;
  region: string;
  /** Static credentials; when unset the AWS default chain (env, profile, instance role) applies. */
  accessKeyId?: string;
  secretAccessKey?: string;
  /** Prepended to every object key, e.g. `folio/blobs/`; lets several installations share one bucket. */
  prefix: string;
  /** `bucket` in the path instead of the host name; most S3-compatible services need it. */
  forcePathStyle: boolean;
  /** Bytes per part of a multipart upload: memory per upload is at most `partSize × queueSize`. */
  partSize: number;
  /** Parts uploaded at once per upload. */
  queueSize: number;
}

/** An S3 client set up for S3-compatible services as well as AWS S3. */
export function createS3Client(s: S3Settings): S3Client {
  return new S3Client({
    region: s.region,
    ...(s.endpoint ? { endpoint: s.endpoint } : {}),
    forcePathStyle: s.forcePathStyle,
    ...(s.accessKeyId && s.secretAccessKey
      ? { credentials: { accessKeyId: s.accessKeyId, secretAccessKey: s.secretAccessKey } }
      : {}),
    // The SDK's default flexible checksums (CRC32 trailers in aws-chunked bodies) are not understood by every
    // S3-compatible service; the store hashes every blob itself (SHA-256) anyway.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: 3,
    requestHandler: {
      connectionTimeout: 10_000,
      httpAgent: { keepAlive: true, maxSockets: MAX_SOCKETS },
      httpsAgent: { keepAlive: true, maxSockets: MAX_SOCKETS },
    },
  });
}

export interface S3BlobStoreOptions {
  client: S3Client;
  bucket: string;
  prefix?: string;
  partSize?: number;
  queueSize?: number;
  /** Where `withLocalFile` downloads to (default: the OS temp dir). */
  tmpDir?: string;
}

/**
 * Blobs as objects in an S3-compatible bucket, at `<prefix><key>` with a random 128-bit key (id-addressed, like
 * the filesystem store). Uploads stream through lib-storage's multipart `Upload`: a small blob is one PUT, a large
 * one goes in parts of `partSize`, so memory stays bounded whatever the size. An object only becomes visible when
 * its upload completes, so a failed, aborted or oversized write leaves nothing visible; the store aborts the
 * multipart upload so its parts do not linger (a bucket lifecycle rule for incomplete multipart uploads is the
 * backstop for a node that dies mid-upload). Every node reading the bucket sees every blob.
 */
export class S3BlobStore implements BlobStore {
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly prefix: string;
  private readonly partSize: number;
  private readonly queueSize: number;
  private readonly tmpDir: string;

  constructor(opts: S3BlobStoreOptions) {
    this.client = opts.client;
    this.bucket = opts.bucket;
    this.prefix = opts.prefix ?? '';
    this.partSize = Math.max(opts.partSize ?? 8 * MiB, S3_MIN_PART_SIZE);
    this.queueSize = Math.max(1, opts.queueSize ?? 2);
    this.tmpDir = opts.tmpDir ?? os.tmpdir();
  }

  /** Checks at start-up that the bucket answers with these credentials, so a bad setting fails fast. */
  async init(): Promise<void> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
    } catch (err) {
      throw new Error(
        `The S3 bucket "${this.bucket}" is not usable (${describeError(err)}). Check CMS_S3_BUCKET, CMS_S3_ENDPOINT, ` +
          'CMS_S3_REGION and the credentials.',
        { cause: err },
      );
    }
  }

  async close(): Promise<void> {
    this.client.destroy();
  }

  private objectKey(key: string): string {
    if (!KEY_PATTERN.test(key)) throw new Error(`Invalid blob key: ${key}`);
    return `${this.prefix}${key}`;
  }

  async put(source: Readable, opts: PutOptions = {}): Promise<BlobInfo> {
    const key = randomUUID().replaceAll('-', '');
    const objectKey = this.objectKey(key);
    const hash = createHash('sha256');
    let size = 0;
    const max = opts.maxBytes ?? Infinity;
    // The first failure of the source or of the size limit: reported as it is, whatever the SDK makes of it.
    let streamError: unknown;
    const meter = new Transform({
      transform(chunk: Buffer, _enc, cb) {
        size += chunk.length;
        if (size > max) return cb(new BlobTooLargeError(max));
        hash.update(chunk);
        cb(null, chunk);
      },
    });
    pipeline(source, meter).catch((err: unknown) => {
      streamError ??= err;
    });
    meter.on('error', (err) => {
      streamError ??= err;
    });
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: objectKey, Body: meter },
      partSize: this.partSize,
      queueSize: this.queueSize,
      leavePartsOnError: false,
    });
    try {
      await upload.done();
    } catch (err) {
      const sourceFailure = streamError;
      // Stop reading the source (as a failed file write does) so that a client's upload ends too.
      meter.destroy();
      // Nothing was completed, unless the failure came after S3 made the object visible: remove it in case.
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: objectKey })).catch(() => {});
      if (sourceFailure) throw sourceFailure;
      throw storeError('put', err);
    }
    if (streamError) {
      // The source failed after the SDK had everything it needed; the stored bytes are not the whole source.
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: objectKey })).catch(() => {});
      throw streamError;
    }
    return { key, size, sha256: hash.digest('hex') };
  }

  async get(key: string, range?: { start: number; end: number }): Promise<Readable> {
    const objectKey = this.objectKey(key);
    try {
      const out = await this.client.send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: objectKey,
          ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
        }),
      );
      if (!(out.Body instanceof Readable)) {
        throw new BlobStoreError('S3 get answered without a readable body.', 'S3_NO_BODY', 's3:get');
      }
      const body = out.Body;
      if (!range) return body;
      // Some S3-compatible servers answer a range other than the one asked for (s3rver sends the whole object
      // for `bytes=0-0`); Content-Range says what came, so cut the asked-for bytes out of it.
      const m = /^bytes (\d+)-(\d+)\//.exec(out.ContentRange ?? '');
      const firstSent = m ? Number(m[1]) : 0;
      const lastSent = m ? Number(m[2]) : firstSent + (out.ContentLength ?? 0) - 1;
      if (firstSent === range.start && lastSent === range.end) return body;
      if (firstSent > range.start || lastSent < range.end) {
        body.destroy();
        throw new BlobStoreError(
          `S3 get answered bytes ${firstSent}-${lastSent} for ${range.start}-${range.end}.`,
          'S3_BAD_RANGE',
          's3:get',
        );
      }
      return slice(body, range.start - firstSent, range.end - range.start + 1);
    } catch (err) {
      if (err instanceof BlobStoreError) throw err;
      if (isNotFound(err)) throw new BlobNotFoundError(key);
      throw storeError('get', err);
    }
  }

  async size(key: string): Promise<number | null> {
    if (!KEY_PATTERN.test(key)) return null;
    try {
      const out = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
      return out.ContentLength ?? 0;
    } catch (err) {
      if (isNotFound(err)) return null;
      throw storeError('head', err);
    }
  }

  async withLocalFile<T>(key: string, fn: (path: string) => Promise<T>): Promise<T> {
    const body = await this.get(key);
    const dir = await fsp.mkdtemp(path.join(this.tmpDir, 'folio-s3-'));
    try {
      const file = path.join(dir, key);
      await pipeline(body, fs.createWriteStream(file, { flags: 'wx', mode: 0o600 }));
      return await fn(file);
    } finally {
      await fsp.rm(dir, { recursive: true, force: true });
    }
  }

  async delete(key: string): Promise<void> {
    if (!KEY_PATTERN.test(key)) return;
    try {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
    } catch (err) {
      if (isNotFound(err)) return;
      throw storeError('delete', err);
    }
  }

  async *keys(): AsyncIterable<string> {
    let token: string | undefined;
    do {
      let page;
      try {
        page = await this.client.send(
          new ListObjectsV2Command({ Bucket: this.bucket, Prefix: this.prefix, ContinuationToken: token }),
        );
      } catch (err) {
        throw storeError('list', err);
      }
      for (const o of page.Contents ?? []) {
        const k = o.Key?.slice(this.prefix.length);
        if (k && KEY_PATTERN.test(k)) yield k;
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }
}

/** The `take` bytes of `source` after its first `skip`; the rest of `source` is not read. */
function slice(source: Readable, skip: number, take: number): Readable {
  let offset = 0;
  let done = false;
  const out = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      if (done) return cb();
      const from = Math.max(0, skip - offset);
      const to = Math.min(chunk.length, skip + take - offset);
      offset += chunk.length;
      if (to > from) this.push(chunk.subarray(from, to));
      if (offset >= skip + take) {
        done = true;
        this.push(null);
        source.unpipe(out);
        source.destroy();
      }
      cb();
    },
  });
  source.on('error', (err) => out.destroy(err));
  return source.pipe(out);
}

function isNotFound(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } } | null;
  if (e?.name === 'NoSuchBucket') return false; // the store is misconfigured: a server fault, not a missing blob
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404;
}

function describeError(err: unknown): string {
  const e = err as { name?: string; message?: string; $metadata?: { httpStatusCode?: number } } | null;
  const status = e?.$metadata?.httpStatusCode;
  return [e?.name, status ? `HTTP ${status}` : undefined, e?.message].filter(Boolean).join(': ') || String(err);
}

function storeError(operation: string, err: unknown): BlobStoreError {
  const e = err as { name?: string; code?: string } | null;
  return new BlobStoreError(
    `S3 ${operation} failed: ${describeError(err)}`,
    e?.code ?? e?.name ?? 'S3_ERROR',
    `s3:${operation}`,
    {
      cause: err,
    },
  );
}
