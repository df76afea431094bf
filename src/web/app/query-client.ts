import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { isApiError } from '../../shared/api/client';
import { toast } from '../components/ui/toast';
import { errorMessage, errorTitle } from '../lib/errors';

declare module '@tanstack/react-query' {
  interface Register {
    defaultError: unknown;
    mutationMeta: {
      /** false when the component shows the error itself (forms, dialogs). */
      errorToast?: boolean;
    };
  }
}

/** Failures worth a second try: no answer at all, or the server/proxy failing. Never 4xx. */
function isTransient(error: unknown): boolean {
  return isApiError(error) && (error.code === 'NETWORK_ERROR' || error.status >= 500);
}

/** A 401 is handled by returning to sign-in, not by a toast. */
function isSessionEnd(error: unknown): boolean {
  return isApiError(error, 401);
}

/**
 * The app's QueryClient. Failures become toasts: mutations unless they show their error inline
 * (`meta.errorToast: false`); queries only when they fail in the background — a screen that has no data
 * shows its own error state instead, so one failure is never reported twice.
 */
export function createQueryClient({ retry = true }: { retry?: boolean } = {}) {
  return new QueryClient({
    queryCache: new QueryCache({
      onError: (error, query) => {
        if (isSessionEnd(error) || query.state.data === undefined) return;
        toast.error('Could not refresh the data', errorMessage(error));
      },
    }),
    mutationCache: new MutationCache({
      onError: (error, _variables, _context, mutation) => {
        if (isSessionEnd(error) || mutation.meta?.errorToast === false) return;
        toast.error(errorTitle(error), errorMessage(error));
      },
    }),
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        retry: (failureCount, error) => retry && failureCount < 2 && isTransient(error),
      },
      mutations: { retry: false },
    },
  });
}
