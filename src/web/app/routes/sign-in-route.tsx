import { Navigate, useSearchParams } from 'react-router';
import { LoadingState } from '../../components/ui/status';
import { useSession } from '../../features/auth/api/session';
import { SignInScreen } from '../../features/auth/components/sign-in-screen';
import { useDocumentTitle } from '../../lib/document-title';
import { NEXT_PARAM, safeNextPath } from '../../lib/safe-redirect';
import { paths } from '../paths';

/** /sign-in: the form, or — once there is a session — straight on to `?next=` (default: the sites). */
export function SignInRoute() {
  useDocumentTitle('Sign in');
  const session = useSession();
  const [params] = useSearchParams();

  if (session.data?.user) {
    const next = safeNextPath(params.get(NEXT_PARAM), paths.signIn);
    return <Navigate to={next === '/' ? paths.sites : next} replace />;
  }
  if (session.isPending) {
    return (
      <div className="full-page">
        <LoadingState label="Loading Folio…" />
      </div>
    );
  }
  // A failed session check still shows the form: signing in reports the problem in words if it persists.
  // Success needs no handler: the session query then holds the user and the branch above navigates on.
  return <SignInScreen ended={session.data?.ended} />;
}
