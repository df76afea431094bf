import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Client } from '../../../../shared/api/client';
import { useApi } from '../../../lib/api';

/** Query keys of templates, general to specific. */
export const templatesKeys = {
  all: ['templates'] as const,
  list: () => [...templatesKeys.all, 'list'] as const,
};

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
