import fs from 'node:fs';
import { sharedRuns } from '../lib/shared-runs.js';

/**
 * Group commit for SQLite.
 *
 * SQLite runs in WAL mode with `synchronous=NORMAL`: a commit writes its frames to the `-wal` file and returns
 * without an fsync. Such a commit already survives a crash of the process (the kernel holds the bytes); what it
 * does not survive yet is a crash of the machine. A request that wrote is acknowledged only after `durable()`:
 * one `fdatasync` of the WAL file, run on libuv's thread pool, that *started after* the request's commits.
 *
 * Every request waiting at the same moment shares one fdatasync, and the event loop keeps serving while it
 * runs — with `synchronous=FULL` each commit fsynced on the event loop, one after another, and a page write
 * (page commit, then the change-generation bump) paid for two of them.
 *
 * Checkpoints keep SQLite's own guarantees: in NORMAL mode SQLite syncs the WAL before it copies frames into the
 * database file and syncs the database file before the WAL is reused, so frames a checkpoint moved are durable
 * in the database file, and frames written after it are in the WAL file this barrier syncs.
 *
 * What changes for readers: another request can read a commit a few milliseconds before the machine-crash-safe
 * fsync finishes (the writer has not been answered yet). A process crash never loses it; a power cut in those
 * milliseconds could, as with PostgreSQL's `synchronous_commit=off` for that window. An acknowledged write is
 * never lost.
 */
export interface DurabilityBarrier {
  /** Resolves when everything committed before the call is on stable storage; rejects if the sync fails. */
  durable(): Promise<void>;
  /** Syncs started so far (for tests and the bench). */
  readonly syncs: number;
  /** Calls of `durable()` so far. */
  readonly calls: number;
  /** Waits for a sync in flight, then closes the WAL descriptor. */
  close(): Promise<void>;
}

export interface BarrierOptions {
  /** Path of the SQLite database; its WAL is `<path>-wal`. */
  sqlitePath: string;
  /** The sync itself (tests slow it down or fail it); fdatasync on the thread pool by default. */
  sync?: (fd: number) => Promise<void>;
}

const fdatasync = (fd: number) =>
  new Promise<void>((resolve, reject) => fs.fdatasync(fd, (err) => (err ? reject(err) : resolve())));

export function createDurabilityBarrier(opts: BarrierOptions): DurabilityBarrier {
  const sync = opts.sync ?? fdatasync;
  const walPath = `${opts.sqlitePath}-wal`;
  // Opened once and kept open until the database closes: closing a descriptor of a file SQLite uses could drop
  // locks SQLite holds on it (POSIX advisory locks are per process and file), so it is never closed early.
  let fd: number | null = null;

  function walFd(): number | null {
    if (fd !== null) return fd;
    try {
      fd = fs.openSync(walPath, 'r');
    } catch (err) {
      // No WAL file yet means nothing was written in WAL mode yet: nothing to sync.
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
    return fd;
  }

  function syncOnce(): Promise<void> {
    // A failure to open the WAL rejects the callers of this run like a failed sync (sharedRuns catches it).
    const current = walFd();
    return current === null ? Promise.resolve() : sync(current);
  }

  // Started on the next turn of the event loop, so that the writers finishing in this turn share it; when a sync
  // is running, whoever arrives meanwhile shares the next one (it may hold their commits).
  const syncs = sharedRuns(syncOnce, { deferStart: true });

  return {
    durable: () => syncs(),
    get syncs() {
      return syncs.runs;
    },
    get calls() {
      return syncs.calls;
    },
    async close() {
      // A descriptor closed under a running fdatasync could be reused by another file before the sync ends.
      await syncs.settled();
      if (fd !== null) fs.closeSync(fd);
      fd = null;
    },
  };
}
