import { useMutation, useQueryClient } from '@tanstack/react-query';
import { splitPath } from '../../../../shared/api/paths';
import { useApi } from '../../../lib/api';
import { pagesKeys } from '../../../lib/query-keys';

/**
 * POST /cms/rest/pages/restore/<path> with If-Match: a revision's content becomes the page's (a new revision).
 * The answer is the page as it is now (the editor shows it); the history and the transitions are read again. A
 * failure is the confirmation dialog's to show.
 */
export function useRestorePage(path: string) {
  const client = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ revision, ifMatch }: { revision: number; ifMatch?: string }) =>
      client.pages.restore(splitPath(path), revision, ifMatch),
    onSuccess: (restored) => {
      queryClient.setQueryData(pagesKeys.detail(path), restored);
      void queryClient.invalidateQueries({ queryKey: pagesKeys.revisions(path) });
      void queryClient.invalidateQueries({ queryKey: pagesKeys.transitions(path) });
      void queryClient.invalidateQueries({ queryKey: pagesKeys.version(path, 'live') });
    },
    meta: { errorToast: false },
  });
}
