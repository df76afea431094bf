import { Worker } from 'node:worker_threads';

/**
 * SHA-256 of a file being written, computed on a worker thread, so that hashing a large upload (about 0.6 s of
 * CPU per GiB with SHA extensions) runs beside the main thread instead of on it. The worker reads each range
 * back from the file (from the page cache: it was just written) through the caller's descriptor, so nothing is
 * copied or posted between threads but offsets; reading costs the worker a memory copy, the main thread nothing.
 * The digest is the exact SHA-256 of the ranges' bytes, in the order they were passed.
 *
 * One worker serves every hash in the process (started on first use, unreferenced while idle so it never keeps
 * the process alive); if it dies, the hashes in progress fail and the next one starts a new worker.
 */
export interface OffThreadSha256 {
  /**
   * Adds the bytes `[position, position + length)` of the file open as `fd`. They must be written already, and
   * `fd` stay open until the promise settles. Calls are taken in order (the next may be made before this settles).
   */
  update(fd: number, position: number, length: number): Promise<void>;
  /** Hex digest; the hash is finished afterwards. */
  digest(): Promise<string>;
  /** Forgets the hash (an aborted write); pending updates still settle. */
  discard(): void;
}

/** Bytes the worker reads at a time. */
const READ_BUFFER = 1024 * 1024;

/** The worker's code (CommonJS, evaluated), so it runs the same from TypeScript sources and from the build. */
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const { readSync } = require('node:fs');
const hashes = new Map();
let buffer = Buffer.allocUnsafe(0);
parentPort.on('message', (m) => {
  try {
    if (m.op === 'update') {
      let h = hashes.get(m.id);
      if (h === null) throw new Error('an earlier update failed');
      if (!h) hashes.set(m.id, (h = createHash('sha256')));
      if (buffer.length < Math.min(m.length, ${READ_BUFFER})) buffer = Buffer.allocUnsafe(Math.min(m.length, ${READ_BUFFER}));
      for (let done = 0; done < m.length; ) {
        const n = readSync(m.fd, buffer, 0, Math.min(buffer.length, m.length - done), m.position + done);
        if (n === 0) throw new Error('the file is shorter than the range');
        h.update(n === buffer.length ? buffer : buffer.subarray(0, n));
        done += n;
      }
      parentPort.postMessage({ seq: m.seq });
    } else if (m.op === 'digest') {
      const h = hashes.has(m.id) ? hashes.get(m.id) : createHash('sha256');
      hashes.delete(m.id);
      if (h === null) throw new Error('an earlier update failed');
      parentPort.postMessage({ seq: m.seq, digest: h.digest('hex') });
    } else if (m.op === 'discard') {
      hashes.delete(m.id);
    }
  } catch (err) {
    // A hash that missed bytes must never give a digest.
    if (m.op === 'update') hashes.set(m.id, null);
    parentPort.postMessage({ seq: m.seq, error: String(err && err.message || err) });
  }
});
`;

interface Reply {
  seq: number;
  digest?: string;
  error?: string;
}

interface Pending {
  resolve(digest: string | undefined): void;
  reject(err: Error): void;
}

let worker: Worker | null = null;
/** Which worker this is: a hash whose worker died cannot go on in the next one (its state is lost). */
let generation = 0;
let nextSeq = 0;
let nextId = 0;
const pending = new Map<number, Pending>();

function hashWorker(): Worker {
  if (worker) return worker;
  const w = new Worker(WORKER_SOURCE, { eval: true, name: 'folio-sha256' });
  generation++;
  w.unref();
  w.on('message', (reply: Reply) => {
    const p = pending.get(reply.seq);
    if (!p) return;
    pending.delete(reply.seq);
    if (pending.size === 0) w.unref();
    if (reply.error !== undefined) p.reject(new Error(`SHA-256 worker: ${reply.error}`));
    else p.resolve(reply.digest);
  });
  const fail = (err: Error) => {
    if (worker === w) worker = null;
    const all = [...pending.values()];
    pending.clear();
    for (const p of all) p.reject(err);
  };
  w.on('error', fail);
  w.on('exit', (code) => fail(new Error(`SHA-256 worker exited (${code})`)));
  worker = w;
  return w;
}

function call(message: Record<string, unknown>, onGeneration: number): Promise<string | undefined> {
  const w = hashWorker();
  if (generation !== onGeneration) return Promise.reject(new Error('SHA-256 worker restarted during the hash'));
  const seq = nextSeq++;
  return new Promise((resolve, reject) => {
    pending.set(seq, { resolve, reject });
    // Referenced while a reply is awaited, so a script waiting for a digest is not cut short.
    w.ref();
    w.postMessage({ ...message, seq });
  });
}

export function offThreadSha256(): OffThreadSha256 {
  const id = nextId++;
  let done = false;
  hashWorker();
  const gen = generation;
  return {
    async update(fd, position, length) {
      if (done) throw new Error('The hash is finished.');
      await call({ op: 'update', id, fd, position, length }, gen);
    },
    async digest() {
      if (done) throw new Error('The hash is finished.');
      done = true;
      return (await call({ op: 'digest', id }, gen))!;
    },
    discard() {
      if (done) return;
      done = true;
      worker?.postMessage({ op: 'discard', id, seq: -1 });
    },
  };
}
