/**
 * How the client talks HTTP: one `send` that sets the headers (CSRF, Basic, preconditions), encodes the body,
 * turns every failure into an `ApiError` and checks a successful body against its schema.
 */
import type { z } from 'zod';
import { ApiError, errorOfResponse } from './api-error.js';

/** HTTP Basic credentials for scripts and tests (the SPA uses the session cookie instead). */
export interface BasicCredentials {
  username: string;
  password: string;
}

export interface ClientOptions {
  /** Origin (and optional prefix) of the service, e.g. `http://127.0.0.1:8080`; '' (default) = same origin. */
  baseUrl?: string;
  /** fetch implementation; the global one by default (tests pass a fake). */
  fetch?: typeof fetch;
  /** The session's CSRF token, sent as `X-CSRF-Token` on unsafe methods. */
  getCsrfToken?: () => string | undefined;
  /** Called on every 401 except a failed sign-in, before the error is thrown (the SPA returns to sign-in). */
  onUnauthorized?: (error: ApiError) => void;
  /** Authenticate every call with HTTP Basic instead of a session cookie. */
  basicAuth?: BasicCredentials;
}

type Method = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RequestOptions<T> {
  /**
   * A JSON-serialisable value (sent as application/json), or a body sent as it is: FormData (multipart uploads,
   * the boundary is set by fetch), Blob, ArrayBuffer, a typed array or URLSearchParams.
   */
  body?: unknown;
  /** How to read a successful body: 'json' (default, checked with `schema`), 'text' or 'blob' (binary downloads). */
  responseType?: 'json' | 'text' | 'blob';
  /**
   * Schema of a successful response body, or a function that loads it (started with the request, awaited once
   * the answer is there); without one the body is returned unchecked (or undefined if empty).
   */
  schema?: z.ZodType<T> | LazySchema<T>;
  /** Query string parameters; undefined values are left out, an array repeats its key (`?kind=a&kind=b`). */
  query?: Record<string, string | number | boolean | readonly string[] | undefined>;
  headers?: Record<string, string>;
  /** Sent as `If-Match` (the ETag of the version the caller edited). */
  ifMatch?: string;
  /** Sent as `If-None-Match`; `*` on a PUT makes it create-only (412 when the item exists). */
  ifNoneMatch?: string;
  signal?: AbortSignal;
  /** Do not call `onUnauthorized` on a 401 (sign-in reports a wrong password itself). */
  skipUnauthorizedHandler?: boolean;
  /** Let the request outlive the page (fetch `keepalive`: a last call on `pagehide`). */
  keepalive?: boolean;
}

/** A schema loaded on demand (the client's response schemas live in a module of their own). */
export type LazySchema<T> = () => Promise<z.ZodType<T>>;

/** Conditions of a PUT: `ifMatch` updates only that version; `ifNoneMatch: '*'` only creates. Both answer 412. */
export interface PutPreconditions {
  ifMatch?: string;
  ifNoneMatch?: string;
}

/** A response body together with its `ETag` (null when the server sent none). */
export interface WithEtag<T> {
  data: T;
  etag: string | null;
}

const UNSAFE_METHODS = new Set<Method>(['POST', 'PUT', 'PATCH', 'DELETE']);

/** `Authorization` value for HTTP Basic; UTF-8 safe (btoa alone only takes Latin-1). */
export function basicAuthorization({ username, password }: BasicCredentials): string {
  const bytes = new TextEncoder().encode(`${username}:${password}`);
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return `Basic ${btoa(binary)}`;
}

/** Bodies fetch sends as they are (anything else is JSON-encoded). Checked by name too: not every runtime has all. */
function isRawBody(body: unknown): body is NonNullable<RequestInit['body']> {
  if (body === null || typeof body !== 'object') return false;
  const has = (name: string) => typeof (globalThis as Record<string, unknown>)[name] === 'function';
  return (
    (has('FormData') && body instanceof FormData) ||
    (has('Blob') && body instanceof Blob) ||
    (has('URLSearchParams') && body instanceof URLSearchParams) ||
    body instanceof ArrayBuffer ||
    ArrayBuffer.isView(body)
  );
}

function isAbort(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { name?: unknown }).name === 'AbortError';
}

