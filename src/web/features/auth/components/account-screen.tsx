import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { isApiError } from '../../../../shared/api/client';
import { MIN_PASSWORD_LENGTH, NewPassword, type Me } from '../../../../shared/api/auth';
import { Button } from '../../../components/ui/button';
import { FormTextField } from '../../../components/ui/controlled-fields';
import { InlineAlert } from '../../../components/ui/inline-alert';
import { PageHeader } from '../../../components/ui/page-header';
import { toast } from '../../../components/ui/toast';
import { errorMessage, errorTitle, allFieldErrorsPlaced } from '../../../lib/errors';
import { setServerErrors } from '../../../lib/form-errors';
import { validateWith } from '../../../lib/validation';
import { useChangePassword } from '../api/change-password';
import './account.css';

interface Values {
  currentPassword: string;
  newPassword: string;
  confirmation: string;
}

const EMPTY: Values = { currentPassword: '', newPassword: '', confirmation: '' };
const SERVER_FIELDS = {
  'body.currentPassword': { name: 'currentPassword', label: 'The current password' },
  'body.newPassword': { name: 'newPassword', label: 'The new password' },
} as const;

/** The signed-in user's own account: who they are, and a new password (the current one asked first). */
export function AccountScreen({ user }: { user: Pick<Me, 'username' | 'role'> }) {
  const change = useChangePassword();
  const form = useForm<Values>({ defaultValues: EMPTY, mode: 'onTouched' });
  const headingId = useId();

  const submit = form.handleSubmit(({ currentPassword, newPassword }) =>
    change.mutate(
      { currentPassword, newPassword },
      {
        onSuccess: () => {
          form.reset(EMPTY);
          toast.success(
            'Password changed',
            'Sign in with the new password from now on. Your other sessions were signed out; this one goes on.',
          );
        },
        onError: (error) => setServerErrors(form.setError, error, SERVER_FIELDS),
      },
    ),
  );
  const error = change.error;
  const placed = isApiError(error) && allFieldErrorsPlaced(error, SERVER_FIELDS);

  return (
    <>
      <PageHeader
        title="Your account"
        description={
          <>
            Signed in as <strong>{user.username}</strong> ({user.role}).
          </>
        }
      />
      <section className="card account-card" aria-labelledby={headingId}>
        <h2 id={headingId} className="card__title">
          Change your password
        </h2>
        <form
          className="account-form"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            void submit();
          }}
        >
          {/* Password managers match the new password to this account by its name. */}
          <input type="hidden" name="username" autoComplete="username" value={user.username} readOnly />
          <FormTextField
            control={form.control}
            name="currentPassword"
            label="Current password"
            type="password"
            autoComplete="current-password"
            isRequired
            rules={{ validate: (v) => (v ? true : 'Enter your current password.') }}
          />
          <FormTextField
            control={form.control}
            name="newPassword"
            label="New password"
            type="password"
            autoComplete="new-password"
            isRequired
            description={`At least ${MIN_PASSWORD_LENGTH} characters.`}
            rules={{
              validate: (v, all) => {
                if (!v) return 'Enter the new password.';
                if (v === all.currentPassword) return 'The new password must differ from the current one.';
                return validateWith(NewPassword, 'The new password')(v) ?? true;
              },
            }}
          />
          <FormTextField
            control={form.control}
            name="confirmation"
            label="Repeat the new password"
            type="password"
            autoComplete="new-password"
            isRequired
            rules={{
              validate: (v, all) =>
                !v ? 'Repeat the new password.' : v !== all.newPassword ? 'The passwords do not match.' : true,
            }}
          />
          {error !== null && !placed && <InlineAlert title={errorTitle(error)}>{errorMessage(error)}</InlineAlert>}
          <div className="account-form__actions">
            <Button type="submit" variant="primary" isPending={change.isPending}>
              Change password
            </Button>
          </div>
        </form>
      </section>
    </>
  );
}
