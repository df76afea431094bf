import type { FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import { CSRF_HEADER } from '../../shared/api/auth.js';
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

  /** The session cookie, when the request has no Authorization header (and no remembered session). */
  async function authenticateSession(request: FastifyRequest, reply: FastifyReply) {
    const sid = request.cookies[SESSION_COOKIE];
    if (sid) {
      // Remembered under the generation read before the row; not for unsafe methods, which bump it anyway (on
      // PostgreSQL the read would cost them a round trip for nothing).
      const generation = UNSAFE.has(request.method) ? undefined : await request.changeGeneration();
      // On PostgreSQL the generation comes from a (shared) query: a remembered session still saves its own.
      const session =
        (generation !== undefined && auth.rememberedSession(sid, generation)) ||
        (await auth.resolveSession(sid, generation));
      if (session) return useSession(request, sid, session);
      void reply.clearCookie(SESSION_COOKIE, { path: '/' });
      throw unauthenticated('Your session has ended. Sign in again.');
    }
    // Browsers would show their own sign-in dialog for a Basic challenge; the SPA marks its calls to avoid that.
    if (request.headers['x-requested-with'] !== 'XMLHttpRequest') {
      void reply.header('www-authenticate', 'Basic realm="Folio", charset="UTF-8"');
    }
    throw unauthenticated();
  }

  // Callback-style: a request that needs no credentials, or brings Basic credentials already verified, costs no
  // promise tick.
  const onRequest: onRequestHookHandler = function (request, reply, done) {
    if (!needsAuth(request)) return done();
    const header = request.headers.authorization;
    if (!header) {
      // A session resolved under the current generation: no query and, on SQLite, no promise (as for Basic).
      const sid = request.cookies[SESSION_COOKIE];
      const unsafe = UNSAFE.has(request.method);
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
      const generation = sid && !unsafe ? request.changeGeneration() : null;
      let remembered: SessionInfo | null | undefined = null;
      // On SQLite the session row is read now when it is not remembered (every commit moves the generation); an
      // unsafe request, which bumps the generation anyway, is never answered from memory.
      if (sid && typeof generation === 'string') {
        remembered = auth.sessionNow(sid, generation);
      } else if (sid && unsafe) {
        remembered = auth.resolveSessionNow(sid, undefined);
      }
      if (remembered) {
        try {
          useSession(request, sid!, remembered);
        } catch (err) {
          return done(err as Error);
        }
        return done();
      }
      authenticateSession(request, reply).then(() => done(), done);
      return;
    }
    const useBasic = (actor: Promise<Actor | null>) =>
      actor.then((a) => {
        if (!a) return done(unauthenticated('Only HTTP Basic credentials are accepted in Authorization.'));
        request.actor = a;
        done();
      }, done);
    // A route that proves the credential in its own statement takes a remembered one on trust (ActorClaim).
    const claimed = claimsActor(request) ? auth.basicClaim(header) : null;
    if (claimed) {
      claim(request, claimed.actor, claimed.proof, async () => {
        const checkedUnder = UNSAFE.has(request.method) ? undefined : await request.changeGeneration();
        const actor = await auth.resolveBasic(header, request.ip, checkedUnder);
        if (!actor) throw unauthenticated('Only HTTP Basic credentials are accepted in Authorization.');
        return actor;
      });
      return done();
    }
    if (opts.generationCostsAQuery && UNSAFE.has(request.method)) {
      void useBasic(auth.resolveBasic(header, request.ip, undefined));
      return;
    }
    const generation = request.changeGeneration();
    // Credentials verified under the current generation: no promise at all (the generation is a plain value on
    // SQLite), so a cache hit runs its whole onRequest chain synchronously.
    // On SQLite a credential remembered under an older generation is checked against the user row read now.
    const remembered = typeof generation === 'string' ? auth.basicNow(header, generation) : null;
    if (remembered) {
      request.actor = remembered;
      return done();
    }
    void useBasic(
      typeof generation === 'string'
        ? auth.resolveBasic(header, request.ip, generation)
        : generation.then((g) => auth.resolveBasic(header, request.ip, g)),
    );
  };
  app.addHook('onRequest', onRequest);
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
