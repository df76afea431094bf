import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../../lib/api';
import { usersKeys } from '../../../lib/query-keys';

/** DELETE /cms/rest/users/<name>. */
export function useDeleteUser() {
  const client = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (username: string) => client.users.remove(username),
    onSettled: () => queryClient.invalidateQueries({ queryKey: usersKeys.all }),
    // The confirmation dialog shows the error.
    meta: { errorToast: false },
  });
}
