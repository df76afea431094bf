import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Client } from '../../../../shared/api/client';
import { useApi } from '../../../lib/api';
import { usersKeys } from '../../../lib/query-keys';

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
