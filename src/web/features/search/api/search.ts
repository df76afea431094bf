import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import type { Client } from '../../../../shared/api/client';
import type { SearchQuery } from '../../../../shared/api/search';
import { useApi } from '../../../lib/api';
import { searchKeys } from '../../../lib/query-keys';

/**
 * GET /cms/rest/search: pages, assets and folder items by what they say, best match first, page by page (the
 * answer's `next` fetches more). A changed query leaves the old request without observers, so react-query
 * aborts it through `signal`: a slow answer to an older query never lands.
 */
export function searchQueryOptions(client: Client, query: Omit<SearchQuery, 'cursor'>) {
  return infiniteQueryOptions({
    queryKey: searchKeys.results(query),
    queryFn: ({ signal, pageParam }) => client.search({ ...query, cursor: pageParam ?? undefined }, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next,
    staleTime: 5_000,
  });
}

/** Search results for `query`; idle while it is null. Keeps the last results on screen while the next load. */
export function useSearch(query: Omit<SearchQuery, 'cursor'> | null) {
  const client = useApi();
  return useInfiniteQuery({
    ...searchQueryOptions(client, query ?? { q: '' }),
    enabled: query !== null,
    placeholderData: keepPreviousData,
  });
}
