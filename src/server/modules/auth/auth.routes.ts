import { LoginBody, Me, PasswordChangeBody, SESSION_HINT_COOKIE, type ServerLimits } from '../../../shared/api/auth.js';
import { Message } from '../../../shared/api/common.js';
import type { Config } from '../../config.js';
import { AppError } from '../../lib/errors.js';
import { actorOf, problems, type App } from '../../lib/http.js';
import { SESSION_COOKIE } from '../../plugins/authenticate.js';
import type { AuthService } from './auth.service.js';

/** The limits a client checks before sending. */
const limitsOf = (config: Config): ServerLimits => ({ maxUploadBytes: config.maxUploadBytes });

/** POST /auth/login, POST /auth/logout, GET /auth/me, POST /auth/password. */
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
      const cookie = {
        path: '/',
        sameSite: 'lax' as const,
        secure: config.cookieSecure,
        maxAge: Math.floor(config.sessionAbsoluteMs / 1000),
      };
      void reply.setCookie(SESSION_COOKIE, sessionId, { ...cookie, httpOnly: true });
      // Readable by the SPA, no secret: "a session may exist, ask /auth/me" (see SESSION_HINT_COOKIE).
      void reply.setCookie(SESSION_HINT_COOKIE, '1', { ...cookie, httpOnly: false });
      return { ...user, limits: limitsOf(config) };
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
      void reply.clearCookie(SESSION_HINT_COOKIE, { path: '/' });
      return { message: 'Signed out' };
    },
  );

  app.post(
    '/cms/rest/auth/password',
    {
      schema: {
        tags: ['auth'],
        summary:
          'Change your own password (the current one is asked); your other sessions end, this one stays. ' +
          'A wrong current password is a 400 on currentPassword and counts toward the sign-in rate limit.',
        body: PasswordChangeBody,
        response: { 200: Message, ...problems(403, 429) },
      },
    },
    async (request) => {
      await auth.changePassword(actorOf(request), request.body, request.ip, request.session?.id);
      return { message: 'Password changed' };
    },
  );

  app.get(
    '/cms/rest/auth/me',
    {
      schema: { tags: ['auth'], summary: 'The signed-in user', response: { 200: Me, ...problems() } },
    },
    async (request) => {
      const actor = actorOf(request);
      return {
        ...actor,
        ...(request.session ? { csrfToken: request.session.csrfToken } : {}),
        limits: limitsOf(config),
      };
    },
  );
}
