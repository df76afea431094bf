import { MIN_PASSWORD_LENGTH, NewPassword } from '../../../../shared/api/auth';
import { TextField } from '../../../components/ui/text-field';
import { validateWith } from '../../../lib/validation';

/** A new password and its confirmation, checked with the server's own rule (shared NewPassword schema). */
export function PasswordFields({
  password,
  confirmation,
  onPasswordChange,
  onConfirmationChange,
  label = 'Password',
}: {
  password: string;
  confirmation: string;
  onPasswordChange: (value: string) => void;
  onConfirmationChange: (value: string) => void;
  label?: string;
}) {
  return (
    <>
      <TextField
        label={label}
        name="password"
        type="password"
        autoComplete="new-password"
        value={password}
        onChange={onPasswordChange}
        isRequired
        description={`At least ${MIN_PASSWORD_LENGTH} characters.`}
        validate={validateWith(NewPassword, 'The password')}
      />
      <TextField
        label="Repeat password"
        name="confirmation"
        type="password"
        autoComplete="new-password"
        value={confirmation}
        onChange={onConfirmationChange}
        isRequired
        validate={(value) => (value && value !== password ? 'The passwords do not match.' : null)}
      />
    </>
  );
}
