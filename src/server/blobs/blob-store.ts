import type { Readable } from 'node:stream';

/** What a finished write tells about the blob it stored. */
export interface BlobInfo {
  key: string;
  size: number;
  /** Hex SHA-256 of the content. */
  sha256: string;
}

export interface PutOptions {
  /** Refuse (and leave nothing behind) past this many bytes. */
  maxBytes?: number;
}

/** Thrown by `put` when the content is larger than `maxBytes`. */
export class BlobTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`The content is larger than ${maxBytes} bytes.`);
    this.name = 'BlobTooLargeError';
  }
}

/**
 * Rejection of `get` and `withLocalFile` when there is no such blob. Its `code` is `ENOENT`, as for a missing
 * file, so callers test one thing whatever the store.
 */
export class BlobNotFoundError extends Error {
  readonly code = 'ENOENT';
  constructor(readonly key: string) {
    super(`No blob ${key}.`);
    this.name = 'BlobNotFoundError';
  }
}

/**
 * A failure of the store itself (a remote store refused or did not answer), as opposed to a failure of the
 * source stream being written. Shaped like Node's own I/O errors (`code`, `syscall`) so callers that tell
 * server faults from broken uploads by that shape treat it as a server fault.
 */
export class BlobStoreError extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly syscall: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'BlobStoreError';
  }
}

/**
 * Binary content, addressed by an opaque id-like key chosen by the store. A blob is either completely there or
 * not there at all: a failed, aborted or oversized write leaves nothing visible. Blobs are immutable.
 */
export interface BlobStore {
  /** Streams `source` into a new blob. */
  put(source: Readable, opts?: PutOptions): Promise<BlobInfo>;
  /**
   * A stream of the blob's bytes, or of the inclusive byte range `[start, end]`. Rejects with an error whose
   * `code` is `ENOENT` when there is no such blob.
   */
  get(key: string, range?: { start: number; end: number }): Promise<Readable>;
  /** Size in bytes, or null when there is no such blob. */
  size(key: string): Promise<number | null>;
  /**
   * Runs `fn` with the path of a local file holding the blob's bytes, for tools that read files (sharp reads
   * only the parts it needs from a file, but buffers a whole stream). The filesystem store passes the blob's own
   * file; a remote store downloads to a temporary file and removes it once `fn` settles. `fn` must not modify
   * or keep the file. Rejects (`code` `ENOENT`) when there is no such blob.
   */
  withLocalFile<T>(key: string, fn: (path: string) => Promise<T>): Promise<T>;
  /** Removes a blob; removing a missing one is not an error. */
  delete(key: string): Promise<void>;
  /** Every key in the store (for sweeping orphans). */
  keys(): AsyncIterable<string>;
  /** Releases connections (a remote store); the store is not used afterwards. */
  close?(): Promise<void>;
}
