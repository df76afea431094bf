import type { FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import { CSRF_HEADER } from '../../shared/api/auth.js';
import { andThen } from '../db/prepared.js';
import { AppError, unauthenticated } from '../lib/errors.js';
import type { App } from '../lib/http.js';
import { needsCredentials } from '../lib/service-urls.js';
import type { Actor, ActorClaim } from '../lib/context.js';
import type { AuthService, SessionInfo } from '../modules/auth/auth.service.js';

export const SESSION_COOKIE = 'folio_session';
const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Paths that need credentials: the API and its docs. The SPA's static files and /healthz do not. */
function needsAuth(request: FastifyRequest): boolean {
  // The URL first: `routeOptions` builds an object at every read.
  return needsCredentials(request.url) && !request.routeOptions.config?.public;
}

/**
 * Authenticates every request that needs it: HTTP Basic, or the session cookie. Unsafe methods on a cookie
 * session need the session's CSRF token in `X-CSRF-Token` (the SPA reads it from login or /auth/me).
 */
export function registerAuthentication(
  app: App,
  auth: AuthService,
  /**
   * Whether reading the change generation costs a query (PostgreSQL). Then an unsafe request with Basic
   * credentials does not read it: it bumps the generation anyway, so a remembered credential would never match,
   * and the user row is read at once instead (one round trip, not two).
   */
  opts: {
    generationCostsAQuery: boolean;
    /** Whether the response cache looks GETs of `config.cache` routes up (it reads the generation for that). */
    responseCacheOn: boolean;
  },
) {
  app.decorateRequest('actor', null);
  app.decorateRequest('session', null);
  app.decorateRequest('actorClaim', null);

  /** Takes a live session as the request's actor (after the CSRF check of an unsafe method). */
  function useSession(request: FastifyRequest, sid: string, session: SessionInfo) {
    if (UNSAFE.has(request.method) && !auth.csrfMatches(session.csrfToken, headerValue(request, CSRF_HEADER))) {
      throw new AppError(403, 'CSRF_TOKEN_INVALID', 'Missing or wrong X-CSRF-Token header for this session.');
    }
    request.actor = { username: session.username, role: session.role };
    request.session = { id: sid, csrfToken: session.csrfToken };
  }

  /**
   * Whether the request may take its caller on trust (ActorClaim), on a route that proves the caller in its own
   * statement (`config.provesActor`): a write on either database (its statement proves the caller instead of a
   * read of the user or session row before it; on SQLite every commit moves the generation, so the next write
   * would read that row again); a read on PostgreSQL, where checking costs a round trip, unless the response cache
   * reads the generation for it anyway (then remembered credentials cost nothing more).
   */
  function claimsActor(request: FastifyRequest): boolean {
    const config = request.routeOptions.config;
    if (config?.provesActor !== true) return false;
    if (UNSAFE.has(request.method)) return true;
    return opts.generationCostsAQuery && !(opts.responseCacheOn && config.cache === true);
  }

  /**
   * The session cookie, when the request has no Authorization header: now when the service answers now (a session
   * remembered under the generation, or on SQLite its row read now), else by promise. Unsafe methods do not read
   * the generation: they bump it anyway (on PostgreSQL the read would cost them a round trip for nothing).
   */
  function authenticateSession(request: FastifyRequest, reply: FastifyReply): void | Promise<void> {
    const sid = request.cookies[SESSION_COOKIE];
    if (!sid) {
      // Browsers would show their own sign-in dialog for a Basic challenge; the SPA marks its calls to avoid that.
      if (request.headers['x-requested-with'] !== 'XMLHttpRequest') {
        void reply.header('www-authenticate', 'Basic realm="Folio", charset="UTF-8"');
      }
      throw unauthenticated();
    }
    const generation = UNSAFE.has(request.method) ? undefined : request.changeGeneration();
    return andThen(
      andThen(generation, (g) => auth.session(sid, g)),
      (session) => {
        if (session) return useSession(request, sid, session);
        void reply.clearCookie(SESSION_COOKIE, { path: '/' });
        throw unauthenticated('Your session has ended. Sign in again.');
      },
    );
  }

  // Callback-style: a request that needs no credentials, or brings Basic credentials already verified, costs no
  // promise tick.
  const onRequest: onRequestHookHandler = function (request, reply, done) {
    if (!needsAuth(request)) return done();
    const header = request.headers.authorization;
    if (!header) {
      // A session resolved under the current generation: no query and, on SQLite, no promise (as for Basic).
      const sid = request.cookies[SESSION_COOKIE];
      if (sid && claimsActor(request)) {
        // On PostgreSQL, a route that proves the session in its own statement takes a remembered one on trust.
        const claimed = auth.sessionClaim(sid);
        if (claimed) {
          try {
            useSession(request, sid, claimed.session);
          } catch (err) {
            return done(err as Error);
          }
          claim(request, request.actor!, claimed.proof, async () => {
            request.session = null;
            await authenticateSession(request, reply);
            return request.actor!;
          });
          return done();
        }
      }
      try {
        const settled = authenticateSession(request, reply);
        if (settled instanceof Promise) return void settled.then(() => done(), done);
      } catch (err) {
        return done(err as Error);
      }
      return done();
    }
    // A route that proves the credential in its own statement takes a remembered one on trust (ActorClaim).
    const claimed = claimsActor(request) ? auth.basicClaim(header) : null;
    if (claimed) {
      claim(request, claimed.actor, claimed.proof, async () => {
        const checkedUnder = UNSAFE.has(request.method) ? undefined : await request.changeGeneration();
        return useBasic(await auth.basic(header, request.ip, checkedUnder));
      });
      return done();
    }
    // On PostgreSQL an unsafe request does not read the generation (see opts): the user row is read at once.
    const generation =
      opts.generationCostsAQuery && UNSAFE.has(request.method) ? undefined : request.changeGeneration();
    // Credentials verified under the current generation (or on SQLite rechecked against the user row read now)
    // answer now: a cache hit runs its whole onRequest chain synchronously.
    try {
      const actor = andThen(generation, (g) => auth.basic(header, request.ip, g));
      if (!(actor instanceof Promise)) request.actor = useBasic(actor);
      else return void actor.then((a) => void (request.actor = useBasic(a))).then(() => done(), done);
    } catch (err) {
      return done(err as Error);
    }
    done();
  };
  app.addHook('onRequest', onRequest);
}

/** The actor Basic credentials proved; 401 when the Authorization header is not Basic. */
function useBasic(actor: Actor | null): Actor {
  if (!actor) throw unauthenticated('Only HTTP Basic credentials are accepted in Authorization.');
  return actor;
}

/**
 * Takes `actor` on trust for the request (ActorClaim): its write carries `proof`, or `authenticate` runs first
 * (once, however many ask; the actor is unset while it runs, so a failure leaves the request unauthenticated).
 */
function claim(request: FastifyRequest, actor: Actor, proof: ActorClaim['proof'], authenticate: () => Promise<Actor>) {
  request.actor = actor;
  let confirmed: Promise<Actor> | undefined;
  request.actorClaim = {
    ...actor,
    proof,
    proven: () => {
      request.actorClaim = null;
    },
    confirm: () =>
      (confirmed ??= (async () => {
        request.actorClaim = null;
        request.actor = null;
        return (request.actor = await authenticate());
      })()),
  };
}

function headerValue(request: FastifyRequest, name: string): string | undefined {
  const v = request.headers[name];
  return Array.isArray(v) ? v[0] : v;
}
