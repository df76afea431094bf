import type { FastifyReply } from 'fastify';
import { etagOf } from './etag.js';

/** The content type of every JSON answer, and of every problem answer. */
export const JSON_TYPE = 'application/json; charset=utf-8';
export const PROBLEM_TYPE = 'application/problem+json; charset=utf-8';

/** JSON as it goes on the wire and the strong ETag of exactly those bytes. */
export interface SerialisedJson {
  json: string;
  etag: string;
}

/** JSON already composed (a stored doc spliced in), with the ETag of exactly those bytes. */
export function withEtag(json: string): SerialisedJson {
  return { json, etag: etagOf(json) };
}

/** `value` serialised once, with the ETag of that serialisation. */
export function serialise(value: unknown): SerialisedJson {
  return withEtag(JSON.stringify(value));
}

/** A reply whose route declares `T` as its response: naming another resource's type does not compile. */
type ReplyOf<T> = FastifyReply & { send(payload?: T): FastifyReply };

/**
 * The one way a JSON answer leaves a route: sets the status (when given; otherwise the reply's, 200), the content
 * type and the strong ETag, and gives the body for the handler to return. `body` is a representation serialised
 * already (`serialise`, `withEtag`, a stored doc with its stored ETag: what GET answers and If-Match names), or a
 * result to serialise (`{ value }`): its ETag is of its bytes on a GET or HEAD, and a write's result that is not the
 * item's representation (a message, a moved item's summary) gets none. Fastify sends a returned string as it is,
 * so the ETag is of the bytes on the wire and a response-cache hit replays those bytes and headers. In tests an
 * API route that answers any other way fails (app.ts), and the harness checks each body against its schema and
 * each GET's ETag against its bytes. The body is returned, not the reply: an async handler whose promise resolves
 * to the reply (a thenable) makes that promise wait for the response to end (`reply.then`).
 */
export function answerJson<T>(reply: ReplyOf<T>, body: SerialisedJson | { value: T }, status?: number): T {
  let json: string;
  let etag: string | undefined;
  if ('value' in body) {
    json = JSON.stringify(body.value);
    const method = reply.request.method;
    if (method === 'GET' || method === 'HEAD') etag = etagOf(json);
  } else {
    ({ json, etag } = body);
  }
  if (status !== undefined) reply.code(status);
  reply.header('content-type', JSON_TYPE);
  if (etag !== undefined) reply.header('etag', etag);
  // The string is what the handler answers; it is typed as the object it encodes for Fastify's reply type.
  return json as unknown as T;
}

/** A problem answer (no ETag: it is no representation of the resource). Returns the reply, sent. */
export function sendProblemJson(reply: FastifyReply, status: number, body: object): FastifyReply {
  return reply.code(status).header('content-type', PROBLEM_TYPE).send(JSON.stringify(body));
}
