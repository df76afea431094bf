import type {
  FastifyBaseLogger,
  FastifyInstance,
  FastifyRequest,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { ProblemDetails } from '../../shared/api/errors.js';
import type { Actor, ActorClaim, WriteScope } from './context.js';
import type { Preconditions } from './etag.js';
import type { SerialisedJson } from './respond.js';
import { unauthenticated } from './errors.js';

/** The Fastify instance with zod schemas as its type provider. */
export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated user, or null before authentication / on public routes. */
    actor: Actor | null;
    /** The cookie session behind the request, when it came with one. */
    session: { id: string; csrfToken: string } | null;
    /**
     * Set while `actor` is taken on trust (ActorClaim, routes with `config.provesActor` on PostgreSQL): cleared
     * once the claim is confirmed or proven by the write.
     */
    actorClaim: ActorClaim | null;
  }
  interface FastifyContextConfig {
    /** Reachable without credentials. */
    public?: boolean;
    /**
     * GET/HEAD answers may be served from the response cache (plugins/response-cache.ts). Only for routes whose
     * 200 answer depends on the URL, the caller's role and stored data alone.
     */
    cache?: boolean;
    /**
     * A route whose handler proves a remembered Basic credential or session inside its own statement (ActorClaim),
     * so that on PostgreSQL the request does not read the user row, the session or the change generation first
     * (for a GET only while the response cache is off: a cache lookup reads the generation anyway). The handler
     * passes the claim to a service that proves it (`claim.proven()`) or confirms it before answering; a 2xx with
     * the claim still open fails in tests (plugins/claim-check.ts).
     */
    provesActor?: boolean;
    /**
     * `false` for an unsafe route that changes no content (signing in only touches sessions): the change
     * generation is not bumped after it (lib/change-generation.ts).
     */
    changesContent?: false;
    /**
     * The JSON schema of a multipart/form-data body, for the OpenAPI document only (the handler reads the parts
     * as a stream; nothing validates `request.body` against it).
     */
    multipartBody?: Record<string, unknown>;
    /**
     * OpenAPI response objects for the document only, over those the route's schema gives (by status): what zod
     * cannot say, such as a file download's own media types and its headers.
     */
    openApiResponses?: Record<string, Record<string, unknown>>;
  }
}

/**
 * The one read of a by-path item (a service's `get`): answered now when it could read synchronously, else a
 * promise; a claimed caller is proven or confirmed by it. It may throw an AppError (403, 404).
 */
export type ByPathRead = (
  actor: Actor,
  segments: readonly string[],
  claim?: ActorClaim,
) => SerialisedJson | Promise<SerialisedJson>;

/** The authenticated user of a request (the auth hook guarantees one on non-public routes). */
export function actorOf(request: FastifyRequest): Actor {
  if (!request.actor) throw unauthenticated();
  return request.actor;
}

/** A by-path write (a service's `put`): the caller, the path, the body, the preconditions and the WriteScope. */
export type ByPathWrite<B, R> = (
  actor: Actor,
  segments: readonly string[],
  body: B,
  pre: Preconditions,
  scope: WriteScope,
) => Promise<R>;

/**
 * The WriteScope of a request, derived here for every write that takes one: its ActorClaim (routes with
 * `config.provesActor`) and where its statement says it bumped the change generation.
 */
export function writeScopeOf(request: FastifyRequest): WriteScope {
  return {
    claim: request.actorClaim ?? undefined,
    bumpedInStatement: () => request.changeGenerationBumpedInStatement(),
  };
}

/**
 * Problem responses for a route's schema, for the OpenAPI document: 400, 401 and 429 (too many failed sign-ins
 * of the credentials sent) on every route, and `statuses`.
 */
export function problems(...statuses: number[]): Record<number, z.ZodType> {
  const out: Record<number, z.ZodType> = {};
  for (const s of [400, 401, 429, ...statuses]) out[s] = ProblemDetails.describe(`Problem details (${s})`);
  return out;
}

/** A request header as one string: repeated headers joined with `,` (as HTTP lists are), undefined when absent. */
export function headerOf(request: FastifyRequest, name: string): string | undefined {
  const v = request.headers[name];
  return Array.isArray(v) ? v.join(',') : v;
}

/** The `If-Match` header of a request, or undefined when none was sent. */
export function ifMatchOf(request: FastifyRequest): string | undefined {
  return headerOf(request, 'if-match');
}

/** The `If-Match` and `If-None-Match` headers of a request. */
export function preconditionsOf(request: FastifyRequest): Preconditions {
  return { ifMatch: headerOf(request, 'if-match'), ifNoneMatch: headerOf(request, 'if-none-match') };
}
