import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Role } from '../../../../shared/api/auth';
import { ApiError, isApiError } from '../../../../shared/api/client';
import { useApi } from '../../../lib/api';
import { usersKeys } from '../../../lib/query-keys';

/**
 * Creates a user. PUT /users/<name> also UPDATES an existing user (it would silently reset their role and
 * password): the PUT is create-only (If-None-Match: *), and a taken name, found in the list read first or answered
 * 412 by a PUT that lost a race, is refused as NAME_TAKEN on the name field.
 */
export function useCreateUser() {
  const client = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ username, role, password }: { username: string; role: Role; password: string }) => {
      const taken = () =>
        new ApiError({
          status: 409,
          code: 'NAME_TAKEN',
          title: 'Conflict',
          detail: `A user named "${username}" already exists.`,
          errors: [{ path: 'params.name', message: 'is already taken by another user' }],
        });
      const existing = await client.users.list();
      if (existing.some((u) => u.username === username)) throw taken();
      try {
        return await client.users.put(username, { role, password }, { ifNoneMatch: '*' });
      } catch (error) {
        if (isApiError(error, 412)) throw taken();
        throw error;
      }
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: usersKeys.all }),
    meta: { errorToast: false },
  });
}
