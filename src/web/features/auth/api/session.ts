import { queryOptions, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { LoginBody, Me } from '../../../../shared/api/auth';
import { SESSION_HINT_COOKIE } from '../../../../shared/api/session-names';
import { ApiError, isApiError } from '../../../../shared/api/client';
import { useWebApi, type WebApi } from '../../../lib/api';

/** Why there is no signed-in user: never signed in (or unknown), signed out on purpose, or the session ended. */
export type SessionEnd = 'none' | 'signed-out' | 'expired';

/**
 * The session as the app sees it: the signed-in user, or why there is none. `stale`: the server ended the
 * session while the user was working; they sign in again in a dialog and the screen stays as it was.
 */
export type Session =
  { user: Me; ended?: undefined; stale?: boolean } | { user: null; ended: SessionEnd; stale?: undefined };

/** Query keys of the auth resource, general to specific. */
export const authKeys = {
  all: ['auth'] as const,
  session: () => [...authKeys.all, 'session'] as const,
};

/** Whether the browser holds the sign-in hint cookie (see SESSION_HINT_COOKIE): a session may exist. */
export function hasSessionHint(): boolean {
  return document.cookie.split(';').some((c) => c.trim().startsWith(`${SESSION_HINT_COOKIE}=`));
}

/** What `/auth/me` would answer without the hint cookie (nobody signed in since the last sign-out). */
const NO_SESSION = new ApiError({
  status: 401,
  code: 'UNAUTHENTICATED',
  title: 'Unauthorized',
  detail: 'You are not signed in.',
});

/** Drops the hint once the server said the session is gone (it outlives a session that timed out). */
function forgetSessionHint() {
  document.cookie = `${SESSION_HINT_COOKIE}=; Max-Age=0; Path=/; SameSite=Lax`;
}

/**
 * GET /auth/me as the session: a 401 means "signed out", not an error. Without the sign-in hint cookie the
 * answer is known without asking.
 */
export function sessionQueryOptions(api: WebApi, queryClient: QueryClient) {
  return queryOptions({
    queryKey: authKeys.session(),
    queryFn: async ({ signal }): Promise<Session> => {
      try {
        // No sign-in in this browser since the last sign-out: the answer would be a 401, known without asking.
        if (!hasSessionHint()) throw NO_SESSION;
        const user = await api.client.auth.me(signal);
        api.setCsrfToken(user.csrfToken);
        return { user };
      } catch (error) {
        if (isApiError(error, 401)) {
          api.setCsrfToken(undefined);
          forgetSessionHint();
          const before = queryClient.getQueryData<Session>(authKeys.session());
          // A user who was signed in a moment ago signs in again over the screen; anyone else simply is not.
          if (before?.user) return { user: before.user, stale: true };
          return { user: null, ended: before?.ended ?? 'none' };
        }
        throw error;
      }
    },
    // Re-checked when the window regains focus, so a tab left open past the session's end returns to sign-in.
    staleTime: 60_000,
  });
}

/** The current session (pending while the first /auth/me runs). */
export function useSession() {
  return useQuery(sessionQueryOptions(useWebApi(), useQueryClient()));
}

/** Ends the session in the app: forget the CSRF token and every cached resource of the previous user. */
function endSession(queryClient: QueryClient, api: WebApi, ended: SessionEnd) {
  api.setCsrfToken(undefined);
  forgetSessionHint();
  const notAuth = { predicate: (q: { queryKey: readonly unknown[] }) => q.queryKey[0] !== authKeys.all[0] };
  void queryClient.cancelQueries(notAuth);
  queryClient.removeQueries(notAuth);
  queryClient.setQueryData<Session>(authKeys.session(), { user: null, ended });
}

/** Signs in; on success the session holds the user (no page reload, no extra round trip). */
export function useSignIn() {
  const api = useWebApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: LoginBody) => api.client.auth.login(body),
    onSuccess: (user) => {
      api.setCsrfToken(user.csrfToken);
      const wasStale = queryClient.getQueryData<Session>(authKeys.session())?.stale;
      queryClient.setQueryData<Session>(authKeys.session(), { user });
      // Reads that failed while the session was gone load again now.
      if (wasStale) {
        void queryClient.refetchQueries({
          type: 'active',
          predicate: (q) => q.state.status === 'error' && q.queryKey[0] !== authKeys.all[0],
        });
      }
    },
    // The sign-in form shows its errors inline.
    meta: { errorToast: false },
  });
}

/** Signs out on the server, then in the app. A session that already ended counts as signed out. */
export function useSignOut() {
  const api = useWebApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      try {
        await api.client.auth.logout();
      } catch (error) {
        if (!isApiError(error, 401)) throw error;
      }
    },
    onSuccess: () => endSession(queryClient, api, 'signed-out'),
  });
}

/**
 * Whenever any call answers 401 (the session expired or was ended elsewhere), marks the session stale: the app
 * then asks the user to sign in again in a dialog over the screen they are on, so nothing they typed is lost.
 */
export function useSessionExpiryHandler() {
  const api = useWebApi();
  const queryClient = useQueryClient();
  useEffect(
    () =>
      api.onUnauthorized(() => {
        const current = queryClient.getQueryData<Session>(authKeys.session());
        if (current?.user && !current.stale) {
          api.setCsrfToken(undefined);
          queryClient.setQueryData<Session>(authKeys.session(), { user: current.user, stale: true });
        }
      }),
    [api, queryClient],
  );
}

/**
 * Waits for the user to sign in again after a 401: true once the session is back, false when they signed out
 * instead (or nobody was signed in). The app hands it to savers through `lib/reauth`.
 */
export function waitForSignIn(queryClient: QueryClient): Promise<boolean> {
  const read = () => queryClient.getQueryData<Session>(authKeys.session());
  const decided = (s: Session | undefined) => (s?.user ? (s.stale ? null : true) : false);
  const now = decided(read());
  if (now !== null) return Promise.resolve(now);
  return new Promise((resolve) => {
    const unsubscribe = queryClient.getQueryCache().subscribe(() => {
      const answer = decided(read());
      if (answer === null) return;
      unsubscribe();
      resolve(answer);
    });
  });
}

/** Gives up signing in again: the session ends as expired, and the app returns to sign-in (coming back here). */
export function useEndStaleSession() {
  const api = useWebApi();
  const queryClient = useQueryClient();
  return () => endSession(queryClient, api, 'expired');
}
