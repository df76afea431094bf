import { useForm } from 'react-hook-form';
import { Username, type Role, type User } from '../../../../shared/api/auth';
import { isApiError } from '../../../../shared/api/client';
import { FormSelect, FormTextField } from '../../../components/ui/controlled-fields';
import { FormDialog } from '../../../components/ui/dialog';
import { IDENTIFIER_INPUT } from '../../../components/ui/text-field';
import { toast } from '../../../components/ui/toast';
import { allFieldErrorsPlaced } from '../../../lib/errors';
import { setServerErrors } from '../../../lib/form-errors';
import { validateWith } from '../../../lib/validation';
import { useCreateUser } from '../api/create-user';
import { PasswordFields, type PasswordValues } from './password-fields';
import { DEFAULT_ROLE, ROLE_OPTIONS, roleDescription, withArticle } from './roles';

interface Values extends PasswordValues {
  username: string;
  role: Role;
}

/** Where the server reports each field of PUT /users/<name>. */
const SERVER_FIELDS = {
  'params.name': { name: 'username', label: 'The username' },
  'body.role': { name: 'role', label: 'The role' },
  'body.password': { name: 'password', label: 'The password' },
} as const;
const USERNAME_MAX = 64;

/** New user: name, role and an initial password the admin passes on. */
export function CreateUserDialog({ onClose, onCreated }: { onClose: () => void; onCreated: (user: User) => void }) {
  const create = useCreateUser();
  const form = useForm<Values>({
    defaultValues: { username: '', role: DEFAULT_ROLE, password: '', confirmation: '' },
    mode: 'onTouched',
  });

  const submit = form.handleSubmit(({ username, role, password }) =>
    create.mutate(
      { username: username.trim(), role, password },
      {
        onSuccess: (user) => {
          toast.success(
            `User ${user.username} created`,
            `${user.username} can now sign in as ${withArticle(user.role)}.`,
          );
          onCreated(user);
        },
        onError: (error) => setServerErrors(form.setError, error, SERVER_FIELDS),
      },
    ),
  );

  const error = create.error;
  const placed = isApiError(error) && allFieldErrorsPlaced(error, SERVER_FIELDS);
  return (
    <FormDialog
      isOpen
      onOpenChange={(open) => !open && onClose()}
      title="New user"
      description="The user signs in with this name and password. Tell them the password over a safe channel."
      submitLabel="Create user"
      onSubmit={() => void submit()}
      isPending={create.isPending}
      error={error && !placed ? error : undefined}
    >
      <FormTextField
        control={form.control}
        name="username"
        label="Username"
        isRequired
        autoFocus
        {...IDENTIFIER_INPUT}
        maxLength={USERNAME_MAX}
        description="Letters, digits, “.”, “_”, “@” and “-”."
        rules={{
          validate: (v) =>
            v.trim() ? (validateWith(Username, 'The username')(v.trim()) ?? true) : 'Enter the username.',
        }}
      />
      <FormSelect
        control={form.control}
        name="role"
        label="Role"
        options={ROLE_OPTIONS}
        description={roleDescription(form.watch('role'))}
      />
      <PasswordFields control={form.control} label="Initial password" />
    </FormDialog>
  );
}
