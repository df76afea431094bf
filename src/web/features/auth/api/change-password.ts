import { useMutation } from '@tanstack/react-query';
import type { PasswordChangeBody } from '../../../../shared/api/auth';
import { useApi } from '../../../lib/api';

/**
 * POST /cms/rest/auth/password: the signed-in user changes their own password. A wrong current password is a 400
 * on `body.currentPassword` (the session stays); the user's other sessions end.
 */
export function useChangePassword() {
  const client = useApi();
  return useMutation({
    mutationFn: (body: PasswordChangeBody) => client.auth.changePassword(body),
    // The form shows the error.
    meta: { errorToast: false },
  });
}
