import type { ProblemDetails } from '../../shared/api/errors';
import { problemType, type ErrorCode } from '../../shared/api/errors';

/** One request the fake server received. */
export interface RecordedRequest {
  method: string;
  path: string;
  /** Query string with its `?` ("" when there is none). */
  search: string;
  headers: Headers;
  body: unknown;
}

type Reply = Response | Promise<Response>;
/** Answers `METHOD /path` (query string removed). Unmatched requests answer 404 problem JSON. */
export type Handlers = Record<string, (request: RecordedRequest) => Reply>;

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  });
}

export function problem(status: number, code: ErrorCode, detail: string, extra: Partial<ProblemDetails> = {}) {
  const body: ProblemDetails = { type: problemType(code), title: `HTTP ${status}`, status, detail, code, ...extra };
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/problem+json; charset=utf-8' },
  });
}

/**
 * A fetch that routes to handlers, standing in for the server at the client's boundary (`createClient({fetch})`).
 * `requests` lists every call in order; handlers may be replaced during a test.
 */
export function createFakeFetch(handlers: Handlers) {
  const requests: RecordedRequest[] = [];
  const fetch = async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(typeof input === 'string' ? input : input.toString(), 'http://folio.test');
    const method = (init.method ?? 'GET').toUpperCase();
    const text = typeof init.body === 'string' ? init.body : undefined;
    const request: RecordedRequest = {
      method,
      path: url.pathname,
      search: url.search,
      headers: new Headers(init.headers),
      body: text ? JSON.parse(text) : undefined,
    };
    requests.push(request);
    const handler = handlers[`${method} ${url.pathname}`];
    if (!handler) return problem(404, 'NOT_FOUND', `No route for ${method} ${url.pathname}.`);
    return handler(request);
  };
  return { fetch: fetch as typeof globalThis.fetch, requests, handlers };
}

/** The signed-in admin as /auth/me answers it for a cookie session. */
export const ADMIN_ME = { username: 'admin', role: 'Admin', csrfToken: 'csrf-token-of-the-session' } as const;
