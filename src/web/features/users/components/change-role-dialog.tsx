import { useState } from 'react';
import type { Role, User } from '../../../../shared/api/auth';
import { FormDialog } from '../../../components/ui/dialog';
import { Select } from '../../../components/ui/select';
import { toast } from '../../../components/ui/toast';
import { fieldErrorsOf } from '../../../lib/errors';
import { usePutUser } from '../api/put-user';
import { ROLE_OPTIONS, roleDescription, withArticle } from './roles';

/** Changes a user's role (PUT with the role only: the password stays). Their sessions end on the server. */
export function ChangeRoleDialog({ user, onClose }: { user: User; onClose: () => void }) {
  const put = usePutUser();
  const [role, setRole] = useState<Role>(user.role);

  const handleSubmit = () => {
    if (role === user.role) {
      onClose();
      return;
    }
    put.mutate(
      { username: user.username, body: { role } },
      {
        onSuccess: (updated) => {
          toast.success(`Role changed`, `${updated.username} is now ${withArticle(updated.role)}.`);
          onClose();
        },
      },
    );
  };

  const roleError = fieldErrorsOf(put.error, { 'body.role': 'role' }).role;
  return (
    <FormDialog
      isOpen
      onOpenChange={(open) => !open && onClose()}
      title={`Change the role of ${user.username}`}
      description={`${user.username} is signed out everywhere and signs in again with the new role.`}
      submitLabel="Change role"
      onSubmit={handleSubmit}
      isPending={put.isPending}
      error={put.error && !roleError ? put.error : undefined}
    >
      <Select
        label="Role"
        name="role"
        options={ROLE_OPTIONS}
        description={roleDescription(role)}
        value={role}
        onChange={setRole}
        errorMessage={roleError}
        autoFocus
      />
    </FormDialog>
  );
}
