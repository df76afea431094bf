import { AccountScreen } from '../../features/auth/components/account-screen';
import { useDocumentTitle } from '../../lib/document-title';
import { useFrameContext } from './require-session';

/** /account: the signed-in user's own account (change their password). Loaded on first use (router.tsx). */
export function AccountRoute() {
  useDocumentTitle('Your account');
  const { user } = useFrameContext();
  return <AccountScreen user={user} />;
}

export { AccountRoute as Component };
