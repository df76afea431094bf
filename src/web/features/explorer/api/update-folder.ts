import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { FolderPutBody } from '../../../../shared/api/folders';
import { splitPath } from '../../../../shared/api/paths';
import { useApi } from '../../../lib/api';
import { foldersKeys } from '../../../lib/query-keys';
import { refreshParentOf } from './tree-cache';

/**
 * PUT of a site's, section's, folder's or link's properties with `If-Match`: a 412 means someone else changed
 * the item since it was read (the form offers to reload or overwrite). The answer replaces the cached item, and the
 * listing that holds it is read again.
 */
export function useUpdateFolder(path: string) {
  const client = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body, etag }: { body: FolderPutBody; etag: string | null }) =>
      client.folders.put(splitPath(path), body, { ifMatch: etag ?? undefined }),
    onSuccess: (saved) => {
      queryClient.setQueryData(foldersKeys.detail(path), saved);
      // The tree and the parent's table show the item's title from the parent's listing (a site's: the sites list).
      void refreshParentOf(queryClient, path);
    },
    meta: { errorToast: false },
  });
}
