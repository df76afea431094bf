/**
 * The typed fetch client of the Folio REST interface, used by the SPA, the tests and scripts alike.
 *
 * It uses only what browsers and Node 20 both provide (fetch, Headers, TextEncoder, btoa), so it runs anywhere.
 * Every response is checked against the shared zod schema of its resource; every failure — a problem JSON from
 * the server, an odd non-JSON answer, a broken connection, a response that breaks the contract — becomes one
 * `ApiError`. Later resources add one group each to `createClient` (see `sites` for the smallest example).
 */
import { z } from 'zod';
import { LoginBody, Me, PasswordChangeBody, User, UserPutBody } from './auth.js';
import { DeletedMessage, Message } from './common.js';
import { ErrorCode, FieldError, ProblemDetails } from './errors.js';
import {
  CopyBody,
  FindQuery,
  FindResult,
  Folder,
  FolderChildren,
  FolderContents,
  FolderPutBody,
  MoveBody,
  RenameBody,
  TreeItem,
} from './folders.js';
import {
  AssetBulkResult,
  AssetList,
  AssetMetadata,
  AssetPutBody,
  AssetUsage,
  type AssetBulkAction,
  type AssetListQueryInput,
  type UploadAssetType,
} from './assets.js';
import { Page, PagePutBody, PagePutResponse, type BulkPageOperation } from './pages.js';
import { API_BASE, assetBinaryHref, assetHref, folderHref, pageHref } from './paths.js';
import { SiteList } from './sites.js';
import { Template, TemplateList, TemplatePutBody, TemplateUsage } from './templates.js';
import { TransitionsResponse } from './workflow.js';

/** Codes the client itself assigns when the server could not give one. */
export const ClientErrorCode = z.enum([
  /** No HTTP answer at all: offline, DNS, refused connection, CORS. */
  'NETWORK_ERROR',
  /** The request was cancelled through its AbortSignal. */
  'ABORTED',
  /** A 2xx answer whose body does not match the contract. */
  'INVALID_RESPONSE',
  /** A non-2xx answer without problem JSON (a proxy's HTML page, an empty body). */
  'UNEXPECTED_RESPONSE',
]);
export type ClientErrorCode = z.infer<typeof ClientErrorCode>;

/** What an `ApiError` knows about a failed call. */
export interface ApiErrorInit {
  /** HTTP status; 0 when no HTTP answer arrived (network error, aborted). */
  status: number;
  code: ErrorCode | ClientErrorCode;
  title: string;
  detail: string;
  /** Invalid fields of a 400, each with its dotted path (`body.password`, `params.name`). */
  errors?: FieldError[];
  /** The whole problem document, when the server sent one (extra members such as `retryAfter`). */
  problem?: ProblemDetails;
  cause?: unknown;
}

/** The one error every failed call throws. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: ErrorCode | ClientErrorCode;
  readonly title: string;
  readonly detail: string;
  readonly errors: FieldError[];
  readonly problem?: ProblemDetails;

  constructor(init: ApiErrorInit) {
    super(init.detail, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'ApiError';
    this.status = init.status;
    this.code = init.code;
    this.title = init.title;
    this.detail = init.detail;
    this.errors = init.errors ?? [];
    this.problem = init.problem;
  }

  /** The message of the field at `path` (e.g. `body.password`), if the server named it invalid. */
  fieldError(path: string): string | undefined {
    return this.errors.find((e) => e.path === path)?.message;
  }
}

