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
 * Indexes what is queued (up to SEARCH_FLUSH_MAX ids) before a search reads the index, so a search finds what was
 * written before it (read-your-writes). Waits for ids another node is indexing. One cheap read when nothing is queued.
 */
export async function flushSearchIndex(db: Kysely<DB>): Promise<void> {
  let done = 0;
  // A round may take fewer than asked when another transaction took some of its ids meanwhile: hence the bound
  // on rounds as well as on ids.
  for (let round = 0; round < SEARCH_FLUSH_MAX / SEARCH_INDEX_BATCH + 2 && done < SEARCH_FLUSH_MAX; round++) {
    if (!(await repo.queued(db))) return;
    done += await repo.reindex(db, SEARCH_INDEX_BATCH, true);
  }
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
      .then(async () => {
        let done = 0;
        for (let batch = 0; batch < SEARCH_ROUND_BATCHES && !stopped; batch++) {
          // Idle: the next step of a pass that makes every row again (migration 0393), if one is under way.
          const queued = (await repo.queued(ctx.db)) || (await repo.backfill(ctx.db, SEARCH_INDEX_BATCH)) > 0;
          const taken = queued ? await repo.reindex(ctx.db, SEARCH_INDEX_BATCH) : 0;
          done += taken;
          if (taken === 0) break;
        }
        return done;
      });
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
