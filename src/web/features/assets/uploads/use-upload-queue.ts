import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { ASSET_LIBRARY } from '../../../../shared/api/paths';
import { useWebApi, type WebApi } from '../../../lib/api';
import { assetsKeys, foldersKeys } from '../../../lib/query-keys';
import type { UploadItem } from './upload-item';
import { UploadQueue } from './upload-queue';
import { xhrTransport } from './xhr-transport';

/** Quiet time after the last finished upload before listings are read again (a drop of 200 files reads once). */
const REFRESH_DELAY_MS = 400;

const queues = new WeakMap<WebApi, UploadQueue>();

/** The one upload queue of the app (per connection), made on first use; finished uploads refresh the listings. */
export function uploadQueueFor(api: WebApi, queryClient: QueryClient): UploadQueue {
  let queue = queues.get(api);
  if (queue) return queue;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const changed = new Set<string>();
  queue = new UploadQueue({
    client: api.client,
    transport: xhrTransport,
    csrfToken: () => api.csrfToken(),
    onUnauthorized: (error) => api.reportUnauthorized(error),
    onChanged: (folder, asset) => {
      changed.add(`${folder}/${asset.name}`);
      clearTimeout(timer);
      timer = setTimeout(() => {
        for (const path of changed) {
          void queryClient.invalidateQueries({ queryKey: assetsKeys.detail(path) });
          void queryClient.invalidateQueries({ queryKey: assetsKeys.usage(path) });
        }
        changed.clear();
        void queryClient.invalidateQueries({ queryKey: assetsKeys.lists() });
        // Folders of a dropped directory appear in the tree.
        void queryClient.invalidateQueries({ queryKey: foldersKeys.detail(ASSET_LIBRARY) });
      }, REFRESH_DELAY_MS);
    },
  });
  queues.set(api, queue);
  return queue;
}

/** The app's upload queue. */
export function useUploadQueue(): UploadQueue {
  return uploadQueueFor(useWebApi(), useQueryClient());
}

/** The items of a queue, re-rendering on every change. */
export function useUploadItems(queue: UploadQueue): readonly UploadItem[] {
  return useSyncExternalStore(queue.subscribe, queue.getSnapshot);
}
