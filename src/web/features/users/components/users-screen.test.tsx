import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { User } from '../../../../shared/api/auth';
import { ADMIN_ME, json, problem, type RecordedRequest } from '../../../test/fake-api';
import { renderWithProviders } from '../../../test/render';
import { UsersScreen } from './users-screen';

const at = '2026-01-02T03:04:05.000Z';
const userOf = (username: string, role: User['role']): User => ({ username, role, createdAt: at, updatedAt: at });

/** A fake users resource that keeps its state, like the server. */
function usersServer(initial: User[]) {
  const users = new Map(initial.map((u) => [u.username, u]));
  const nameOf = (r: RecordedRequest) => decodeURIComponent(r.path.split('/').pop()!);
  return {
    users,
    handlers: {
      'GET /cms/rest/users': () => json([...users.values()]),
    } as Record<string, (r: RecordedRequest) => Response>,
    put: (r: RecordedRequest) => {
      const name = nameOf(r);
      const body = r.body as { role: User['role']; password?: string };
      const created = !users.has(name);
      users.set(name, userOf(name, body.role));
      return json(users.get(name), created ? 201 : 200);
    },
    remove: (r: RecordedRequest) => {
      users.delete(nameOf(r));
      return json({ message: 'Deleted' });
    },
  };
}

function renderUsers(initial: User[], extra: Record<string, (r: RecordedRequest) => Response> = {}) {
  const fake = usersServer(initial);
  const handlers: Record<string, (r: RecordedRequest) => Response> = { ...fake.handlers, ...extra };
  for (const u of [...initial, userOf('bob', 'Viewer'), userOf('new.person', 'Viewer')]) {
    handlers[`PUT /cms/rest/users/${encodeURIComponent(u.username)}`] ??= fake.put;
    handlers[`DELETE /cms/rest/users/${encodeURIComponent(u.username)}`] ??= fake.remove;
  }
  const view = renderWithProviders(<UsersScreen currentUsername="admin" />, handlers, {
    csrfToken: ADMIN_ME.csrfToken,
  });
  return { ...view, fake };
}

/** Opens New user and submits new.person with a good password; answers the dialog. */
async function createNewPerson(user: ReturnType<typeof renderUsers>['user']) {
  await user.click(screen.getByRole('button', { name: 'New user' }));
  const dialog = await screen.findByRole('dialog', { name: 'New user' });
  await user.type(within(dialog).getByLabelText('Username'), 'new.person');
  await user.type(within(dialog).getByLabelText('Initial password'), 'a-good-password');
  await user.type(within(dialog).getByLabelText('Repeat password'), 'a-good-password');
  await user.click(within(dialog).getByRole('button', { name: 'Create user' }));
  return dialog;
}

const rowOf = (username: string) => screen.getByRole('rowheader', { name: new RegExp(`^${username}`) }).closest('tr')!;

