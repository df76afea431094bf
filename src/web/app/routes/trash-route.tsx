import { TrashScreen } from '../../features/trash/components/trash-screen';
import { useDocumentTitle } from '../../lib/document-title';
import { useFrameContext } from './require-session';

/** /trash: deleted items to restore (admins also delete them for good). Loaded on first use (router.tsx). */
export function TrashRoute() {
  useDocumentTitle('Trash');
  const { user } = useFrameContext();
  return <TrashScreen isAdmin={user.role === 'Admin'} />;
}

export { TrashRoute as Component };
