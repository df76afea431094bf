import { z } from 'zod';
import { ERROR_CODES } from './error-codes.js';

/** Stable machine-readable error codes carried in `code` of every problem response. */
export const ErrorCode = z.enum(ERROR_CODES);
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
