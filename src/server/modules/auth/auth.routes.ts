import { LoginBody, Me, PasswordChangeBody, SESSION_HINT_COOKIE, type ServerLimits } from '../../../shared/api/auth.js';
import { Message } from '../../../shared/api/common.js';
import type { Config } from '../../config.js';
import { AppError } from '../../lib/errors.js';
import { actorOf, problems, type App } from '../../lib/http.js';
import { answerJson } from '../../lib/respond.js';
import { SESSION_COOKIE } from '../../plugins/authenticate.js';
import type { AuthService } from './auth.service.js';

/** The limits a client checks before sending. */
const limitsOf = (config: Config): ServerLimits => ({ maxUploadBytes: config.maxUploadBytes });

/**
 * POST /auth/login, POST /auth/logout, GET /auth/me, POST /auth/password. `onSignOut` runs after a session ends
 * with its user's name (their check-out leases end: modules/leases).
 */
export function registerAuthRoutes(
  app: App,
  auth: AuthService,
  config: Config,
  onSignOut: (username: string) => Promise<unknown>,
  /** Where the change log stands now (modules/events). */
  eventsPosition: () => Promise<number>,
) {
  app.post(
    '/cms/rest/auth/login',
    {
      config: { public: true, changesContent: false },
      schema: {
        tags: ['auth'],
        summary: 'Sign in; sets the HttpOnly session cookie and answers the user with its CSRF token',
        description:
          'Checks the username and password (rate-limited per user and address: 429 TOO_MANY_ATTEMPTS after ' +
          'repeated failures) and opens a server-side session, held by the HttpOnly, SameSite=Lax ' +
          '`folio_session` cookie. Send the answered `csrfToken` as `X-CSRF-Token` on every POST, PUT and ' +
          'DELETE of the session. A cross-origin sign-in is refused (403). Needs no credentials; API clients ' +
          'may send HTTP Basic on each request instead.',
        security: [],
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
      return answerJson<Me>(reply, {
        value: { ...user, limits: limitsOf(config), eventsAfter: await eventsPosition() },
      });
    },
  );

  app.post(
    '/cms/rest/auth/logout',
    {
      schema: {
        tags: ['auth'],
        summary: 'Sign out: ends the session on the server and clears the cookie',
        description:
          "Ends the session of the cookie sent, on every node, and clears the session cookies; the user's " +
          'check-out leases and presence end with it (others may edit what they held at once). Over HTTP Basic ' +
          'there is no session: it only answers.',
        response: { 200: Message, ...problems(403) },
      },
    },
    async (request, reply) => {
      if (request.session) {
        await auth.logout(request.session.id);
        await onSignOut(actorOf(request).username);
      }
      void reply.clearCookie(SESSION_COOKIE, { path: '/' });
      void reply.clearCookie(SESSION_HINT_COOKIE, { path: '/' });
      return answerJson<Message>(reply, { value: { message: 'Signed out' } });
    },
  );

  app.post(
    '/cms/rest/auth/password',
    {
      schema: {
        tags: ['auth'],
        summary: 'Change your own password (the current one is asked)',
        description:
          'Your other sessions end; the one that asks stays (over HTTP Basic, every session ends). A wrong ' +
          '`currentPassword` is a 400 on `body.currentPassword` and counts toward the sign-in rate limit (429 ' +
          'TOO_MANY_ATTEMPTS past it).',
        body: PasswordChangeBody,
        response: { 200: Message, ...problems(403, 429) },
      },
    },
    async (request, reply) => {
      await auth.changePassword(actorOf(request), request.body, request.ip, request.session?.id);
      return answerJson<Message>(reply, { value: { message: 'Password changed' } });
    },
  );

  app.get(
    '/cms/rest/auth/me',
    {
      schema: {
        tags: ['auth'],
        summary: 'The signed-in user',
        description:
          'Who the credentials sent prove to be (HTTP Basic or the session cookie) and their role; for a ' +
          "session also its CSRF token, the server's limits a client checks before sending (the largest " +
          'upload), and `eventsAfter`: where the change log stands, to open the event stream from.',
        response: { 200: Me, ...problems() },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const session = request.session ? { csrfToken: request.session.csrfToken } : {};
      return answerJson<Me>(reply, {
        value: { ...actor, ...session, limits: limitsOf(config), eventsAfter: await eventsPosition() },
      });
    },
  );
}
