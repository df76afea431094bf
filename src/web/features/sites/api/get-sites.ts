import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Client } from '../../../../shared/api/client';
import { useApi } from '../../../lib/api';

/** Query keys of the sites resource, general to specific. */
export const sitesKeys = {
  all: ['sites'] as const,
  list: () => [...sitesKeys.all, 'list'] as const,
};

/** GET /cms/rest/sites: every site the user may read. */
export function sitesQueryOptions(client: Client) {
  return queryOptions({
    queryKey: sitesKeys.list(),
    queryFn: ({ signal }) => client.sites.list(signal),
  });
}

/** The sites list (pending, error or data) for a screen. */
export function useSites() {
  return useQuery(sitesQueryOptions(useApi()));
}