/** True for an `ApiError` (optionally of one status). */
export function isApiError(value: unknown, status?: number): value is ApiError {
  return value instanceof ApiError && (status === undefined || value.status === status);
}

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
  /** Schema of a successful response body; without one the body is returned unchecked (or undefined if empty). */
  schema?: z.ZodType<T>;
  /** Query string parameters; undefined values are left out. */
  query?: Record<string, string | number | boolean | undefined>;
  headers?: Record<string, string>;
  /** Sent as `If-Match` (the ETag of the version the caller edited). */
  ifMatch?: string;
  /** Sent as `If-None-Match`; `*` on a PUT makes it create-only (412 when the item exists). */
  ifNoneMatch?: string;
  signal?: AbortSignal;
  /** Do not call `onUnauthorized` on a 401 (sign-in reports a wrong password itself). */
  skipUnauthorizedHandler?: boolean;
}

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

const STATUS_CODES: Partial<Record<number, ErrorCode>> = {
  400: 'INVALID_BODY',
  401: 'UNAUTHENTICATED',
  403: 'NOT_AUTHORIZED',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  409: 'CONFLICT',
  412: 'PRECONDITION_FAILED',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  416: 'RANGE_NOT_SATISFIABLE',
  429: 'TOO_MANY_ATTEMPTS',
};

const STATUS_DETAILS: Partial<Record<number, string>> = {
  401: 'You are not signed in.',
  403: 'You are not allowed to do this.',
  404: 'The service does not know this address.',
  413: 'The request is too large.',
  429: 'Too many attempts. Wait a moment and try again.',
  502: 'The service is not reachable right now (bad gateway).',
  503: 'The service is unavailable right now.',
  504: 'The service took too long to answer.',
};

/** Builds the ApiError of a non-2xx response: its problem JSON when there is one, otherwise from the status. */
async function errorOfResponse(res: Response): Promise<ApiError> {
  return apiErrorOf(res.status, res.statusText, await res.text().catch(() => ''));
}

/**
 * The ApiError of a non-2xx answer from its status and body text: the problem JSON when there is one, otherwise
 * what the status means. For callers that talk HTTP without this client (uploads with progress use XHR).
 */
