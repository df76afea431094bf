import { LoginBody, Me } from '../../../shared/api/auth.js';
import { Message } from '../../../shared/api/common.js';
import type { Config } from '../../config.js';
import { AppError } from '../../lib/errors.js';
import { actorOf, problems, type App } from '../../lib/http.js';
import { SESSION_COOKIE } from '../../plugins/authenticate.js';
import type { AuthService } from './auth.service.js';

/** POST /auth/login, POST /auth/logout, GET /auth/me. */
export function registerAuthRoutes(app: App, auth: AuthService, config: Config) {
  app.post(
    '/cms/rest/auth/login',
    {
      config: { public: true },
      schema: {
        tags: ['auth'],
        summary: 'Sign in; sets the HttpOnly session cookie and answers the user with its CSRF token',
        body: LoginBody,
        response: { 200: Me, ...problems(403, 429) },
      },
    },
    async (request, reply) => {
      // Login CSRF: a cross-site form must not sign the browser in as someone else.
      const origin = request.headers.origin;
      if (origin && new URL(origin).host !== request.headers.host) {
        throw new AppError(403, 'NOT_AUTHORIZED', 'Cross-origin sign-in is not allowed.');
      }
      const { sessionId, user } = await auth.login(request.body.username, request.body.password, request.ip);
      void reply.setCookie(SESSION_COOKIE, sessionId, {
        path: '/',
        httpOnly: true,
        sameSite: 'lax',
        secure: config.cookieSecure,
        maxAge: Math.floor(config.sessionAbsoluteMs / 1000),
      });
      return user;
    },
  );

  app.post(
    '/cms/rest/auth/logout',
    {
      schema: {
        tags: ['auth'],
        summary: 'Sign out: ends the session on the server and clears the cookie',
        response: { 200: Message, ...problems(403) },
      },
    },
    async (request, reply) => {
      if (request.session) await auth.logout(request.session.id);
      void reply.clearCookie(SESSION_COOKIE, { path: '/' });
      return { message: 'Signed out' };
    },
  );

  app.get(
    '/cms/rest/auth/me',
    {
      schema: { tags: ['auth'], summary: 'The signed-in user', response: { 200: Me, ...problems() } },
    },
    async (request) => {
      const actor = actorOf(request);
      return { ...actor, ...(request.session ? { csrfToken: request.session.csrfToken } : {}) };
    },
  );
}