describe('UsersScreen', () => {
  it('lists the users by name with their roles and marks the signed-in admin', async () => {
    renderUsers([userOf('zoe', 'Editor'), userOf('admin', 'Admin'), userOf('carl', 'Viewer')]);

    await screen.findByRole('rowheader', { name: /^zoe/ });
    const names = screen.getAllByRole('rowheader').map((h) => h.textContent);
    expect(names).toEqual(['adminyou', 'carl', 'zoe']);
    expect(within(rowOf('zoe')).getByText('Editor')).toBeTruthy();
    expect(within(rowOf('carl')).getByText('Viewer')).toBeTruthy();
  });

  it('creates a user with a role and an initial password, checking the name is free first', async () => {
    const { user, server, fake } = renderUsers([userOf('admin', 'Admin')]);
    await screen.findByRole('rowheader', { name: /^admin/ });

    await createNewPerson(user);

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const put = server.requests.find((r) => r.method === 'PUT')!;
    expect(put.path).toBe('/cms/rest/users/new.person');
    expect(put.body).toEqual({ role: 'Viewer', password: 'a-good-password' });
    expect(put.headers.get('x-csrf-token')).toBe(ADMIN_ME.csrfToken);
    // Create-only: never an update of a user someone else created meanwhile.
    expect(put.headers.get('if-none-match')).toBe('*');
    // The list was read again right before the PUT (a PUT on an existing name would overwrite that user).
    const putIndex = server.requests.indexOf(put);
    expect(server.requests[putIndex - 1]).toMatchObject({ method: 'GET', path: '/cms/rest/users' });

    expect(fake.users.has('new.person')).toBe(true);
    expect(await screen.findByRole('rowheader', { name: /^new\.person/ })).toBeTruthy();
    expect((await screen.findByRole('region', { name: 'Notifications' })).textContent).toContain(
      'User new.person created',
    );
  });

  it('refuses mismatched passwords and a name that is taken, without sending a PUT', async () => {
    const { user, server } = renderUsers([userOf('admin', 'Admin'), userOf('bob', 'Editor')]);
    await screen.findByRole('rowheader', { name: /^bob/ });

    await user.click(screen.getByRole('button', { name: 'New user' }));
    const dialog = await screen.findByRole('dialog', { name: 'New user' });
    await user.type(within(dialog).getByLabelText('Username'), 'bob');
    await user.type(within(dialog).getByLabelText('Initial password'), 'a-good-password');
    await user.type(within(dialog).getByLabelText('Repeat password'), 'a-different-one');
    await user.click(within(dialog).getByRole('button', { name: 'Create user' }));
    expect(await within(dialog).findByText('The passwords do not match.')).toBeTruthy();

    await user.clear(within(dialog).getByLabelText('Repeat password'));
    await user.type(within(dialog).getByLabelText('Repeat password'), 'a-good-password');
    await user.click(within(dialog).getByRole('button', { name: 'Create user' }));
    expect(await within(dialog).findByText('The username is already taken by another user.')).toBeTruthy();
    expect(server.requests.filter((r) => r.method === 'PUT')).toHaveLength(0);
  });

  it('says the name is taken when another admin created it between the check and the PUT (412)', async () => {
    const { user, fake } = renderUsers([userOf('admin', 'Admin')], {
      'PUT /cms/rest/users/new.person': () => problem(412, 'PRECONDITION_FAILED', 'User "new.person" already exists.'),
    });
    await screen.findByRole('rowheader', { name: /^admin/ });
    const dialog = await createNewPerson(user);
    expect(await within(dialog).findByText('The username is already taken by another user.')).toBeTruthy();
    expect(fake.users.has('new.person')).toBe(false);
  });

  it('deletes a user only after confirming, and Cancel sends nothing', async () => {
    const { user, server, fake } = renderUsers([userOf('admin', 'Admin'), userOf('bob', 'Editor')]);
    await screen.findByRole('rowheader', { name: /^bob/ });

    const openDelete = async () => {
      await user.click(screen.getByRole('button', { name: 'Actions for bob' }));
      await user.click(await screen.findByRole('menuitem', { name: 'Delete…' }));
      return screen.findByRole('alertdialog', { name: 'Delete user bob?' });
    };

    let confirm = await openDelete();
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog', { name: 'Delete user bob?' })).toBeNull());
    expect(server.requests.filter((r) => r.method === 'DELETE')).toHaveLength(0);

    confirm = await openDelete();
    await user.click(within(confirm).getByRole('button', { name: 'Delete user' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog', { name: 'Delete user bob?' })).toBeNull());
    expect(server.requests.filter((r) => r.method === 'DELETE').map((r) => r.path)).toEqual(['/cms/rest/users/bob']);
    expect(fake.users.has('bob')).toBe(false);
    await waitFor(() => expect(screen.queryByRole('rowheader', { name: /^bob/ })).toBeNull());
  });

  it('shows why the server refused a deletion inside the confirmation', async () => {
    const { user } = renderUsers([userOf('admin', 'Admin'), userOf('root', 'Admin')], {
      'DELETE /cms/rest/users/root': () => problem(409, 'CONFLICT', 'The last admin cannot be deleted.'),
    });
    await screen.findByRole('rowheader', { name: /^root/ });
    await user.click(screen.getByRole('button', { name: 'Actions for root' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Delete…' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Delete user root?' });
    await user.click(within(confirm).getByRole('button', { name: 'Delete user' }));

    expect((await within(confirm).findByRole('alert')).textContent).toContain('The last admin cannot be deleted.');
    // The row stays (behind the still-open modal, hence hidden: true).
    expect(screen.getByRole('rowheader', { name: /^root/, hidden: true })).toBeTruthy();
  });

  it('does not offer changing your own role or deleting yourself', async () => {
    const { user } = renderUsers([userOf('admin', 'Admin'), userOf('bob', 'Editor')]);
    await user.click(await screen.findByRole('button', { name: 'Actions for admin' }));
    const menu = await screen.findByRole('menu');
    expect(within(menu).getByRole('menuitem', { name: 'Change role…' }).getAttribute('aria-disabled')).toBe('true');
    expect(within(menu).getByRole('menuitem', { name: 'Delete…' }).getAttribute('aria-disabled')).toBe('true');
    expect(within(menu).getByRole('menuitem', { name: 'Reset password…' }).getAttribute('aria-disabled')).toBeNull();
  });

  it('shows a load failure with a way to try again', async () => {
    let fail = true;
    const { user } = renderWithProviders(<UsersScreen currentUsername="admin" />, {
      'GET /cms/rest/users': () =>
        fail ? new Response('<h1>Bad gateway</h1>', { status: 502 }) : json([userOf('admin', 'Admin')]),
    });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Could not load the users');
    expect(alert.textContent).toContain('not reachable');

    fail = false;
    await user.click(within(alert).getByRole('button', { name: /Try again/ }));
    expect(await screen.findByRole('rowheader', { name: /^admin/ })).toBeTruthy();
  });
});
