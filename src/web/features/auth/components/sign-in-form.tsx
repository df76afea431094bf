import { useRef, useState, type FormEvent } from 'react';
import { Form } from 'react-aria-components';
import type { Me } from '../../../../shared/api/auth';
import { isApiError } from '../../../../shared/api/client';
import { Button } from '../../../components/ui/button';
import { InlineAlert } from '../../../components/ui/inline-alert';
import { TextField } from '../../../components/ui/text-field';
import { errorMessage } from '../../../lib/errors';
import { useSignIn } from '../api/session';

/** Words for a failed sign-in; the server's detail is already written for people. */
function signInErrorTitle(error: unknown): string {
  if (isApiError(error, 401)) return 'Sign-in failed';
  if (isApiError(error, 429)) return 'Too many attempts';
  if (isApiError(error, 0)) return 'No connection';
  return 'Sign-in failed';
}

/**
 * Username and password. Submits without a page reload; a wrong password or any other failure is shown inline
 * (announced to screen readers) and focus goes back to the password so the user can retype it. On success the
 * session query holds the user (routes react to it); `onSignedIn` is for callers that need more.
 */
export function SignInForm({
  onSignedIn,
  fixedUsername,
}: {
  onSignedIn?: (user: Me) => void;
  /** Signing in again as this user (after a session ended): the username is shown, not asked. */
  fixedUsername?: string;
}) {
  const signIn = useSignIn();
  const [username, setUsername] = useState(fixedUsername ?? '');
  const [password, setPassword] = useState('');
  const passwordRef = useRef<HTMLInputElement>(null);

  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (signIn.isPending) return;
    signIn.mutate(
      { username: username.trim(), password },
      {
        onSuccess: (user) => onSignedIn?.(user),
        onError: () => {
          setPassword('');
          passwordRef.current?.focus();
        },
      },
    );
  };

  return (
    <Form className="sign-in-form" onSubmit={handleSubmit} aria-label="Sign in">
      {signIn.isError && <InlineAlert title={signInErrorTitle(signIn.error)}>{errorMessage(signIn.error)}</InlineAlert>}
      <TextField
        label="Username"
        name="username"
        value={username}
        onChange={setUsername}
        autoComplete="username"
        autoFocus={fixedUsername === undefined}
        isReadOnly={fixedUsername !== undefined}
        isRequired
        spellCheck="false"
        autoCapitalize="none"
      />
      <TextField
        label="Password"
        name="password"
        type="password"
        value={password}
        onChange={setPassword}
        autoComplete="current-password"
        autoFocus={fixedUsername !== undefined}
        isRequired
        inputRef={passwordRef}
      />
      <Button type="submit" variant="primary" isPending={signIn.isPending} className="sign-in-form__submit">
        Sign in
      </Button>
    </Form>
  );
}
