import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Client } from '../../../shared/api/client';
import { useApi } from '../api';
import { templatesKeys } from '../query-keys';

/** GET /cms/rest/templates. */
export function templatesQueryOptions(client: Client) {
  return queryOptions({
    queryKey: templatesKeys.list(),
    queryFn: ({ signal }) => client.templates.list(signal),
  });
}

/** Every template, for choosing the one of a new page or landing page. */
export function useTemplates() {
  return useQuery(templatesQueryOptions(useApi()));
}
