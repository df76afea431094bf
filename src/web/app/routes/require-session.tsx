import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useCallback, useMemo, useState, type ReactNode } from 'react';
import { Navigate, Outlet, useLocation, useNavigate, useNavigation, useOutletContext } from 'react-router';
import type { Me } from '../../../shared/api/auth';
import type { SearchHit } from '../../../shared/api/search';
import { ErrorState, LoadingState } from '../../components/ui/status';
import { useSession, useSignOut, waitForSignIn, type SessionEnd } from '../../features/auth/api/session';
import { useLiveEvents } from '../../lib/live-events';
import { ReauthProvider, type Reauth } from '../../lib/reauth';
import { ExplorerProvider, useExplorer } from '../../features/explorer/components/explorer-context';
import { createFindDraft, FindFieldFallback } from '../../features/explorer/components/find-field-draft';
import { signInPathFor } from '../../lib/safe-redirect';
import { AppFrame } from '../layout/app-frame';
import { paths } from '../paths';
import { searchHitHref, useExplorerNavigation } from './explorer-navigation';
import { useSearchLauncher } from '../../features/search/components/search-launcher';
import { UploadTraySlot } from './upload-tray-slot';

// The explorer's tree and find field load after the frame (they are not needed to show the first screen); until
// then the header holds the find field's box (FindFieldFallback), which keeps what is typed into it.
const explorer = () => import('../../features/explorer/components/explorer-lazy');
const ExplorerTreePanel = lazy(() => explorer().then((m) => ({ default: m.ExplorerTreePanel })));
const FindField = lazy(() => explorer().then((m) => ({ default: m.FindField })));
const ExplorerDialogs = lazy(() => explorer().then((m) => ({ default: m.ExplorerDialogs })));
const ReauthDialog = lazy(() =>
  import('../../features/auth/components/reauth-dialog').then((m) => ({ default: m.ReauthDialog })),
);

/** The explorer's open dialog, if any (its code loads when the first one opens). */
function ExplorerDialogSlot() {
  const { command, closeCommand } = useExplorer();
  if (!command) return null;
  return (
    <Suspense fallback={null}>
      <ExplorerDialogs command={command} onClose={closeCommand} />
    </Suspense>
  );
}

/** The explorer around the frame: the tree in the navigation area, find in the header, screens in the main area. */
function WithExplorer({
  user,
  onSearchContent,
  preloadScreenAt,
  children,
}: {
  user: Me;
  preloadScreenAt: (href: string) => void;
  /** The find field's way into full-text search (its text as the query). */
  onSearchContent: (q: string) => void;
  children: (parts: { tree: ReactNode; find: ReactNode }) => ReactNode;
}) {
  const navigation = useExplorerNavigation(preloadScreenAt);
  const [findDraft] = useState(createFindDraft);
  // The same elements on every render: a URL change within a screen (an asset's panel opening) does not render
  // the tree and its rows again (they follow the current item through the explorer's context).
  const parts = useMemo(
    () => ({
      tree: (
        <Suspense fallback={<LoadingState label="Loading the explorer…" />}>
          <ExplorerTreePanel />
        </Suspense>
      ),
      find: (
        <Suspense fallback={<FindFieldFallback draft={findDraft} />}>
          <FindField onSearchContent={onSearchContent} draft={findDraft} />
        </Suspense>
      ),
    }),
    [onSearchContent, findDraft],
  );
  return (
    <ExplorerProvider role={user.role} navigation={navigation}>
      {children(parts)}
      <ExplorerDialogSlot />
    </ExplorerProvider>
  );
}

/** What the frame gives every signed-in route. */
export interface FrameContext {
  user: Me;
}

/** The signed-in user, for route modules under <RequireSession>. */
export function useFrameContext(): FrameContext {
  return useOutletContext<FrameContext>();
}

/**
 * Layout route of everything behind sign-in. Without a session it sends the user to sign-in, remembering where
 * they were (unless they signed out on purpose), so signing in brings them straight back.
 */
export function RequireSession({
  preloadScreenAt,
}: {
  /** Starts loading the code of the screen at an app URL (the router's lazy screens). */
  preloadScreenAt: (href: string) => void;
}) {
  const session = useSession();
  const signOut = useSignOut();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const reauth = useMemo<Reauth>(() => ({ reauthenticate: () => waitForSignIn(queryClient) }), [queryClient]);
  // One event stream per signed-in tab: others' changes refresh what this tab shows.
  useLiveEvents(
    Boolean(session.data?.user) && !session.data?.stale,
    session.data?.user?.username,
    session.data?.user?.eventsAfter,
  );
  const search = useSearchLauncher(
    useCallback((hit: SearchHit) => void navigate(searchHitHref(hit)), [navigate]),
    useCallback((hit: SearchHit) => preloadScreenAt(searchHitHref(hit)), [preloadScreenAt]),
  );

  if (session.data?.user) {
    const user = session.data.user;
    return (
      <ReauthProvider value={reauth}>
        <WithExplorer user={user} onSearchContent={search.open} preloadScreenAt={preloadScreenAt}>
          {({ tree, find }) => (
            <AppFrame
              user={user}
              isSigningOut={signOut.isPending}
              onSignOut={() =>
                signOut.mutate(undefined, { onSuccess: () => navigate(paths.signIn, { replace: true }) })
              }
              navigationPanel={tree}
              headerSearch={
                <>
                  {find}
                  {search.button}
                </>
              }
            >
              <Outlet context={{ user } satisfies FrameContext} />
              <UploadTraySlot />
              {search.dialog}
            </AppFrame>
          )}
        </WithExplorer>
        {session.data.stale && (
          <Suspense fallback={null}>
            <ReauthDialog username={user.username} />
          </Suspense>
        )}
      </ReauthProvider>
    );
  }
  if (session.data) return <ToSignIn ended={session.data.ended} />;
  if (session.isError) {
    return (
      <div className="full-page">
        <ErrorState
          title="Could not check your session"
          error={session.error}
          onRetry={() => void session.refetch()}
          isRetrying={session.isFetching}
        />
      </div>
    );
  }
  return (
    <div className="full-page">
      <LoadingState label="Loading Folio…" />
    </div>
  );
}

/**
 * Sends a user without a session to sign-in, remembering where they were (unless they signed out on purpose).
 * Only this reads the location (the signed-in frame has no use for it).
 */
function ToSignIn({ ended }: { ended: SessionEnd }) {
  const current = useLocation();
  // When the session ends while a navigation is under way (a lazy screen loading), the user was going there.
  const pending = useNavigation().location;
  const location = pending ?? current;
  const here = `${location.pathname}${location.search}${location.hash}`;
  return <Navigate to={ended === 'signed-out' ? paths.signIn : signInPathFor(paths.signIn, here)} replace />;
}
