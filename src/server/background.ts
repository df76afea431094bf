import type { AppContext } from './lib/context.js';
import type { App } from './lib/http.js';
import { startScheduler, type Scheduler } from './lib/scheduler.js';
import { assetsRepository } from './modules/assets/assets.repository.js';
import type { AssetsService } from './modules/assets/assets.service.js';
import { pagesRepository } from './modules/pages/pages.repository.js';
import type { PagesService } from './modules/pages/pages.service.js';
import { startSearchIndexer, type SearchIndexer } from './modules/search/search.indexer.js';
import { treeRepository } from './modules/tree/tree.repository.js';
import type { TrashService } from './modules/trash/trash.service.js';
import { startTrashSweep, type TrashSweep } from './modules/trash/trash.sweep.js';

/** The work each node does on its own clock, each stopped before the app closes. */
export interface BackgroundWork {
  /** Scheduled publishing (lib/scheduler.ts). */
  scheduler: Scheduler;
  /** The purge of the trash (modules/trash/trash.sweep.ts). */
  trashSweep: TrashSweep;
  /** The search index's queue (modules/search/search.indexer.ts). */
  searchIndexer: SearchIndexer;
}

/**
 * Starts this node's background work. Scheduled publishing moves items through the same by-path read and PUT as a
 * person's workflow move (`pages`, `assets`: the services answering those).
 */
export function startBackgroundWork(
  app: App,
  ctx: AppContext,
  services: { pages: PagesService; assets: AssetsService; trash: TrashService },
): BackgroundWork {
  const { db } = ctx;
  const pathOf = (id: string) => treeRepository.pathOf(db, id);
  const scheduler = startScheduler(ctx, [
    {
      kind: 'page',
      due: (now, limit) => pagesRepository.dueScheduled(db, now, limit),
      pathOf,
      get: services.pages.get,
      put: services.pages.put,
    },
    {
      kind: 'asset',
      due: (now, limit) => assetsRepository.dueScheduled(db, now, limit),
      pathOf,
      get: services.assets.get,
      put: services.assets.put,
    },
  ]);
  const trashSweep = startTrashSweep(ctx, services.trash);
  const searchIndexer = startSearchIndexer(ctx);
  app.addHook('preClose', () => scheduler.stop());
  app.addHook('preClose', () => trashSweep.stop());
  app.addHook('preClose', () => searchIndexer.stop());
  return { scheduler, trashSweep, searchIndexer };
}
