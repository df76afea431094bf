import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { WithEtag } from '../../../../shared/api/client';
import type { Page } from '../../../../shared/api/pages';
import { useApi } from '../../../lib/api';
import { itemAt, parentPathOf, type ExplorerItem } from '../../../lib/tree/items';
import {
  cachedFolder,
  forgetSubtree,
  refreshContainer,
  rollBack,
  updateListing,
  withRenamedChild,
  withRenamedChildSummary,
  type ListingSnapshot,
} from './tree-cache';
import { sitesKeys, pagesKeys } from '../../../lib/query-keys';

/** The ETag of the item as last read (folder or page), for If-Match; undefined when it was never read. */
export function etagOfCached(queryClient: ReturnType<typeof useQueryClient>, item: ExplorerItem): string | undefined {
  const cached =
    item.kind === 'page'
      ? queryClient.getQueryData<WithEtag<Page>>(pagesKeys.detail(item.path))
      : cachedFolder(queryClient, item.path);
  return cached?.etag ?? undefined;
}

/**
 * POST /cms/rest/folders/rename. The tree shows the new name at once and goes back if the service refuses;
 * what was cached under the old path is forgotten. Answers the item at its new path.
 */
export function useRenameItem() {
  const client = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ item, newName }: { item: ExplorerItem; newName: string }) => {
      const moved = await client.folders.rename({ path: item.path, newName }, etagOfCached(queryClient, item));
      return itemAt(moved.path, item.kind, item.isLandingPage);
    },
    onMutate: async ({ item, newName }): Promise<ListingSnapshot[]> => {
      const parent = parentPathOf(item.path);
      if (parent === null) return [];
      return [
        await updateListing(
          queryClient,
          parent,
          (f) => withRenamedChild(f, item.name, newName),
          (c) => withRenamedChildSummary(c, item.name, newName),
        ),
      ];
    },
    onError: (_error, _vars, snapshots) => rollBack(queryClient, snapshots),
    onSuccess: (_renamed, { item }) => {
      forgetSubtree(queryClient, item.path);
      if (item.kind === 'site') void queryClient.invalidateQueries({ queryKey: sitesKeys.all });
    },
    onSettled: (_r, _e, { item }) => refreshContainer(queryClient, parentPathOf(item.path)),
  });
}
