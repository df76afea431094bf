import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Client } from '../../../shared/api/client';
import { useApi } from '../api';
import { sitesKeys } from '../query-keys';

/** GET /cms/rest/sites: every site the user may read (the Sites screen and the roots of the trees). */
export function sitesQueryOptions(client: Client) {
  return queryOptions({
    queryKey: sitesKeys.list(),
    queryFn: ({ signal }) => client.sites.list(signal),
  });
}

/** The sites list (pending, error or data) for a screen. */
export function useSites({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...sitesQueryOptions(useApi()), enabled });
}
