import { createContext, useContext, type ReactNode } from 'react';
import { createClient, type ApiError, type Client, type ClientOptions } from '../../shared/api/client';

/**
 * The SPA's connection to the service: the typed client plus the two things the session needs from it —
 * where to read the CSRF token, and who to tell when any call answers 401.
 */
export interface WebApi {
  client: Client;
  /** Remembers the session's CSRF token (from sign-in or /auth/me); undefined when signed out. */
  setCsrfToken(token: string | undefined): void;
  /** The session's CSRF token, for requests sent without the client (uploads with progress). */
  csrfToken(): string | undefined;
  /** Tells the subscribers of `onUnauthorized` about a 401 that a request outside the client received. */
  reportUnauthorized(error: ApiError): void;
  /** Subscribes to 401 answers of any call except sign-in; returns the unsubscribe function. */
  onUnauthorized(listener: (error: ApiError) => void): () => void;
}

/** Creates the SPA's client (same origin, cookie session). Tests pass a fake `fetch`. */
export function createWebApi(options: Pick<ClientOptions, 'fetch' | 'baseUrl'> = {}): WebApi {
  let csrfToken: string | undefined;
  const listeners = new Set<(error: ApiError) => void>();
  const reportUnauthorized = (error: ApiError) => {
    for (const listener of [...listeners]) listener(error);
  };
  const client = createClient({ ...options, getCsrfToken: () => csrfToken, onUnauthorized: reportUnauthorized });
  return {
    client,
    setCsrfToken: (token) => {
      csrfToken = token;
    },
    csrfToken: () => csrfToken,
    reportUnauthorized,
    onUnauthorized: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

const ApiContext = createContext<WebApi | null>(null);

/** Makes a WebApi available to every feature below it. */
export function ApiProvider({ api, children }: { api: WebApi; children: ReactNode }) {
  return <ApiContext.Provider value={api}>{children}</ApiContext.Provider>;
}

/** The WebApi of the app (client and session hooks). */
export function useWebApi(): WebApi {
  const api = useContext(ApiContext);
  if (!api) throw new Error('useWebApi must be used inside <ApiProvider>.');
  return api;
}

/** The typed client of the app. */
export function useApi(): Client {
  return useWebApi().client;
}
