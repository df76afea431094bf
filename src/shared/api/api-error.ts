/** The one error every failed call of the client throws, and how a non-2xx answer becomes one. */
/*
 * Without zod: every screen handles errors, and the first screen's code must not carry the contract's schemas
 * (the problem document is checked by hand below, as `ProblemDetails` in errors.ts states it).
 */
import { ERROR_CODES, type ErrorCode } from './error-codes.js';
import type { FieldError, ProblemDetails } from './errors.js';

/** Codes the client itself assigns when the server could not give one. */
export const CLIENT_ERROR_CODES = [
  /** No HTTP answer at all: offline, DNS, refused connection, CORS. */
  'NETWORK_ERROR',
  /** The request was cancelled through its AbortSignal. */
  'ABORTED',
  /** A 2xx answer whose body does not match the contract. */
  'INVALID_RESPONSE',
  /** A non-2xx answer without problem JSON (a proxy's HTML page, an empty body). */
  'UNEXPECTED_RESPONSE',
] as const;
export type ClientErrorCode = (typeof CLIENT_ERROR_CODES)[number];

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
export async function errorOfResponse(res: Response): Promise<ApiError> {
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
  if (isProblemDetails(json)) {
    const p = json;
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

const KNOWN_CODES: ReadonlySet<string> = new Set(ERROR_CODES);

/** True when `value` is a problem document as `ProblemDetails` (errors.ts) describes it. */
export function isProblemDetails(value: unknown): value is ProblemDetails {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return false;
  const p = value as Record<string, unknown>;
  return (
    typeof p.type === 'string' &&
    typeof p.title === 'string' &&
    Number.isInteger(p.status) &&
    typeof p.detail === 'string' &&
    typeof p.code === 'string' &&
    KNOWN_CODES.has(p.code) &&
    (p.errors === undefined || (Array.isArray(p.errors) && p.errors.every(isFieldError)))
  );
}

function isFieldError(value: unknown): value is FieldError {
  if (!value || typeof value !== 'object') return false;
  const e = value as Record<string, unknown>;
  return typeof e.path === 'string' && typeof e.message === 'string';
}
