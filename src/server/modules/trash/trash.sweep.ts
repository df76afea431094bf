import type { AppContext } from '../../lib/context.js';
import type { TrashService } from './trash.service.js';

/** How often each node purges what has been in the trash longer than `CMS_TRASH_DAYS`. */
export const TRASH_SWEEP_MS = 3_600_000;

export interface TrashSweep {
  /** Purges what is due now (after a run under way); answers how many entries this run purged. */
  runNow(): Promise<number>;
  stop(): Promise<void>;
}

/**
 * The trash's purge: once at start (a time missed while no node ran is acted on at once), then every hour. Any
 * number of nodes may run it: each entry is purged in a transaction of its own that finds it first.
 */
export function startTrashSweep(ctx: AppContext, trash: TrashService): TrashSweep {
  let running: Promise<number> = Promise.resolve(0);
  const runNow = () => {
    running = running
      .catch(() => 0)
      .then(async () => {
        const purged = await trash.purgeDue();
        if (purged) {
          await ctx.database.durable();
          await ctx.generation.bump();
          ctx.log.info({ purged }, 'trash purged');
        }
        return purged;
      });
    return running;
  };
  const tick = () => {
    runNow().catch((err: unknown) => ctx.log.error({ err }, 'the trash purge failed; it is tried again'));
  };
  const first = setTimeout(tick, 0);
  const every = setInterval(tick, TRASH_SWEEP_MS);
  first.unref();
  every.unref();
  return {
    runNow,
    async stop() {
      clearTimeout(first);
      clearInterval(every);
      await running.catch(() => {});
    },
  };
}
