import type { Kysely } from 'kysely';
import type { AppContext } from '../../lib/context.js';
import type { DB } from '../../db/schema.js';
import { searchIndexRows as repo } from './search.index-rows.js';

/**
 * Queued ids one transaction of the indexer takes. A write of an id being indexed waits for that transaction to end
 * (search.index-rows.ts `reindex`), so it is kept short: with 500, a PUT of pages being indexed waited up to
 * 100–120 ms at p99 on PostgreSQL (27–33 ms with 20; bench/NOTES.md, 2026-11-30).
 */
export const SEARCH_INDEX_BATCH = 50;
/** Batches a background round takes at most, one transaction each: 500 ids a second. */
export const SEARCH_ROUND_BATCHES = 10;
/** At most this many queued ids are indexed before one search; beyond, it answers with what is indexed. */
export const SEARCH_FLUSH_MAX = 5_000;
/** How often each node's background indexer looks at the queue. */
export const SEARCH_INDEX_MS = 1_000;

/**
 * Takes batches of queued ids, each in a transaction of its own (search.index-rows.ts `reindex`), until none is
 * queued, `rounds` batches or `ids` ids were taken, or `stopped` says so; answers how many ids it took. With `wait`,
 * it waits for ids another transaction is taking (a batch may then take none, hence the bound on rounds); without,
 * it skips them and ends there. With `backfill`, an empty queue takes the next batch of a pass that makes every row
 * again, if one is under way (migration 0393).
 */
async function indexQueued(
  db: Kysely<DB>,
  opts: { rounds: number; ids: number; wait: boolean; backfill: boolean; stopped?: () => boolean },
): Promise<number> {
  let done = 0;
  for (let round = 0; round < opts.rounds && done < opts.ids && !opts.stopped?.(); round++) {
    const queued = (await repo.queued(db)) || (opts.backfill && (await repo.backfill(db, SEARCH_INDEX_BATCH)) > 0);
    if (!queued) break;
    const taken = await repo.reindex(db, SEARCH_INDEX_BATCH, opts.wait);
    done += taken;
    if (taken === 0 && !opts.wait) break;
  }
  return done;
}

/**
 * Indexes what is queued (up to SEARCH_FLUSH_MAX ids) before a search reads the index, so a search finds what was
 * written before it (read-your-writes). Waits for ids another node is indexing. One cheap read when nothing is queued.
 */
export async function flushSearchIndex(db: Kysely<DB>): Promise<void> {
  const rounds = SEARCH_FLUSH_MAX / SEARCH_INDEX_BATCH + 2;
  await indexQueued(db, { rounds, ids: SEARCH_FLUSH_MAX, wait: true, backfill: false });
}

export interface SearchIndexer {
  /** Takes one round now (after a round under way); answers how many ids it indexed. */
  runNow(): Promise<number>;
  stop(): Promise<void>;
}

/**
 * This node's background indexer: every SEARCH_INDEX_MS a round of up to SEARCH_ROUND_BATCHES batches, each in a
 * transaction of its own: queued ids, or when none are, the next batch of a pass that makes every row again, if one
 * is under way (`backfill`). Any number of nodes may run it: each takes ids no other transaction holds
 * (search.index-rows.ts `reindex`).
 */
export function startSearchIndexer(ctx: AppContext): SearchIndexer {
  let running: Promise<number> = Promise.resolve(0);
  let stopped = false;
  const runNow = () => {
    running = running
      .catch(() => 0)
      .then(() =>
        indexQueued(ctx.db, {
          rounds: SEARCH_ROUND_BATCHES,
          ids: SEARCH_ROUND_BATCHES * SEARCH_INDEX_BATCH,
          wait: false,
          backfill: true,
          stopped: () => stopped,
        }),
      );
    return running;
  };
  const every = setInterval(() => {
    runNow().catch((err: unknown) => ctx.log.error({ err }, 'search indexing failed; it is tried again'));
  }, SEARCH_INDEX_MS);
  every.unref();
  return {
    runNow,
    async stop() {
      stopped = true;
      clearInterval(every);
      await running.catch(() => {});
    },
  };
}