/** `request` and `requestWithEtag` of a client with these options. */
export function createTransport(options: ClientOptions) {
  const baseUrl = (options.baseUrl ?? '').replace(/\/+$/, '');
  const authorization = options.basicAuth ? basicAuthorization(options.basicAuth) : undefined;

  function urlOf(path: string, query?: RequestOptions<unknown>['query']): string {
    let url = /^https?:\/\//.test(path) ? path : `${baseUrl}${path.startsWith('/') ? '' : '/'}${path}`;
    if (query) {
      const params = new URLSearchParams();
      for (const [k, v] of Object.entries(query)) {
        if (v === undefined) continue;
        if (Array.isArray(v)) for (const each of v as readonly string[]) params.append(k, each);
        else params.set(k, String(v));
      }
      const qs = params.toString();
      if (qs) url += (url.includes('?') ? '&' : '?') + qs;
    }
    return url;
  }

  async function send<T>(method: Method, path: string, opts: RequestOptions<T> = {}): Promise<WithEtag<T>> {
    const fetchImpl = options.fetch ?? globalThis.fetch;
    const headers = new Headers(opts.headers);
    headers.set('accept', 'application/json, application/problem+json');
    // Without it, a 401 would make the browser show its own Basic sign-in dialog.
    headers.set('x-requested-with', 'XMLHttpRequest');
    if (authorization && !headers.has('authorization')) headers.set('authorization', authorization);
    if (UNSAFE_METHODS.has(method)) {
      const csrf = options.getCsrfToken?.();
      if (csrf) headers.set('x-csrf-token', csrf);
    }
    if (opts.ifMatch) headers.set('if-match', opts.ifMatch);
    if (opts.ifNoneMatch) headers.set('if-none-match', opts.ifNoneMatch);

    let body: RequestInit['body'];
    if (isRawBody(opts.body)) {
      body = opts.body;
    } else if (opts.body !== undefined) {
      headers.set('content-type', 'application/json');
      body = JSON.stringify(opts.body);
    }

    // A lazily loaded schema loads while the request travels (and a failed load does not go unhandled meanwhile).
    const schema = typeof opts.schema === 'function' ? opts.schema() : opts.schema;
    if (schema instanceof Promise) schema.catch(() => undefined);

    let res: Response;
    try {
      res = await fetchImpl(urlOf(path, opts.query), {
        method,
        headers,
        body,
        signal: opts.signal,
        credentials: 'same-origin',
        ...(opts.keepalive ? { keepalive: true } : {}),
      });
    } catch (err) {
      throw isAbort(err)
        ? new ApiError({
            status: 0,
            code: 'ABORTED',
            title: 'Aborted',
            detail: 'The request was cancelled.',
            cause: err,
          })
        : new ApiError({
            status: 0,
            code: 'NETWORK_ERROR',
            title: 'Network error',
            detail: 'Could not reach the server. Check your connection and try again.',
            cause: err,
          });
    }

    if (!res.ok) {
      const error = await errorOfResponse(res);
      if (res.status === 401 && !opts.skipUnauthorizedHandler) options.onUnauthorized?.(error);
      throw error;
    }

    const etag = res.headers.get('etag');
    if (method === 'HEAD' || res.status === 204) return { data: undefined as T, etag };
    if (opts.responseType === 'blob') return { data: (await res.blob()) as T, etag };
    const text = await res.text();
    if (opts.responseType === 'text') return { data: text as T, etag };
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch (err) {
      throw new ApiError({
        status: res.status,
        code: 'INVALID_RESPONSE',
        title: 'Invalid response',
        detail: `The server's answer to ${method} ${path} is not JSON.`,
        cause: err,
      });
    }
    if (!schema) return { data: json as T, etag };
    let check: z.ZodType<T>;
    try {
      check = await schema;
    } catch (err) {
      throw new ApiError({
        status: 0,
        code: 'NETWORK_ERROR',
        title: 'Network error',
        detail: 'Could not load part of the app. Check your connection and try again.',
        cause: err,
      });
    }
    const parsed = check.safeParse(json);
    if (!parsed.success) {
      throw new ApiError({
        status: res.status,
        code: 'INVALID_RESPONSE',
        title: 'Invalid response',
        detail: `The server's answer to ${method} ${path} does not match the contract: ${parsed.error.issues
          .slice(0, 3)
          .map((i) => `${i.path.join('.') || '(root)'} ${i.message}`)
          .join('; ')}.`,
        cause: parsed.error,
      });
    }
    return { data: parsed.data, etag };
  }

  /** Calls any route of the interface; the body is validated with `schema` when given. */
  async function request<T>(method: Method, path: string, opts?: RequestOptions<T>): Promise<T> {
    return (await send(method, path, opts)).data;
  }

  /** Like `request`, and answers the response's ETag too (for a later `ifMatch`). */
  function requestWithEtag<T>(method: Method, path: string, opts?: RequestOptions<T>): Promise<WithEtag<T>> {
    return send(method, path, opts);
  }

  return { request, requestWithEtag };
}
