import { queryOptions, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { LoginBody, Me } from '../../../../shared/api/auth';
import { isApiError } from '../../../../shared/api/client';
import { useWebApi, type WebApi } from '../../../lib/api';

/** Why there is no signed-in user: never signed in (or unknown), signed out on purpose, or the session ended. */
export type SessionEnd = 'none' | 'signed-out' | 'expired';

/** The session as the app sees it: the signed-in user, or why there is none. */
export type Session = { user: Me; ended?: undefined } | { user: null; ended: SessionEnd };

/** Query keys of the auth resource, general to specific. */
export const authKeys = {
  all: ['auth'] as const,
  session: () => [...authKeys.all, 'session'] as const,
};

/** GET /auth/me as the session: a 401 means "signed out", not an error. */
export function sessionQueryOptions(api: WebApi, queryClient: QueryClient) {
  return queryOptions({
    queryKey: authKeys.session(),
    queryFn: async ({ signal }): Promise<Session> => {
      try {
        const user = await api.client.auth.me(signal);
        api.setCsrfToken(user.csrfToken);
        return { user };
      } catch (error) {
        if (isApiError(error, 401)) {
          api.setCsrfToken(undefined);
          const before = queryClient.getQueryData<Session>(authKeys.session());
          // A user who was signed in a moment ago lost the session; anyone else simply is not signed in.
          return { user: null, ended: before?.user ? 'expired' : (before?.ended ?? 'none') };
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
      queryClient.setQueryData<Session>(authKeys.session(), { user });
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

/** Returns the app to sign-in whenever any call answers 401 (the session expired or was ended elsewhere). */
export function useSessionExpiryHandler() {
  const api = useWebApi();
  const queryClient = useQueryClient();
  useEffect(
    () =>
      api.onUnauthorized(() => {
        const current = queryClient.getQueryData<Session>(authKeys.session());
        if (current?.user) endSession(queryClient, api, 'expired');
      }),
    [api, queryClient],
  );
}
