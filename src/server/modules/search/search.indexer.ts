import type { Kysely } from 'kysely';
import type { AppContext } from '../../lib/context.js';
import type { DB } from '../../db/schema.js';
import { searchIndexRows as repo } from './search.index-rows.js';

/** Queued ids a background round or one round of a flush indexes, in one transaction. */
export const SEARCH_INDEX_BATCH = 500;
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
  /** Indexes one batch of the queue now (after a round under way); answers how many ids it took. */
  runNow(): Promise<number>;
  stop(): Promise<void>;
}

/**
 * This node's background indexer: every SEARCH_INDEX_MS, when ids are queued, indexes a batch of them; when none
 * are, a batch of a pass that makes every row again, if one is under way (`backfill`). Any number of nodes may run
 * it: each takes ids no other transaction holds (search.index-rows.ts `reindex`).
 */
export function startSearchIndexer(ctx: AppContext): SearchIndexer {
  let running: Promise<number> = Promise.resolve(0);
  let stopped = false;
  const runNow = () => {
    running = running
      .catch(() => 0)
      .then(async () => {
        if (stopped) return 0;
        if (await repo.queued(ctx.db)) return repo.reindex(ctx.db, SEARCH_INDEX_BATCH);
        // Idle: the next step of a pass that makes every row again (migration 0393), if one is under way.
        return (await repo.backfill(ctx.db, SEARCH_INDEX_BATCH)) ? repo.reindex(ctx.db, SEARCH_INDEX_BATCH) : 0;
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
