import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Client } from '../../../../shared/api/client';
import { useApi } from '../../../lib/api';

/** Query keys of the users resource, general to specific. */
export const usersKeys = {
  all: ['users'] as const,
  list: () => [...usersKeys.all, 'list'] as const,
};

/** GET /cms/rest/users (admins). */
export function usersQueryOptions(client: Client) {
  return queryOptions({
    queryKey: usersKeys.list(),
    queryFn: ({ signal }) => client.users.list(signal),
  });
}

/** The users list (admins) for a screen. */
export function useUsers() {
  return useQuery(usersQueryOptions(useApi()));
}
