import { useForm } from 'react-hook-form';
import type { Role, User } from '../../../../shared/api/auth';
import { isApiError } from '../../../../shared/api/client';
import { FormSelect } from '../../../components/ui/controlled-fields';
import { FormDialog } from '../../../components/ui/dialog';
import { toast } from '../../../components/ui/toast';
import { allFieldErrorsPlaced } from '../../../lib/errors';
import { setServerErrors } from '../../../lib/form-errors';
import { usePutUser } from '../api/put-user';
import { ROLE_OPTIONS, roleDescription, withArticle } from './roles';

const SERVER_FIELDS = { 'body.role': { name: 'role', label: 'The role' } } as const;

/** Changes a user's role (PUT with the role only: the password stays). Their sessions end on the server. */
export function ChangeRoleDialog({ user, onClose }: { user: User; onClose: () => void }) {
  const put = usePutUser();
  const form = useForm<{ role: Role }>({ defaultValues: { role: user.role } });

  const submit = form.handleSubmit(({ role }) => {
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
        onError: (error) => setServerErrors(form.setError, error, SERVER_FIELDS),
      },
    );
  });

  const placed = isApiError(put.error) && allFieldErrorsPlaced(put.error, SERVER_FIELDS);
  return (
    <FormDialog
      isOpen
      onOpenChange={(open) => !open && onClose()}
      title={`Change the role of ${user.username}`}
      description={`${user.username} is signed out everywhere and signs in again with the new role.`}
      submitLabel="Change role"
      onSubmit={() => void submit()}
      isPending={put.isPending}
      error={put.error && !placed ? put.error : undefined}
    >
      <FormSelect
        control={form.control}
        name="role"
        label="Role"
        options={ROLE_OPTIONS}
        description={roleDescription(form.watch('role'))}
        autoFocus
      />
    </FormDialog>
  );
}
