import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../../lib/api';
import { parentPathOf, type ExplorerItem } from '../../../lib/tree/items';
import { forgetSubtree, refreshContainer } from './tree-cache';
import { sitesKeys } from '../../../lib/query-keys';

/**
 * DELETE of a page (pages resource) or of anything else (folders resource, with includeSubFolders when it is not
 * empty). `etag` is the version the user confirmed: if the item changed since, the service answers 412.
 */
export function useDeleteItem() {
  const client = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({
      item,
      includeSubFolders,
      etag,
    }: {
      item: ExplorerItem;
      includeSubFolders: boolean;
      etag?: string;
    }) =>
      item.kind === 'page'
        ? client.pages.remove(item.segments, etag)
        : client.folders.remove(item.segments, { includeSubFolders, ifMatch: etag }),
    onSuccess: (_r, { item }) => {
      forgetSubtree(queryClient, item.path);
      if (item.kind === 'site') void queryClient.invalidateQueries({ queryKey: sitesKeys.all });
      return refreshContainer(queryClient, parentPathOf(item.path));
    },
    // The confirmation dialog shows the error.
    meta: { errorToast: false },
  });
}
