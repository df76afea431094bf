import type { FastifyRequest } from 'fastify';
import { CSRF_HEADER } from '../../shared/api/auth.js';
import { AppError, unauthenticated } from '../lib/errors.js';
import type { App } from '../lib/http.js';
import type { AuthService } from '../modules/auth/auth.service.js';

export const SESSION_COOKIE = 'folio_session';
const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Paths that need credentials: the API and its docs. The SPA's static files and /healthz do not. */
function needsAuth(request: FastifyRequest): boolean {
  if (request.routeOptions.config?.public) return false;
  const url = request.url;
  return url.startsWith('/cms/') || url === '/cms' || url.startsWith('/docs');
}

/**
 * Authenticates every request that needs it: HTTP Basic, or the session cookie. Unsafe methods on a cookie
 * session need the session's CSRF token in `X-CSRF-Token` (the SPA reads it from login or /auth/me).
 */
export function registerAuthentication(app: App, auth: AuthService) {
  app.decorateRequest('actor', null);
  app.decorateRequest('session', null);

  app.addHook('onRequest', async (request, reply) => {
    if (!needsAuth(request)) return;
    const header = request.headers.authorization;
    if (header) {
      const actor = await auth.resolveBasic(header, request.ip, await request.changeGeneration());
      if (!actor) throw unauthenticated('Only HTTP Basic credentials are accepted in Authorization.');
      request.actor = actor;
      return;
    }
    const sid = request.cookies[SESSION_COOKIE];
    if (sid) {
      const session = await auth.resolveSession(sid);
      if (session) {
        if (UNSAFE.has(request.method) && !auth.csrfMatches(session.csrfToken, headerValue(request, CSRF_HEADER))) {
          throw new AppError(403, 'CSRF_TOKEN_INVALID', 'Missing or wrong X-CSRF-Token header for this session.');
        }
        request.actor = { username: session.username, role: session.role };
        request.session = { id: sid, csrfToken: session.csrfToken };
        return;
      }
      void reply.clearCookie(SESSION_COOKIE, { path: '/' });
      throw unauthenticated('Your session has ended. Sign in again.');
    }
    // Browsers would show their own sign-in dialog for a Basic challenge; the SPA marks its calls to avoid that.
    if (request.headers['x-requested-with'] !== 'XMLHttpRequest') {
      void reply.header('www-authenticate', 'Basic realm="Folio", charset="UTF-8"');
    }
    throw unauthenticated();
  });
}

function headerValue(request: FastifyRequest, name: string): string | undefined {
  const v = request.headers[name];
  return Array.isArray(v) ? v[0] : v;
}
