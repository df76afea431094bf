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
export function jsonHeaders(body: SerialisedJson): { 'content-type': string; etag: string } {
  return { 'content-type': JSON_TYPE, etag: body.etag };
}

/**
 * jsonHeaders as the flat list `res.writeHead` takes, followed by `more` (name, value, …): for answers written
 * without Fastify (plugins/fast-reads.ts). A list, not an object spread per answer: that took V8's slow way of
 * defining properties, and Node's header loop then walked a dictionary-mode object (bench/README.md).
 */
export function jsonHeaderList(body: SerialisedJson, more: readonly string[]): string[] {
  return ['content-type', JSON_TYPE, 'etag', body.etag].concat(more);
}

/**
 * Sends pre-serialised JSON as is, with its strong ETag (and `status` when given; otherwise the reply's, 200).
 * Fastify sends a string body without serialising it again, so the ETag hashes the bytes on the wire; the test
 * harness checks those bytes against the route's schema. `T` is the type of the route's declared response: the
 * reply must accept it, so naming another resource's type does not compile.
 */
export function sendJson<T>(
  reply: FastifyReply & { send(payload?: T): FastifyReply },
  body: SerialisedJson & { status?: number },
): FastifyReply {
  if (body.status !== undefined) reply.code(body.status);
  // The string is what the handler answers; it is typed as the object it encodes for Fastify's reply type.
  return reply.headers(jsonHeaders(body)).send(body.json as unknown as T);
}
