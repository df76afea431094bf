import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ADMIN_ME, json, problem } from '../../../test/fake-api';
import { renderApp, renderWithProviders } from '../../../test/render';
import { SignInForm } from './sign-in-form';

/** Records whether each form submission was handled in the page (default prevented) or would load a new page. */
function watchSubmits() {
  const prevented: boolean[] = [];
  const listener = (event: Event) => prevented.push(event.defaultPrevented);
  // Bubble phase on the document runs after React's handler on the root.
  document.addEventListener('submit', listener);
  return { prevented, stop: () => document.removeEventListener('submit', listener) };
}

describe('SignInForm', () => {
  let submits: ReturnType<typeof watchSubmits> | undefined;
  afterEach(() => submits?.stop());

  it('shows the server message inline on a 401, without a page reload, and lets the user retype the password', async () => {
    submits = watchSubmits();
    const onSignedIn = vi.fn();
    const { user, server } = renderWithProviders(<SignInForm onSignedIn={onSignedIn} />, {
      'POST /cms/rest/auth/login': () => problem(401, 'UNAUTHENTICATED', 'Wrong username or password.'),
    });

    await user.type(screen.getByLabelText('Username'), 'admin');
    await user.type(screen.getByLabelText('Password'), 'not-the-password');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Sign-in failed');
    expect(alert.textContent).toContain('Wrong username or password.');
    expect(submits.prevented).toEqual([true]);
    expect(onSignedIn).not.toHaveBeenCalled();

    expect(server.requests).toHaveLength(1);
    const [login] = server.requests;
    expect(login.method).toBe('POST');
    expect(login.path).toBe('/cms/rest/auth/login');
    expect(login.body).toEqual({ username: 'admin', password: 'not-the-password' });
    expect(login.headers.get('x-requested-with')).toBe('XMLHttpRequest');

    const password = screen.getByLabelText('Password') as HTMLInputElement;
    expect(password.value).toBe('');
    expect(document.activeElement).toBe(password);
    expect((screen.getByLabelText('Username') as HTMLInputElement).value).toBe('admin');
  });

  it('explains a rate-limited sign-in (429) in words', async () => {
    const { user } = renderWithProviders(<SignInForm onSignedIn={vi.fn()} />, {
      'POST /cms/rest/auth/login': () =>
        problem(429, 'TOO_MANY_ATTEMPTS', 'Too many failed sign-ins. Try again in 15 minute(s).'),
    });
    await user.type(screen.getByLabelText('Username'), 'admin');
    await user.type(screen.getByLabelText('Password'), 'guess{Enter}');

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Too many attempts');
    expect(alert.textContent).toContain('Try again in 15 minute(s).');
  });

  it('reports an unreachable server instead of failing silently', async () => {
    const { user } = renderWithProviders(<SignInForm onSignedIn={vi.fn()} />, {
      'POST /cms/rest/auth/login': () => Promise.reject(new TypeError('Failed to fetch')),
    });
    await user.type(screen.getByLabelText('Username'), 'admin');
    await user.type(screen.getByLabelText('Password'), 'secret-password{Enter}');

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('No connection');
    expect(alert.textContent).toContain('Could not reach the server');
  });

  it('does not send the form while a field is empty', async () => {
    const { user, server } = renderWithProviders(<SignInForm onSignedIn={vi.fn()} />, {});
    await user.type(screen.getByLabelText('Username'), 'admin');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(server.requests).toHaveLength(0);
  });
});

