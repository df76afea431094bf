import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { Client } from '../../../../shared/api/client';
import { useApi } from '../../../lib/api';
import { foldersKeys } from '../../../lib/query-keys';

/** How many matches the find field shows. */
export const FIND_LIMIT = 20;

/** GET /cms/rest/folders/find?q=: items anywhere whose name contains `q`, loaded in the tree or not. */
export function findItemsQueryOptions(client: Client, q: string) {
  return queryOptions({
    queryKey: foldersKeys.find(q),
    queryFn: ({ signal }) => client.folders.find({ q, limit: FIND_LIMIT }, signal),
    staleTime: 10_000,
  });
}

/** Server-side search by name; idle while `q` is empty. Keeps the last results while the next ones load. */
export function useFindItems(q: string) {
  return useQuery({
    ...findItemsQueryOptions(useApi(), q),
    enabled: q.length > 0,
    placeholderData: keepPreviousData,
  });
}
