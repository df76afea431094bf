import { STATUS_CODES } from 'node:http';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ZodError } from 'zod';
import { problemType, type ErrorCode, type FieldError, type ProblemDetails } from '../../shared/api/errors.js';
import { isConcurrentWriteConflict } from '../db/dialect.js';
import { AppError } from '../lib/errors.js';
import { sendProblemJson } from '../lib/respond.js';

/** The title of a status: its reason phrase (RFC 9110's for 413). */
const titleOf = (status: number) => (status === 413 ? 'Content Too Large' : (STATUS_CODES[status] ?? 'Error'));

/** The RFC 9457 problem body of an error. */
export function problemBody(
  status: number,
  code: ErrorCode,
  detail: string,
  errors?: FieldError[],
  extra?: Record<string, unknown>,
): ProblemDetails {
  return {
    type: problemType(code),
    title: titleOf(status),
    status,
    detail,
    code,
    ...(errors && errors.length ? { errors } : {}),
    ...extra,
  };
}

/** Sends an RFC 9457 problem response. */
export function sendProblem(
  reply: FastifyReply,
  status: number,
  code: ErrorCode,
  detail: string,
  errors?: FieldError[],
  extra?: Record<string, unknown>,
) {
  return sendProblemJson(reply, status, problemBody(status, code, detail, errors, extra));
}

function zodIssues(err: ZodError, prefix: string): FieldError[] {
  return err.issues.map((i) => ({
    path: [prefix, ...i.path.map(String)].filter(Boolean).join('.'),
    message: i.message,
  }));
}

/** Maps a Fastify framework error with a 4xx status to a code. */
function codeForFastifyError(err: FastifyError, status: number): ErrorCode {
  switch (err.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return 'INVALID_JSON';
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
    case 'FST_REQ_FILE_TOO_LARGE':
    case 'FST_FILES_LIMIT':
    case 'FST_PARTS_LIMIT':
      return 'PAYLOAD_TOO_LARGE';
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return 'UNSUPPORTED_MEDIA_TYPE';
  }
  if (err instanceof SyntaxError) return 'INVALID_JSON';
  if (status === 413) return 'PAYLOAD_TOO_LARGE';
  if (status === 415) return 'UNSUPPORTED_MEDIA_TYPE';
  if (status === 404) return 'NOT_FOUND';
  if (status === 405) return 'METHOD_NOT_ALLOWED';
  return 'INVALID_BODY';
}

/** The one error handler: every error becomes problem JSON; nothing a client sends becomes a 5xx. */
export function registerProblemHandlers(app: FastifyInstance) {
  app.setErrorHandler((err: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    // An actor taken on trust (ActorClaim) is confirmed before any answer: credentials that no longer hold get
    // their 401, never what the request would have told the user they claimed to be.
    const claim = request.actorClaim;
    if (claim) {
      return claim.confirm().then(
        () => answerProblem(err, request, reply),
        (authErr: FastifyError) => answerProblem(authErr, request, reply),
      );
    }
    return answerProblem(err, request, reply);
  });
}

/** The problem answer of `err`. */
function answerProblem(err: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (err instanceof AppError) {
    return sendProblem(reply, err.status, err.code, err.detail, err.errors, err.extra);
  }
  if (hasZodFastifySchemaValidationErrors(err)) {
    const where = err.validationContext ?? 'body';
    const errors = err.validation.map((v) => ({
      path: [
        where,
        ...String(v.instancePath ?? '')
          .split('/')
          .filter(Boolean),
      ].join('.'),
      message: v.message ?? 'is invalid',
    }));
    const code: ErrorCode = where === 'body' ? 'INVALID_BODY' : 'INVALID_PARAMETER';
    return sendProblem(reply, 400, code, `The request ${where} is invalid.`, errors);
  }
  if (err instanceof ZodError) {
    return sendProblem(reply, 400, 'INVALID_BODY', 'The request body is invalid.', zodIssues(err, 'body'));
  }
  const status = typeof err.statusCode === 'number' ? err.statusCode : 500;
  if (status >= 400 && status < 500) {
    const code = codeForFastifyError(err, status);
    const detail =
      code === 'INVALID_JSON'
        ? 'The request body is not valid JSON.'
        : code === 'PAYLOAD_TOO_LARGE'
          ? 'The request body is too large.'
          : err.message;
    return sendProblem(reply, status, code, detail);
  }
  if (err instanceof SyntaxError || err instanceof RangeError) {
    // JSON.parse of hostile input (e.g. nesting beyond the stack) surfaces here.
    return sendProblem(reply, 400, 'INVALID_JSON', 'The request body is not valid JSON.');
  }
  if (isConcurrentWriteConflict(err)) {
    // Two requests (on one node or several) wrote the same rows at once and the database refused the later
    // one; nothing of it was written.
    request.log.warn({ err }, 'write refused: it collided with a concurrent change');
    return sendProblem(
      reply,
      409,
      'CONFLICT',
      'Another request changed this at the same moment; nothing was saved. Reload and try again.',
    );
  }
  request.log.error({ err }, 'unhandled error');
  return sendProblem(reply, 500, 'INTERNAL_ERROR', 'Something went wrong on the server. It has been logged.');
}
