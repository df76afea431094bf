import { useForm } from 'react-hook-form';
import type { User } from '../../../../shared/api/auth';
import { isApiError } from '../../../../shared/api/client';
import { FormTextField } from '../../../components/ui/controlled-fields';
import { FormDialog } from '../../../components/ui/dialog';
import { toast } from '../../../components/ui/toast';
import { allFieldErrorsPlaced } from '../../../lib/errors';
import { setServerErrors } from '../../../lib/form-errors';
import { usePutUser } from '../api/put-user';
import { PasswordFields, type PasswordValues } from './password-fields';

const SERVER_FIELDS = {
  'body.password': { name: 'password', label: 'The password' },
  'body.currentPassword': { name: 'currentPassword', label: 'Your current password' },
} as const;

interface Values extends PasswordValues {
  /** Asked only on one's own account (the server asks for it there, as for a change under one's name). */
  currentPassword: string;
}

/** Sets a new password for a user (their role stays; their sessions end). One's own needs the current one. */
export function ResetPasswordDialog({ user, isSelf, onClose }: { user: User; isSelf: boolean; onClose: () => void }) {
  const put = usePutUser();
  const form = useForm<Values>({
    defaultValues: { currentPassword: '', password: '', confirmation: '' },
    mode: 'onTouched',
  });

  const submit = form.handleSubmit(({ password, currentPassword }) =>
    put.mutate(
      { username: user.username, body: { role: user.role, password, ...(isSelf ? { currentPassword } : {}) } },
      {
        onSuccess: () => {
          toast.success('Password reset', `${user.username} signs in with the new password from now on.`);
          onClose();
        },
        onError: (error) => setServerErrors(form.setError, error, SERVER_FIELDS),
      },
    ),
  );

  const placed = isApiError(put.error) && allFieldErrorsPlaced(put.error, SERVER_FIELDS);
  return (
    <FormDialog
      isOpen
      onOpenChange={(open) => !open && onClose()}
      title={`Reset the password of ${user.username}`}
      description={
        isSelf
          ? 'This is your own account: enter your current password first. You will be signed out and sign in again with the new password. To keep this session, change it under your name at the top instead.'
          : `${user.username} is signed out everywhere and signs in with the new password.`
      }
      submitLabel="Reset password"
      onSubmit={() => void submit()}
      isPending={put.isPending}
      error={put.error && !placed ? put.error : undefined}
    >
      {isSelf && (
        <FormTextField
          control={form.control}
          name="currentPassword"
          label="Your current password"
          type="password"
          autoComplete="current-password"
          isRequired
          rules={{ validate: (v) => (v ? true : 'Enter your current password.') }}
        />
      )}
      <PasswordFields control={form.control} label="New password" />
    </FormDialog>
  );
}
