import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { S3_MIN_PART_SIZE, type S3Settings } from '../blobs/s3-blob-store.js';

/**
 * A real S3-compatible server for tests: s3rver (from npm), in this process, on a free port, storing under a
 * temporary directory. s3rver speaks the S3 REST protocol over HTTP with signature checks; it does not implement
 * AbortMultipartUpload or ListMultipartUploads.
 */
export interface TestS3Server {
  endpoint: string;
  /** s3rver's own storage directory. */
  dir: string;
  /** Settings for one bucket (created empty) and prefix on this server. */
  settings(bucket: string, prefix?: string): S3Settings;
  close(): Promise<void>;
}

/** s3rver accepts any key pair whose signatures it can check; these are its documented defaults. */
const ACCESS_KEY_ID = 'S3RVER';
const SECRET_ACCESS_KEY = 'S3RVER';

/** Starts s3rver with `buckets` created. */
export async function startTestS3Server(buckets: string[]): Promise<TestS3Server> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'folio-s3rver-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory: dir,
    configureBuckets: buckets.map((name) => ({ name })),
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    dir,
    settings: (bucket, prefix = '') => ({
      bucket,
      endpoint,
      region: 'us-east-1',
      accessKeyId: ACCESS_KEY_ID,
      secretAccessKey: SECRET_ACCESS_KEY,
      prefix,
      forcePathStyle: true,
      partSize: S3_MIN_PART_SIZE,
      queueSize: 2,
    }),
    async close() {
      await server.close();
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
}
