import type { ErrorCode, FieldError } from '../../shared/api/errors.js';

/** An error meant for the client: becomes a problem+json response with this status and code. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    readonly detail: string,
    readonly errors?: FieldError[],
    /** Extra members for the problem body (e.g. `allowedStates`, `usedBy`). */
    readonly extra?: Record<string, unknown>,
  ) {
    super(detail);
    this.name = 'AppError';
  }
}

export const badRequest = (detail: string, errors?: FieldError[], code: ErrorCode = 'INVALID_BODY') =>
  new AppError(400, code, detail, errors);
export const unauthenticated = (detail = 'Sign in first: send HTTP Basic credentials or a session cookie.') =>
  new AppError(401, 'UNAUTHENTICATED', detail);
export const forbidden = (detail = 'You are not allowed to do this.') => new AppError(403, 'NOT_AUTHORIZED', detail);
export const notFound = (code: ErrorCode, detail: string) => new AppError(404, code, detail);
export const conflict = (code: ErrorCode, detail: string, extra?: Record<string, unknown>) =>
  new AppError(409, code, detail, undefined, extra);
export const preconditionFailed = (
  detail = 'The item was changed by someone else since you read it (If-Match does not match its ETag).',
) => new AppError(412, 'PRECONDITION_FAILED', detail);
