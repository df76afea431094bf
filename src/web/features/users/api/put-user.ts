import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UserPutBody } from '../../../../shared/api/auth';
import { useApi } from '../../../lib/api';
import { usersKeys } from '../../../lib/query-keys';

/** PUT /cms/rest/users/<name>: create (with password), change the role, or reset the password. */
export function usePutUser() {
  const client = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ username, body }: { username: string; body: UserPutBody }) => client.users.put(username, body),
    onSettled: () => queryClient.invalidateQueries({ queryKey: usersKeys.all }),
    // Each form shows its errors in its dialog.
    meta: { errorToast: false },
  });
}
