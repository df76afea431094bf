import type { Config } from '../config.js';
import type { BlobStore } from './blob-store.js';
import { FsBlobStore } from './fs-blob-store.js';
import { createS3Client, S3BlobStore } from './s3-blob-store.js';

/**
 * The blob store the configuration names (`CMS_BLOB_STORE`), ready to use: the filesystem store under
 * `CMS_BLOB_DIR` (shared by the nodes of a cluster), or the S3-compatible store, whose bucket is checked first.
 */
export async function openBlobStore(config: Pick<Config, 'blobStore' | 'blobDir' | 's3'>): Promise<BlobStore> {
  if (config.blobStore === 's3') {
    if (!config.s3) throw new Error('CMS_BLOB_STORE=s3 needs the CMS_S3_* settings.');
    const store = new S3BlobStore({ client: createS3Client(config.s3), ...config.s3 });
    try {
      await store.init();
    } catch (err) {
      await store.close();
      throw err;
    }
    return store;
  }
  const store = new FsBlobStore(config.blobDir);
  await store.init();
  return store;
}
