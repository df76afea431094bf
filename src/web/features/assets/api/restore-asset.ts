import { useMutation, useQueryClient } from '@tanstack/react-query';
import { splitPath } from '../../../../shared/api/paths';
import { useApi } from '../../../lib/api';
import { assetsKeys } from '../../../lib/query-keys';

/**
 * POST /cms/rest/assets/restore/<path> with If-Match: a revision's fields (and file) become the asset's, as a new
 * revision. The history, listings and transitions are read again; the caller shows the answer. A failure is the
 * confirmation dialog's to show.
 */
export function useRestoreAsset(path: string) {
  const client = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ revision, ifMatch }: { revision: number; ifMatch?: string }) =>
      client.assets.restore(splitPath(path), revision, ifMatch),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: assetsKeys.revisions(path) });
      void queryClient.invalidateQueries({ queryKey: assetsKeys.version(path, 'live') });
    },
    meta: { errorToast: false },
  });
}