describe('sign-in screen in the app', () => {
  it('signs in and goes on to where the user was headed, holding the CSRF token for later changes', async () => {
    const { user, router, server } = renderApp('/sign-in?next=%2Fsites', {
      'GET /cms/rest/auth/me': () => problem(401, 'UNAUTHENTICATED', 'Not signed in.'),
      'POST /cms/rest/auth/login': () => json(ADMIN_ME),
      'GET /cms/rest/sites': () => json([{ id: '1-1-1', name: 'demo', displayTitle: 'Demo', href: '/x' }]),
      'POST /cms/rest/auth/logout': () => json({ message: 'Signed out' }),
    });

    await user.type(await screen.findByLabelText('Username'), 'admin');
    await user.type(screen.getByLabelText('Password'), 'the-password{Enter}');

    expect(await screen.findByRole('heading', { level: 1, name: 'Sites' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/sites');
    expect(await screen.findByRole('heading', { level: 3, name: 'Demo' })).toBeTruthy();
    expect(screen.getByRole('banner').textContent).toContain('admin');

    await user.click(screen.getByRole('button', { name: 'Sign out' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/sign-in'));
    const logout = server.requests.find((r) => r.path === '/cms/rest/auth/logout')!;
    expect(logout.headers.get('x-csrf-token')).toBe(ADMIN_ME.csrfToken);
    expect(await screen.findByText('You have signed out.')).toBeTruthy();
  });

  it('asks to sign in again in a dialog when any call answers 401, staying on the screen, then loads it', async () => {
    let sessionAlive = true;
    const { user, router, server } = renderApp('/sites', {
      'GET /cms/rest/auth/me': () => (sessionAlive ? json(ADMIN_ME) : problem(401, 'UNAUTHENTICATED', 'Ended.')),
      'GET /cms/rest/sites': () =>
        sessionAlive ? json([]) : problem(401, 'UNAUTHENTICATED', 'Your session has ended. Sign in again.'),
      'GET /cms/rest/users': () =>
        sessionAlive
          ? json([
              {
                username: 'admin',
                role: 'Admin',
                createdAt: '2026-01-01T00:00:00.000+0000',
                updatedAt: '2026-01-01T00:00:00.000+0000',
              },
            ])
          : problem(401, 'UNAUTHENTICATED', 'Your session has ended. Sign in again.'),
      'POST /cms/rest/auth/login': () => {
        sessionAlive = true;
        return json({ ...ADMIN_ME, csrfToken: 'a-new-token' });
      },
    });
    expect(await screen.findByText('No sites yet')).toBeTruthy();

    sessionAlive = false;
    await user.click(screen.getByRole('link', { name: 'Users' }));

    const dialog = await screen.findByRole('dialog', { name: 'Sign in again to continue' });
    expect(router.state.location.pathname).toBe('/users');
    const username = within(dialog).getByLabelText('Username') as HTMLInputElement;
    expect(username.value).toBe('admin');
    expect(username.readOnly).toBe(true);

    await user.type(within(dialog).getByLabelText('Password'), 'the-password{Enter}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Sign in again to continue' })).toBeNull());
    expect(router.state.location.pathname).toBe('/users');
    const login = server.requests.find((r) => r.path === '/cms/rest/auth/login')!;
    expect(login.body).toEqual({ username: 'admin', password: 'the-password' });
    expect(await screen.findByRole('rowheader', { name: /^admin/ })).toBeTruthy();
  });

  it('returns to sign-in, coming back to the same screen, when the user signs out instead of signing in again', async () => {
    let sessionAlive = true;
    const { user, router } = renderApp('/sites', {
      'GET /cms/rest/auth/me': () => (sessionAlive ? json(ADMIN_ME) : problem(401, 'UNAUTHENTICATED', 'Ended.')),
      'GET /cms/rest/sites': () => (sessionAlive ? json([]) : problem(401, 'UNAUTHENTICATED', 'Ended.')),
      'GET /cms/rest/users': () => problem(401, 'UNAUTHENTICATED', 'Your session has ended. Sign in again.'),
    });
    expect(await screen.findByText('No sites yet')).toBeTruthy();
    sessionAlive = false;
    await user.click(screen.getByRole('link', { name: 'Users' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sign in again to continue' });
    await user.click(within(dialog).getByRole('button', { name: 'Sign out instead' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/sign-in'));
    expect(router.state.location.search).toBe('?next=%2Fusers');
    expect(await screen.findByText(/Your session has ended/)).toBeTruthy();
  });

  it('knows a browser that never signed in is signed out without asking the server (no 401 in the console)', async () => {
    document.cookie = 'folio_signed_in=; Max-Age=0; Path=/';
    const { router, server } = renderApp('/sites', {
      'GET /cms/rest/auth/me': () => problem(401, 'UNAUTHENTICATED', 'Not signed in.'),
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Sign in to Folio' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/sign-in');
    expect(server.requests.filter((r) => r.path === '/cms/rest/auth/me')).toEqual([]);
  });
});
