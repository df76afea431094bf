import { z } from 'zod';

/** Stable machine-readable error codes carried in `code` of every problem response. */
export const ErrorCode = z.enum([
  'INVALID_BODY',
  'INVALID_JSON',
  'INVALID_PARAMETER',
  'UNAUTHENTICATED',
  'CSRF_TOKEN_INVALID',
  'NOT_AUTHORIZED',
  'NOT_FOUND',
  'PAGE_NOT_FOUND',
  'FOLDER_NOT_FOUND',
  'ASSET_NOT_FOUND',
  'SITE_NOT_FOUND',
  'TEMPLATE_NOT_FOUND',
  'USER_NOT_FOUND',
  'METHOD_NOT_ALLOWED',
  'LOCATION_MISMATCH',
  'ID_MISMATCH',
  'FOLDER_NOT_EMPTY',
  'ASSET_ALREADY_EXISTS',
  'ASSET_IN_USE',
  'TEMPLATE_IN_USE',
  'INVALID_TRANSITION',
  'NAME_TAKEN',
  'INVALID_MOVE',
  'TYPE_MISMATCH',
  'CONFLICT',
  'PRECONDITION_FAILED',
  /** Someone else holds the item's check-out lease (409; `lease` names them): take it over first. */
  'LEASE_HELD',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'RANGE_NOT_SATISFIABLE',
  'TOO_MANY_ATTEMPTS',
  /** The request line (its URL with the query) and headers together exceed the server's limit (431). */
  'HEADERS_TOO_LARGE',
  /** The request did not arrive whole in time (408). */
  'REQUEST_TIMEOUT',
  /** The bytes sent are not an HTTP request the server can read (400, before any route). */
  'MALFORMED_REQUEST',
  /** A write committed but could not be made durable (the disk failed its sync): it is not acknowledged. */
  'STORAGE_UNAVAILABLE',
  'INTERNAL_ERROR',
]);
export type ErrorCode = z.infer<typeof ErrorCode>;

/** One invalid field of a 400 response: `path` is the dotted location in the body or query. */
export const FieldError = z.object({
  path: z.string(),
  message: z.string(),
});
export type FieldError = z.infer<typeof FieldError>;

/** RFC 9457 problem details, the body of every error response (`application/problem+json`). */
export const ProblemDetails = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    code: ErrorCode,
    errors: z.array(FieldError).optional(),
  })
  .catchall(z.unknown());
export type ProblemDetails = z.infer<typeof ProblemDetails>;

/** The `type` URI of a problem: a stable, documented identifier per code. */
export function problemType(code: ErrorCode): string {
  return `https://folio.dev/problems/${code.toLowerCase().replaceAll('_', '-')}`;
}