export function apiErrorOf(status: number, statusText: string, text: string): ApiError {
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  const problem = ProblemDetails.safeParse(json);
  if (problem.success) {
    const p = problem.data;
    return new ApiError({ status, code: p.code, title: p.title, detail: p.detail, errors: p.errors, problem: p });
  }
  // Not a (valid) problem document: keep whatever the body says that is readable, else describe the status.
  const loose = json && typeof json === 'object' ? (json as Record<string, unknown>) : undefined;
  const looseDetail = typeof loose?.detail === 'string' ? loose.detail : undefined;
  const code: ErrorCode | ClientErrorCode =
    STATUS_CODES[status] ?? (status >= 500 ? 'INTERNAL_ERROR' : 'UNEXPECTED_RESPONSE');
  return new ApiError({
    status,
    code,
    title: statusText || `HTTP ${status}`,
    detail:
      looseDetail ??
      STATUS_DETAILS[status] ??
      (status >= 500
        ? `The server failed (HTTP ${status}). Try again later.`
        : `The server answered HTTP ${status}${statusText ? ` ${statusText}` : ''}.`),
  });
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

/** Creates a client. One per app (the SPA) or per credential (scripts, tests). */
export function createClient(options: ClientOptions = {}) {
  const baseUrl = (options.baseUrl ?? '').replace(/\/+$/, '');
  const authorization = options.basicAuth ? basicAuthorization(options.basicAuth) : undefined;

  function urlOf(path: string, query?: RequestOptions<unknown>['query']): string {
    let url = /^https?:\/\//.test(path) ? path : `${baseUrl}${path.startsWith('/') ? '' : '/'}${path}`;
    if (query) {
      const params = new URLSearchParams();
      for (const [k, v] of Object.entries(query)) if (v !== undefined) params.set(k, String(v));
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

    let res: Response;
    try {
      res = await fetchImpl(urlOf(path, opts.query), {
        method,
        headers,
        body,
        signal: opts.signal,
        credentials: 'same-origin',
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
    if (!opts.schema) return { data: json as T, etag };
    const parsed = opts.schema.safeParse(json);
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

  const enc = encodeURIComponent;

  return {
    request,
    requestWithEtag,

    auth: {
      /** Signs in (sets the session cookie); a wrong password is an ApiError 401 that does not call onUnauthorized. */
      login: (body: LoginBody, signal?: AbortSignal) =>
        request('POST', `${API_BASE}/auth/login`, { body, schema: Me, signal, skipUnauthorizedHandler: true }),
      /** Ends the session on the server. */
      logout: () => request('POST', `${API_BASE}/auth/logout`, { schema: Message, skipUnauthorizedHandler: true }),
      /** The signed-in user (and the CSRF token of a cookie session). */
      me: (signal?: AbortSignal) => request('GET', `${API_BASE}/auth/me`, { schema: Me, signal }),
      /**
       * Changes the signed-in user's own password; a wrong current password is a 400 on `body.currentPassword`.
       * The user's other sessions end; this one stays.
       */
      changePassword: (body: PasswordChangeBody) =>
        request('POST', `${API_BASE}/auth/password`, { body, schema: Message }),
    },

    users: {
      list: (signal?: AbortSignal) => request('GET', `${API_BASE}/users`, { schema: z.array(User), signal }),
      /** One user with its ETag (send it back as `ifMatch`). */
      get: (username: string, signal?: AbortSignal) =>
        requestWithEtag('GET', `${API_BASE}/users/${enc(username)}`, { schema: User, signal }),
      /**
       * Creates (password required) or updates a user's role and/or password; `ifMatch` → 412 when it changed,
       * `ifNoneMatch: '*'` → create-only (412 when the username is taken).
       */
      put: (username: string, body: UserPutBody, pre: PutPreconditions = {}) =>
        request('PUT', `${API_BASE}/users/${enc(username)}`, { body, schema: User, ...pre }),
      remove: (username: string, ifMatch?: string) =>
        request('DELETE', `${API_BASE}/users/${enc(username)}`, { schema: DeletedMessage, ifMatch }),
    },

    sites: {
      /** Every site the signed-in user may read. */
      list: (signal?: AbortSignal) => request('GET', `${API_BASE}/sites`, { schema: SiteList, signal }),
    },

    /** Sites, folders, sections, links and asset folders by path (`['demo', 'about']`, `['Assets', 'images']`). */
    folders: {
      /** The item with its ETag (send it back as `ifMatch`). */
      get: (segments: readonly string[], signal?: AbortSignal) =>
        requestWithEtag('GET', folderHref(segments), { schema: Folder, signal }),
      /**
       * Creates or updates the item. `ifNoneMatch: '*'` makes it create-only (412 when something is there);
       * `ifMatch` makes an update fail with 412 when the item changed since it was read.
       */
      put: (segments: readonly string[], body: FolderPutBody, pre: PutPreconditions = {}) =>
        requestWithEtag('PUT', folderHref(segments), {
          body,
          schema: Folder,
          ...pre,
        }),
      /** Deletes the item; a non-empty one only with `includeSubFolders` (409 FOLDER_NOT_EMPTY otherwise). */
      remove: (segments: readonly string[], opts: { includeSubFolders?: boolean; ifMatch?: string } = {}) =>
        request('DELETE', folderHref(segments), {
          schema: DeletedMessage,
          query: { includeSubFolders: opts.includeSubFolders ? 'true' : undefined },
          ifMatch: opts.ifMatch,
        }),
      /** The item's children with their titles, workflow states, and who changed them when. */
      children: (segments: readonly string[], signal?: AbortSignal) =>
        request('GET', `${API_BASE}/folders/children/by-path/${segments.map(enc).join('/')}`, {
          schema: FolderChildren,
          signal,
        }),
      /** What deleting the item would remove (counts by kind), for a confirmation. */
      contents: (segments: readonly string[], signal?: AbortSignal) =>
        request('GET', `${API_BASE}/folders/contents/by-path/${segments.map(enc).join('/')}`, {
          schema: FolderContents,
          signal,
        }),
      /** Moves any item into another container; answers where it is now. */
      move: (body: MoveBody, ifMatch?: string) =>
        request('POST', `${API_BASE}/folders/move`, { body, schema: TreeItem, ifMatch }),
      /** Copies an item with everything below it into a container (a taken name gets `-copy`). */
      copy: (body: CopyBody) => request('POST', `${API_BASE}/folders/copy`, { body, schema: TreeItem }),
      /** Renames any item in its container; answers where it is now. */
      rename: (body: RenameBody, ifMatch?: string) =>
        request('POST', `${API_BASE}/folders/rename`, { body, schema: TreeItem, ifMatch }),
      /** Items whose name or title contains `q` (any case), best matches first. */
      find: (query: { q: string; limit?: number; kind?: FindQuery['kind'] }, signal?: AbortSignal) =>
        request('GET', `${API_BASE}/folders/find`, { query, schema: FindResult, signal }),
    },

    templates: {
      /** Every template, with its regions. */
      list: (signal?: AbortSignal) => request('GET', `${API_BASE}/templates`, { schema: TemplateList, signal }),
      /** One template with its regions and template widgets, and its ETag. */
      get: (name: string, signal?: AbortSignal) =>
        requestWithEtag('GET', `${API_BASE}/templates/${enc(name)}`, { schema: Template, signal }),
      /**
       * Creates or replaces a template (admins); `ifMatch` → 412 when it changed since it was read, `ifNoneMatch:
       * '*'` → create-only (412 when the name is taken).
       */
      put: (name: string, body: TemplatePutBody, pre: PutPreconditions = {}) =>
        requestWithEtag('PUT', `${API_BASE}/templates/${enc(name)}`, { body, schema: Template, ...pre }),
      /** The pages made from a template (with `regions`: holding content there) and the sections that name it. */
      usage: (name: string, opts: { regions?: readonly string[] } = {}, signal?: AbortSignal) =>
        request('GET', `${API_BASE}/templates/${enc(name)}/usage`, {
          schema: TemplateUsage,
          query: { regions: opts.regions?.join(',') },
          signal,
        }),
      /** Deletes a template no page uses (409 TEMPLATE_IN_USE otherwise). */
      remove: (name: string, ifMatch?: string) =>
        request('DELETE', `${API_BASE}/templates/${enc(name)}`, { schema: DeletedMessage, ifMatch }),
    },

    /** Pages by path (`['demo', 'articles', 'welcome']`). */
    pages: {
      /** The page with its ETag. */
      get: (segments: readonly string[], signal?: AbortSignal) =>
        requestWithEtag('GET', pageHref(segments), { schema: Page, signal }),
      /**
       * PUT: creates the page (`{templateName}` is enough) or updates the fields sent. A PUT on an existing name
       * updates that page: creating callers send `ifNoneMatch: '*'` (412 when the name is taken).
       */
      put: (segments: readonly string[], body: PagePutBody, pre: PutPreconditions = {}) =>
        requestWithEtag('PUT', pageHref(segments), { body, schema: PagePutResponse, ...pre }),
      /** Deletes the page with its local assets. */
      remove: (segments: readonly string[], ifMatch?: string) =>
        request('DELETE', pageHref(segments), { schema: DeletedMessage, ifMatch }),
      /** The workflow transitions the caller may take on the page now. */
      transitions: (segments: readonly string[], signal?: AbortSignal) =>
        request('GET', `${API_BASE}/pages/transitions/${segments.map(enc).join('/')}`, {
          schema: TransitionsResponse,
          signal,
        }),
      /** Approves, submits or archives every page below a site, folder or section. */
      bulk: (operation: BulkPageOperation, folderSegments: readonly string[]) =>
        request('POST', `${API_BASE}/pages/${operation}/${folderSegments.map(enc).join('/')}`, { schema: Message }),
    },

    /** The asset library by path (`['Assets', 'images', 'logo.png']`). */
    assets: {
      /** An asset's metadata with its ETag. */
      get: (segments: readonly string[], signal?: AbortSignal) =>
        requestWithEtag('GET', assetHref(segments), { schema: AssetMetadata, signal }),
      /**
       * Creates a non-binary asset (`type` and its required fields) or updates any asset's fields and workflow.
       * `ifNoneMatch: '*'` makes it create-only; `ifMatch` makes an update fail with 412 when it changed.
       */
      put: (segments: readonly string[], body: AssetPutBody, pre: PutPreconditions = {}) =>
        requestWithEtag('PUT', assetHref(segments), {
          body,
          schema: AssetMetadata,
          ...pre,
        }),
      /** Deletes an asset; one that pages link only with `force` (409 ASSET_IN_USE otherwise). */
      remove: (segments: readonly string[], opts: { force?: boolean; ifMatch?: string } = {}) =>
        request('DELETE', assetHref(segments), {
          schema: DeletedMessage,
          query: { force: opts.force ? 'true' : undefined },
          ifMatch: opts.ifMatch,
        }),
      /** A page of a folder's assets (keyset pagination: pass the answer's `nextCursor` as `cursor`). */
      list: (folderSegments: readonly string[], query: AssetListQueryInput = {}, signal?: AbortSignal) =>
        request('GET', `${API_BASE}/assets/list/${folderSegments.map(enc).join('/')}`, {
          schema: AssetList,
          query: query as RequestOptions<unknown>['query'],
          signal,
        }),
      /** The pages that link the asset. */
      usage: (segments: readonly string[], signal?: AbortSignal) =>
        request('GET', `${API_BASE}/assets/usage/${segments.map(enc).join('/')}`, { schema: AssetUsage, signal }),
      /** The workflow transitions the caller may take on the asset now. */
      transitions: (segments: readonly string[], signal?: AbortSignal) =>
        request('GET', `${API_BASE}/assets/transitions/${segments.map(enc).join('/')}`, {
          schema: TransitionsResponse,
          signal,
        }),
      /** Approves, submits or archives every asset of a folder and its subfolders. */
      bulk: (action: AssetBulkAction, folderSegments: readonly string[]) =>
        request('POST', `${API_BASE}/assets/${action}/${folderSegments.map(enc).join('/')}`, {
          schema: AssetBulkResult,
        }),
      /**
       * Uploads a file as a new binary asset (409 ASSET_ALREADY_EXISTS when the path is taken). Without progress:
       * the app's upload queue sends with XMLHttpRequest to report it.
       */
      upload: (
        segments: readonly string[],
        file: Blob,
        opts: { assetType?: UploadAssetType; signal?: AbortSignal } = {},
      ) => {
        const form = new FormData();
        form.set('path', segments.join('/'));
        if (opts.assetType) form.set('assetType', opts.assetType);
        form.set('file', file, segments[segments.length - 1]);
        return request('POST', assetBinaryHref(segments), { body: form, schema: AssetMetadata, signal: opts.signal });
      },
      /**
       * Puts a new file in a binary asset's place: its id, fields and page links stay (409 TYPE_MISMATCH when an
       * image gets a non-image; `ifMatch` → 412 when it changed). Without progress, as `upload`.
       */
      replace: (segments: readonly string[], file: Blob, opts: { ifMatch?: string; signal?: AbortSignal } = {}) => {
        const form = new FormData();
        form.set('file', file, segments[segments.length - 1]);
        return requestWithEtag('PUT', assetBinaryHref(segments), {
          body: form,
          schema: AssetMetadata,
          ifMatch: opts.ifMatch,
          signal: opts.signal,
        });
      },
    },
  };
}

/** A client made by `createClient`. */
export type Client = ReturnType<typeof createClient>;
