import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Role } from '../../../../shared/api/auth';
import { ApiError } from '../../../../shared/api/client';
import { useApi } from '../../../lib/api';
import { usersKeys } from '../../../lib/query-keys';

/**
 * Creates a user. PUT /users/<name> also UPDATES an existing user (it would silently reset their role and
 * password), so the list is read fresh first and an existing name is refused as 409 NAME_TAKEN on the name field.
 */
export function useCreateUser() {
  const client = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ username, role, password }: { username: string; role: Role; password: string }) => {
      const existing = await client.users.list();
      if (existing.some((u) => u.username === username)) {
        throw new ApiError({
          status: 409,
          code: 'NAME_TAKEN',
          title: 'Conflict',
          detail: `A user named "${username}" already exists.`,
          errors: [{ path: 'params.name', message: 'is already taken by another user' }],
        });
      }
      return client.users.put(username, { role, password });
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: usersKeys.all }),
    meta: { errorToast: false },
  });
}
