import { useState } from 'react';
import { Username, type Role, type User } from '../../../../shared/api/auth';
import { FormDialog } from '../../../components/ui/dialog';
import { Select } from '../../../components/ui/select';
import { TextField } from '../../../components/ui/text-field';
import { toast } from '../../../components/ui/toast';
import { allFieldErrorsPlaced, fieldErrorsOf } from '../../../lib/errors';
import { validateWith } from '../../../lib/validation';
import { isApiError } from '../../../../shared/api/client';
import { useCreateUser } from '../api/create-user';
import { PasswordFields } from './password-fields';
import { DEFAULT_ROLE, ROLE_OPTIONS, roleDescription, withArticle } from './roles';

/** Where the server reports each field of PUT /users/<name>. */
const FIELDS = { 'params.name': 'username', 'body.role': 'role', 'body.password': 'password' };
const USERNAME_MAX = 64;

/** New user: name, role and an initial password the admin passes on. */
export function CreateUserDialog({ onClose, onCreated }: { onClose: () => void; onCreated: (user: User) => void }) {
  const create = useCreateUser();
  const [username, setUsername] = useState('');
  const [role, setRole] = useState<Role>(DEFAULT_ROLE);
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');

  const handleSubmit = () => {
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
      },
    );
  };

  const error = create.error;
  return (
    <FormDialog
      isOpen
      onOpenChange={(open) => !open && onClose()}
      title="New user"
      description="The user signs in with this name and password. Tell them the password over a safe channel."
      submitLabel="Create user"
      onSubmit={handleSubmit}
      isPending={create.isPending}
      validationErrors={fieldErrorsOf(error, FIELDS)}
      error={error && !(isApiError(error) && allFieldErrorsPlaced(error, FIELDS)) ? error : undefined}
    >
      <TextField
        label="Username"
        name="username"
        value={username}
        onChange={setUsername}
        isRequired
        autoFocus
        autoComplete="off"
        spellCheck="false"
        autoCapitalize="none"
        maxLength={USERNAME_MAX}
        description="Letters, digits, “.”, “_”, “@” and “-”."
        validate={validateWith(Username, 'The username')}
      />
      <Select
        label="Role"
        name="role"
        options={ROLE_OPTIONS}
        description={roleDescription(role)}
        value={role}
        onChange={setRole}
        isRequired
      />
      <PasswordFields
        label="Initial password"
        password={password}
        confirmation={confirmation}
        onPasswordChange={setPassword}
        onConfirmationChange={setConfirmation}
      />
    </FormDialog>
  );
}
