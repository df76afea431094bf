import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { FolderPutBody } from '../../../../shared/api/folders';
import { splitPath } from '../../../../shared/api/paths';
import { useApi } from '../../../lib/api';
import { foldersKeys } from '../../../lib/query-keys';

/**
 * PUT of a site's, section's, folder's or link's properties with `If-Match`: a 412 means someone else changed
 * the item since it was read (the form offers to reload or overwrite). The answer replaces the cached item.
 */
export function useUpdateFolder(path: string) {
  const client = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body, etag }: { body: FolderPutBody; etag: string | null }) =>
      client.folders.put(splitPath(path), body, { ifMatch: etag ?? undefined }),
    onSuccess: (saved) => queryClient.setQueryData(foldersKeys.detail(path), saved),
    meta: { errorToast: false },
  });
}
