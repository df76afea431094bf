import { useMemo, useRef, useState } from 'react';
import type { User } from '../../../../shared/api/auth';
import { ActionMenu } from '../../../components/ui/action-menu';
import { Button } from '../../../components/ui/button';
import { PlusIcon } from '../../../components/ui/icons';
import { PageHeader } from '../../../components/ui/page-header';
import { ErrorState, LoadingState } from '../../../components/ui/status';
import { formatDateTime } from '../../../lib/format';
import { useUsers } from '../api/get-users';
import { ChangeRoleDialog } from './change-role-dialog';
import { CreateUserDialog } from './create-user-dialog';
import { DeleteUserDialog } from './delete-user-dialog';
import { ResetPasswordDialog } from './reset-password-dialog';
import './users.css';

type UserAction = 'role' | 'password' | 'delete';
type OpenDialog = { kind: 'create' } | { kind: UserAction; user: User } | null;

/**
 * Admins manage who may sign in: list, create (role + initial password), change a role, reset a password,
 * delete after confirming. Your own role and account cannot be changed or deleted here, so an admin cannot
 * lock themselves out by accident (another admin can).
 */
export function UsersScreen({ currentUsername }: { currentUsername: string }) {
  const users = useUsers();
  const [dialog, setDialog] = useState<OpenDialog>(null);
  const newUserButton = useRef<HTMLButtonElement>(null);
  const listRegionRef = useRef<HTMLDivElement>(null);

  const sorted = useMemo(
    () => [...(users.data ?? [])].sort((a, b) => a.username.localeCompare(b.username)),
    [users.data],
  );

  /** Focus returns to the row's action button (or the "New user" button when the row is gone). */
  const closeDialog = (username?: string) => {
    setDialog(null);
    requestAnimationFrame(() => {
      if (document.activeElement && document.activeElement !== document.body) return;
      const row = username
        ? listRegionRef.current?.querySelector<HTMLButtonElement>(
            `[data-user-actions="${CSS.escape(username)}"] button`,
          )
        : null;
      (row ?? newUserButton.current)?.focus();
    });
  };

  return (
    <>
      <PageHeader
        title="Users"
        description="Who may sign in to Folio, and what they may do."
        actions={
          <Button ref={newUserButton} variant="primary" onPress={() => setDialog({ kind: 'create' })}>
            <PlusIcon /> New user
          </Button>
        }
      />
      <div ref={listRegionRef}>
        {users.isPending ? (
          <LoadingState label="Loading users…" />
        ) : users.isError ? (
          <ErrorState
            title="Could not load the users"
            error={users.error}
            onRetry={() => void users.refetch()}
            isRetrying={users.isFetching}
          />
        ) : (
          <div className="table-wrap">
            <table className="table users-table">
              <caption className="visually-hidden">Users, {sorted.length} in all, sorted by name</caption>
              <thead>
                <tr>
                  <th scope="col">User</th>
                  <th scope="col">Role</th>
                  <th scope="col">Created</th>
                  <th scope="col">Last changed</th>
                  <th scope="col" className="table__actions">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {sorted.map((user) => {
                  const isSelf = user.username === currentUsername;
                  return (
                    <tr key={user.username} data-user-row={user.username}>
                      <th scope="row" className="users-table__name">
                        {user.username}
                        {isSelf && <span className="badge badge--accent">you</span>}
                      </th>
                      <td>
                        <span className="badge">{user.role}</span>
                      </td>
                      <td className="table__muted">{formatDateTime(user.createdAt)}</td>
                      <td className="table__muted">{formatDateTime(user.updatedAt)}</td>
                      <td className="table__actions" data-user-actions={user.username}>
                        <ActionMenu<UserAction>
                          label={`Actions for ${user.username}`}
                          items={[
                            { id: 'role', label: 'Change role…', isDisabled: isSelf },
                            { id: 'password', label: 'Reset password…' },
                            { id: 'delete', label: 'Delete…', danger: true, isDisabled: isSelf },
                          ]}
                          onAction={(kind) => setDialog({ kind, user })}
                        />
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
        {users.isSuccess && (
          <p className="users-note">
            You cannot change your own role or delete your own account here; another admin can. Changing a role or a
            password signs that user out everywhere.
          </p>
        )}
      </div>

      {dialog?.kind === 'create' && (
        <CreateUserDialog onClose={() => closeDialog()} onCreated={(user) => closeDialog(user.username)} />
      )}
      {dialog?.kind === 'role' && (
        <ChangeRoleDialog user={dialog.user} onClose={() => closeDialog(dialog.user.username)} />
      )}
      {dialog?.kind === 'password' && (
        <ResetPasswordDialog
          user={dialog.user}
          isSelf={dialog.user.username === currentUsername}
          onClose={() => closeDialog(dialog.user.username)}
        />
      )}
      {dialog?.kind === 'delete' && (
        <DeleteUserDialog
          user={dialog.user}
          onClose={(deleted) => closeDialog(deleted ? undefined : dialog.user.username)}
        />
      )}
    </>
  );
}
