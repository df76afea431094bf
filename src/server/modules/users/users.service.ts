import type { UserPutBody } from '../../../shared/api/auth.js';
import { isUniqueViolation } from '../../db/dialect.js';
import { badRequest, conflict, forbidden, notFound } from '../../lib/errors.js';
import { isoTime, type Actor, type AppContext } from '../../lib/context.js';
import { assertIfMatch, assertPreconditions, lostCreateRace, type Preconditions } from '../../lib/etag.js';
import { hashPassword } from '../../lib/passwords.js';
import { serialise } from '../../lib/respond.js';
import { endSessionsOf } from '../auth/session-records.js';
import { presentUser } from './users.presenter.js';
import { usersRepository as repo, type UserRow } from './users.repository.js';

/** A user's JSON as GET /users/<name> sends it, and the strong ETag of those bytes. */
const represent = (row: UserRow) => serialise(presentUser(row));
const userEtag = (row: UserRow) => represent(row).etag;

/** What user management needs of sign-in: proof of one's own current password (auth.service). */
export interface CurrentPasswordProof {
  /** Resolves when `currentPassword` is `username`'s; a 400 on `body.currentPassword` (or a 429) otherwise. */
  proveCurrentPassword(username: string, currentPassword: string, address: string): Promise<void>;
}

/**
 * User management: admins only. Sessions of a user end when their password or role changes or they go. A change
 * of one's own password needs the current one, as POST /auth/password does (a signed-in session is no proof).
 */
export function createUsersService(ctx: AppContext, proof: CurrentPasswordProof) {
  const requireAdmin = (actor: Actor) => {
    if (actor.role !== 'Admin') throw forbidden('Only admins manage users.');
  };

  return {
    async list(actor: Actor) {
      requireAdmin(actor);
      return (await repo.list(ctx.db)).map(presentUser);
    },

    async get(actor: Actor, username: string) {
      requireAdmin(actor);
      const row = await repo.find(ctx.db, username);
      if (!row) throw notFound('USER_NOT_FOUND', `No user "${username}".`);
      return represent(row);
    },

    /**
     * Creates or updates; answers the user, its ETag and whether it was created (`address`: the caller's, for the
     * rate limit of a wrong current password). `If-Match` must name the user's
     * current ETag (or `*` for any existing user; a missing user never matches); `If-None-Match: *` only creates.
     */
    async put(actor: Actor, username: string, body: UserPutBody, pre: Preconditions = {}, address = '') {
      requireAdmin(actor);
      if (body.password !== undefined && username === actor.username) {
        if (body.currentPassword === undefined) {
          throw badRequest('Changing your own password needs your current password; nothing was changed.', [
            { path: 'body.currentPassword', message: 'is required to change your own password' },
          ]);
        }
        await proof.proveCurrentPassword(username, body.currentPassword, address);
      }
      const passwordHash = body.password ? await hashPassword(body.password) : undefined;
      return ctx.db.transaction().execute(async (trx) => {
        const existing = await repo.find(trx, username, { forUpdate: true });
        assertPreconditions(pre, existing ? userEtag(existing) : null, `User "${username}"`);
        const now = isoTime(ctx.now());
        if (!existing) {
          if (!passwordHash) {
            throw badRequest('A new user needs a password.', [{ path: 'body.password', message: 'is required' }]);
          }
          try {
            await repo.insert(trx, {
              username,
              role: body.role,
              password_hash: passwordHash,
              created_at: now,
              updated_at: now,
            });
          } catch (err) {
            if (isUniqueViolation(err)) {
              const taken = conflict('NAME_TAKEN', `User "${username}" already exists.`);
              throw lostCreateRace(pre, `User "${username}"`, taken);
            }
            throw err;
          }
          return { ...represent((await repo.find(trx, username))!), created: true };
        }
        if (existing.role === 'Admin' && body.role !== 'Admin' && (await repo.countAdmins(trx)) <= 1) {
          throw conflict('CONFLICT', 'The last admin cannot lose the Admin role.');
        }
        await repo.update(trx, username, {
          role: body.role,
          ...(passwordHash ? { password_hash: passwordHash } : {}),
          updated_at: now,
        });
        if (passwordHash || existing.role !== body.role) {
          await endSessionsOf(trx, username);
        }
        return { ...represent((await repo.find(trx, username))!), created: false };
      });
    },

    /** Deletes a user; `ifMatch` as for put (a stale ETag → 412 and nothing changes). */
    async remove(actor: Actor, username: string, ifMatch?: string) {
      requireAdmin(actor);
      await ctx.db.transaction().execute(async (trx) => {
        const existing = await repo.find(trx, username, { forUpdate: true });
        if (!existing) throw notFound('USER_NOT_FOUND', `No user "${username}".`);
        assertIfMatch(ifMatch, userEtag(existing));
        if (username === actor.username) throw conflict('CONFLICT', 'You cannot delete yourself.');
        if (existing.role === 'Admin' && (await repo.countAdmins(trx)) <= 1) {
          throw conflict('CONFLICT', 'The last admin cannot be deleted.');
        }
        await repo.delete(trx, username);
      });
    },
  };
}
export type UsersService = ReturnType<typeof createUsersService>;
