import { InlineAlert } from '../../components/ui/inline-alert';
import { PageHeader } from '../../components/ui/page-header';
import { UsersScreen } from '../../features/users/components/users-screen';
import { useDocumentTitle } from '../../lib/document-title';
import { useFrameContext } from './require-session';

/** /users: user management for admins; anyone else learns why they cannot use it. Loaded on first use (router.tsx). */
export function UsersRoute() {
  useDocumentTitle('Users');
  const { user } = useFrameContext();
  if (user.role !== 'Admin') {
    return (
      <>
        <PageHeader title="Users" />
        <InlineAlert title="Admins only">
          Only admins manage users. You are signed in as {user.username} ({user.role}); ask an admin if you need a
          different role.
        </InlineAlert>
      </>
    );
  }
  return <UsersScreen currentUsername={user.username} />;
}

export { UsersRoute as Component };
