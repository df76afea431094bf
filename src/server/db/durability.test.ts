import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createDurabilityBarrier } from './durability.js';
import { openDatabase } from './database.js';

/** A sync the test finishes (or fails) by hand; records which descriptor each call got. */
function manualSync() {
  const calls: { fd: number; resolve: () => void; reject: (err: Error) => void }[] = [];
  const sync = (fd: number) =>
    new Promise<void>((resolve, reject) => {
      calls.push({ fd, resolve, reject });
    });
  return { sync, calls };
}

/** Lets pending promise callbacks run. */
const settle = () => new Promise((r) => setImmediate(r));

const dirs: string[] = [];
function tempDb(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-durable-'));
  dirs.push(dir);
  return path.join(dir, 'folio.db');
}
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/** A WAL file for the barrier to open (its contents do not matter to the barrier). */
function withWal(): string {
  const db = tempDb();
  fs.writeFileSync(`${db}-wal`, 'frames');
  return db;
}

describe('durability barrier', () => {
  it('serves every caller waiting at the same moment with one sync', async () => {
    const { sync, calls } = manualSync();
    const barrier = createDurabilityBarrier({ sqlitePath: withWal(), sync });
    let done = 0;
    const waits = Array.from({ length: 10 }, () => barrier.durable().then(() => done++));
    await settle();
    expect(calls).toHaveLength(1);
    expect(done).toBe(0);
    calls[0]!.resolve();
    await Promise.all(waits);
    expect(done).toBe(10);
    expect(barrier.syncs).toBe(1);
    await barrier.close();
  });

  it('makes a caller that arrives during a sync wait for the next one, shared by all who arrived meanwhile', async () => {
    const { sync, calls } = manualSync();
    const barrier = createDurabilityBarrier({ sqlitePath: withWal(), sync });
    let first = false;
    let later = 0;
    const a = barrier.durable().then(() => (first = true));
    await settle();
    // These commits came after the running sync started: it may not cover them.
    const b = [barrier.durable(), barrier.durable(), barrier.durable()].map((p) => p.then(() => later++));
    await settle();
    expect(calls).toHaveLength(1);
    calls[0]!.resolve();
    await a;
    await settle();
    expect(first).toBe(true);
    expect(later).toBe(0);
    expect(calls).toHaveLength(2);
    calls[1]!.resolve();
    await Promise.all(b);
    expect(later).toBe(3);
    expect(barrier.syncs).toBe(2);
    await barrier.close();
  });

  it('fails the callers of a failed sync, and the next caller gets a new sync', async () => {
    const { sync, calls } = manualSync();
    const barrier = createDurabilityBarrier({ sqlitePath: withWal(), sync });
    const failed = barrier.durable();
    await settle();
    calls[0]!.reject(new Error('EIO'));
    await expect(failed).rejects.toThrow('EIO');
    const retry = barrier.durable();
    await settle();
    expect(calls).toHaveLength(2);
    calls[1]!.resolve();
    await expect(retry).resolves.toBeUndefined();
    await barrier.close();
  });

  it('has nothing to sync before the WAL file exists', async () => {
    const { sync, calls } = manualSync();
    const barrier = createDurabilityBarrier({ sqlitePath: tempDb(), sync });
    await barrier.durable();
    expect(calls).toHaveLength(0);
    await barrier.close();
  });

  it('closes the WAL descriptor only after the sync in flight has ended', async () => {
    const { sync, calls } = manualSync();
    const barrier = createDurabilityBarrier({ sqlitePath: withWal(), sync });
    void barrier.durable();
    await settle();
    let closed = false;
    const closing = barrier.close().then(() => (closed = true));
    await settle();
    expect(closed).toBe(false);
    // The descriptor is still open while the sync runs.
    expect(() => fs.fstatSync(calls[0]!.fd)).not.toThrow();
    calls[0]!.resolve();
    await closing;
    expect(() => fs.fstatSync(calls[0]!.fd)).toThrow();
  });
});

describe('SQLite database: durable()', () => {
  it('syncs the WAL file that holds the commits, with synchronous=NORMAL', async () => {
    const file = tempDb();
    const synced: string[] = [];
    const database = openDatabase({
      sqlitePath: file,
      walSync: async (fd) => {
        synced.push(fs.readlinkSync(`/proc/self/fd/${fd}`));
        await new Promise<void>((resolve, reject) => fs.fdatasync(fd, (err) => (err ? reject(err) : resolve())));
      },
    });
    try {
      await database.migrate();
      const mode = await sql<{ synchronous: number }>`pragma synchronous`.execute(database.db);
      expect(mode.rows[0]!.synchronous).toBe(1); // NORMAL
      await sql`create table t (x integer)`.execute(database.db);
      await sql`insert into t values (1)`.execute(database.db);
      await database.durable();
      expect(synced).toEqual([fs.realpathSync(`${file}-wal`)]);
      expect(database.durableSyncs).toBe(1);
    } finally {
      await database.close();
    }
  });
});
