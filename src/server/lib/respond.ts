import type { FastifyReply } from 'fastify';
import { etagOf } from './etag.js';

/** The content type of JSON sent pre-serialised. */
const JSON_TYPE = 'application/json; charset=utf-8';

/** JSON as it goes on the wire and the strong ETag of exactly those bytes. */
export interface SerialisedJson {
  json: string;
  etag: string;
}

/** `value` serialised once, with the ETag of that serialisation. */
export function serialise(value: unknown): SerialisedJson {
  const json = JSON.stringify(value);
  return { json, etag: etagOf(json) };
}

/** The headers of pre-serialised JSON sent as it is: its content type and strong ETag. */
function jsonHeaders(body: SerialisedJson): { 'content-type': string; etag: string } {
  return { 'content-type': JSON_TYPE, etag: body.etag };
}

/**
 * Pre-serialised JSON as a route handler answers it: sets the reply's status (when given; otherwise the reply's,
 * 200) and headers, and gives the body for the handler to return. Fastify sends a returned string without
 * serialising it again, so the ETag hashes the bytes on the wire; the test harness checks those bytes against the
 * route's schema. The body is returned, not the reply: an async handler whose promise resolves to the reply (a
 * thenable) makes that promise wait for the response to end, with stream listeners of its own (`reply.then`).
 * `T` is the type of the route's declared response: the reply must accept it, so naming another resource's type
 * does not compile.
 */
export function answerJson<T>(
  reply: FastifyReply & { send(payload?: T): FastifyReply },
  body: SerialisedJson & { status?: number },
): T {
  if (body.status !== undefined) reply.code(body.status);
  reply.headers(jsonHeaders(body));
  // The string is what the handler answers; it is typed as the object it encodes for Fastify's reply type.
  return body.json as unknown as T;
}
