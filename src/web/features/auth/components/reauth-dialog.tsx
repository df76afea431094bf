import { Button } from '../../../components/ui/button';
import { Modal } from '../../../components/ui/dialog';
import { useEndStaleSession } from '../api/session';
import { SignInForm } from './sign-in-form';

/**
 * The session ended while the user was working: sign in again here, over the screen, and carry on where they
 * were (a save that met the 401 is sent again). Signing out instead returns to the sign-in page; unsaved edits of
 * editors stay in the browser as drafts either way.
 */
export function ReauthDialog({ username }: { username: string }) {
  const endSession = useEndStaleSession();
  return (
    <Modal
      isOpen
      onOpenChange={() => undefined}
      isBusy
      size="sm"
      title="Sign in again to continue"
      description={
        <>
          Your session has ended. Sign in again as <strong>{username}</strong> to carry on — this screen and everything
          you typed stay as they are.
        </>
      }
      footer={
        <Button variant="quiet" onPress={endSession}>
          Sign out instead
        </Button>
      }
    >
      <SignInForm fixedUsername={username} />
    </Modal>
  );
}
