import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import type { TrashRestoreBody } from '../../../../shared/api/trash';
import { useApi } from '../../../lib/api';
import { trashKeys } from '../../../lib/query-keys';

/** What is in the trash for the signed-in user, newest first, a page at a time (`fetchNextPage` for more). */
export function useTrashList() {
  const client = useApi();
  return useInfiniteQuery({
    queryKey: trashKeys.list(),
    queryFn: ({ pageParam, signal }) => client.trash.list(pageParam ? { cursor: pageParam } : {}, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next ?? undefined,
  });
}

/**
 * Restore of an entry (where it was, or into `to`), and purge of one (admins). Every query may show what came back
 * or went, so both refresh everything once done; the screen shows their errors.
 */
export function useTrashActions() {
  const client = useApi();
  const queryClient = useQueryClient();
  const settle = () => queryClient.invalidateQueries();
  const restore = useMutation({
    mutationFn: (body: TrashRestoreBody) => client.trash.restore(body),
    onSuccess: settle,
    meta: { errorToast: false },
  });
  const purge = useMutation({
    mutationFn: (id: string) => client.trash.purge(id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: trashKeys.all }),
    meta: { errorToast: false },
  });
  return { restore, purge };
}
