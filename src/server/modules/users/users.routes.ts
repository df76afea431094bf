import { z } from 'zod';
import { User, UserPutBody, Username } from '../../../shared/api/auth.js';
import { DeletedMessage } from '../../../shared/api/common.js';
import { actorOf, type App, ifMatchOf, preconditionsOf, problems } from '../../lib/http.js';
import { answerJson } from '../../lib/respond.js';
import type { UsersService } from './users.service.js';

const Params = z.object({ name: Username });

/** Admin-only user management. */
export function registerUsersRoutes(app: App, users: UsersService) {
  app.get(
    '/cms/rest/users',
    {
      schema: {
        tags: ['users'],
        summary: 'List users (admins)',
        description:
          'Every user with their role and when they were created and last changed, by name. Admins only (403 ' +
          'NOT_AUTHORIZED for the other roles).',
        response: { 200: z.array(User), ...problems(403) },
      },
    },
    async (request, reply) => answerJson<User[]>(reply, { value: await users.list(actorOf(request)) }),
  );

  app.get(
    '/cms/rest/users/:name',
    {
      schema: {
        tags: ['users'],
        summary: 'Get a user (admins; strong ETag)',
        description:
          'One user; the `ETag` answered is what PUT and DELETE take as `If-Match`. Admins only; 404 ' +
          'USER_NOT_FOUND when there is no such user.',
        params: Params,
        response: { 200: User, ...problems(403, 404) },
      },
    },
    async (request, reply) => {
      return answerJson<User>(reply, await users.get(actorOf(request), request.params.name));
    },
  );

  app.put(
    '/cms/rest/users/:name',
    {
      schema: {
        tags: ['users'],
        summary: 'Create a user (password required) or change its role and/or password (admins; If-Match honoured)',
        description:
          'Admins only. A new user needs `password`; an existing one keeps its password unless one is sent. A ' +
          "new role or password ends that user's sessions. Changing your own password needs `currentPassword` " +
          'too, as POST /cms/rest/auth/password does (400 on `body.currentPassword` when it is missing or ' +
          'wrong; wrong ones count toward the sign-in rate limit). The last admin cannot lose the Admin role ' +
          '(409). `If-Match` must name the current ETag and `If-None-Match: *` only creates (412 otherwise).',
        params: Params,
        body: UserPutBody,
        response: { 200: User, 201: User, ...problems(403, 409, 412) },
      },
    },
    async (request, reply) => {
      const r = await users.put(
        actorOf(request),
        request.params.name,
        request.body,
        preconditionsOf(request),
        request.ip,
      );
      return answerJson<User>(reply, r, r.created ? 201 : 200);
    },
  );

  app.delete(
    '/cms/rest/users/:name',
    {
      schema: {
        tags: ['users'],
        summary: 'Delete a user (admins; If-Match honoured); their sessions end',
        description:
          "Admins only. Nobody can delete themselves or the last admin (409 CONFLICT). The user's sessions end " +
          'at once.',
        params: Params,
        response: { 200: DeletedMessage, ...problems(403, 404, 409, 412) },
      },
    },
    async (request, reply) => {
      await users.remove(actorOf(request), request.params.name, ifMatchOf(request));
      return answerJson<DeletedMessage>(reply, { value: { message: 'Deleted' } });
    },
  );
}
