import { useState } from 'react';
import type { User } from '../../../../shared/api/auth';
import { FormDialog } from '../../../components/ui/dialog';
import { toast } from '../../../components/ui/toast';
import { fieldErrorsOf } from '../../../lib/errors';
import { usePutUser } from '../api/put-user';
import { PasswordFields } from './password-fields';

/** Sets a new password for a user (their role stays; their sessions end). */
export function ResetPasswordDialog({ user, isSelf, onClose }: { user: User; isSelf: boolean; onClose: () => void }) {
  const put = usePutUser();
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');

  const handleSubmit = () => {
    put.mutate(
      { username: user.username, body: { role: user.role, password } },
      {
        onSuccess: () => {
          toast.success('Password reset', `${user.username} signs in with the new password from now on.`);
          onClose();
        },
      },
    );
  };

  const validationErrors = fieldErrorsOf(put.error, { 'body.password': 'password' });
  return (
    <FormDialog
      isOpen
      onOpenChange={(open) => !open && onClose()}
      title={`Reset the password of ${user.username}`}
      description={
        isSelf
          ? 'This is your own account: you will be signed out and sign in again with the new password.'
          : `${user.username} is signed out everywhere and signs in with the new password.`
      }
      submitLabel="Reset password"
      onSubmit={handleSubmit}
      isPending={put.isPending}
      validationErrors={validationErrors}
      error={put.error && !validationErrors.password ? put.error : undefined}
    >
      <PasswordFields
        label="New password"
        password={password}
        confirmation={confirmation}
        onPasswordChange={setPassword}
        onConfirmationChange={setConfirmation}
      />
    </FormDialog>
  );
}
