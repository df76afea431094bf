import type { BlobStore } from './blob-store.js';

export interface SweepResult {
  /** Keys in the store that no asset referenced during this pass. */
  unreferenced: Set<string>;
  /** Keys deleted: unreferenced in this pass and in the one before. */
  deleted: number;
  /** Keys in the store. */
  scanned: number;
}

/**
 * One pass of the orphan sweep. A blob is written before the row that refers to it commits, and deleted after the
 * row that referred to it is gone; a crash in between leaves a blob nothing refers to. Such a blob cannot be told
 * from one whose row is about to commit, so a pass only deletes keys that were unreferenced in the previous pass
 * too (`previous`, hours ago) and still are. The store is listed before the references are read: a blob written
 * after the listing is not seen, and one whose row commits after the reading is kept by the next pass.
 */
export async function sweepOrphanBlobs(
  referencedKeys: () => Promise<ReadonlySet<string>>,
  blobs: BlobStore,
  previous: ReadonlySet<string>,
): Promise<SweepResult> {
  const listed: string[] = [];
  for await (const key of blobs.keys()) listed.push(key);
  const referenced = await referencedKeys();
  const unreferenced = new Set(listed.filter((k) => !referenced.has(k)));
  let deleted = 0;
  for (const key of unreferenced) {
    if (!previous.has(key)) continue;
    await blobs.delete(key);
    unreferenced.delete(key);
    deleted++;
  }
  return { unreferenced, deleted, scanned: listed.length };
}

export interface OrphanSweeper {
  /** Runs a pass now (tests; the timer calls it too). */
  runOnce(): Promise<SweepResult>;
  /** Stops the timer and waits for a pass under way. */
  stop(): Promise<void>;
}

/**
 * Sweeps every `intervalMs` (first pass a minute after start), remembering the previous pass's unreferenced keys
 * in memory: a node that restarts starts over, which only delays deletion. Several nodes may sweep one store; each
 * deletes only what it saw unreferenced twice, which is safe whoever else sweeps.
 */
export function startOrphanSweeper(opts: {
  /** The keys the database refers to (the assets repository answers them). */
  referencedKeys: () => Promise<ReadonlySet<string>>;
  blobs: BlobStore;
  intervalMs: number;
  log: { info(obj: object, msg: string): void; error(obj: object, msg: string): void };
}): OrphanSweeper {
  let previous: ReadonlySet<string> = new Set();
  let running: Promise<SweepResult> | null = null;
  const runOnce = () => {
    running ??= sweepOrphanBlobs(opts.referencedKeys, opts.blobs, previous)
      .then((r) => {
        previous = r.unreferenced;
        if (r.deleted || r.unreferenced.size) {
          opts.log.info(
            { scanned: r.scanned, deleted: r.deleted, unreferenced: r.unreferenced.size },
            'orphan blob sweep',
          );
        }
        return r;
      })
      .finally(() => {
        running = null;
      });
    return running;
  };
  const tick = () => {
    runOnce().catch((err: unknown) => opts.log.error({ err }, 'orphan blob sweep failed'));
  };
  const first = setTimeout(tick, Math.min(60_000, opts.intervalMs));
  const every = setInterval(tick, opts.intervalMs);
  first.unref();
  every.unref();
  return {
    runOnce,
    async stop() {
      clearTimeout(first);
      clearInterval(every);
      await running?.catch(() => {});
    },
  };
}
