import type { Control, FieldPath, FieldValues } from 'react-hook-form';
import { MIN_PASSWORD_LENGTH, NewPassword } from '../../../../shared/api/auth';
import { FormTextField } from '../../../components/ui/controlled-fields';
import { validateWith } from '../../../lib/validation';

/** The fields `PasswordFields` fills in a form. */
export interface PasswordValues {
  password: string;
  confirmation: string;
}

/** A new password and its confirmation, checked with the server's own rule (shared NewPassword schema). */
export function PasswordFields<T extends FieldValues & PasswordValues>({
  control,
  label = 'Password',
}: {
  control: Control<T>;
  label?: string;
}) {
  return (
    <>
      <FormTextField
        control={control}
        name={'password' as FieldPath<T>}
        label={label}
        type="password"
        autoComplete="new-password"
        isRequired
        description={`At least ${MIN_PASSWORD_LENGTH} characters.`}
        rules={{
          validate: (value: string) =>
            value ? (validateWith(NewPassword, 'The password')(value) ?? true) : 'Enter the password.',
        }}
      />
      <FormTextField
        control={control}
        name={'confirmation' as FieldPath<T>}
        label="Repeat password"
        type="password"
        autoComplete="new-password"
        isRequired
        rules={{
          validate: (value: string, all: T) =>
            !value ? 'Repeat the password.' : value !== all.password ? 'The passwords do not match.' : true,
        }}
      />
    </>
  );
}
