import { AppError } from '../../lib/errors.js';
import type { AppContext } from '../../lib/context.js';
import { verifyPassword } from '../../lib/passwords.js';
import { findUserCredentials, type UserCredentials } from '../users/user-records.js';
import { authRepository as repo } from './auth.repository.js';

/** Failures allowed per username+address inside the window before sign-in is refused with 429. */
export const MAX_LOGIN_FAILURES = 5;
/** Window and lock-out time of the sign-in rate limit. */
export const LOGIN_FAILURE_WINDOW_MS = 15 * 60_000;

// A valid hash of a random password, checked against for unknown users.
const DUMMY_HASH = 'scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA==$' + Buffer.alloc(64).toString('base64');

/**
 * The one check of a password a person typed (a sign-in, a Basic credential not remembered, the current password
 * before a change of it), under the rate limit of the username at one address.
 */
export function createPasswordCheck(ctx: AppContext) {
  const { db } = ctx;

  async function checkRateLimit(key: string) {
    const row = await repo.findFailures(db, key);
    if (row && row.locked_until > ctx.now()) {
      const retryAfter = Math.ceil((row.locked_until - ctx.now()) / 1000);
      throw new AppError(
        429,
        'TOO_MANY_ATTEMPTS',
        `Too many failed sign-ins. Try again in ${Math.ceil(retryAfter / 60)} minute(s).`,
        undefined,
        { retryAfter },
      );
    }
  }

  /**
   * Counts a failure in one atomic upsert, so concurrent failures on any number of nodes are all counted (a
   * read-then-write would lose some, or collide on the key).
   */
  async function recordFailure(key: string) {
    const now = ctx.now();
    await repo.recordFailure(db, key, {
      now,
      windowMs: LOGIN_FAILURE_WINDOW_MS,
      maxFailures: MAX_LOGIN_FAILURES,
      lockedUntil: now + LOGIN_FAILURE_WINDOW_MS,
    });
  }

  /**
   * The user's credentials when `password` is theirs; undefined when it is not or there is no such user (a
   * failure counted). 429 TOO_MANY_ATTEMPTS while the username is locked out at `address`.
   */
  return async function checkPassword(
    username: string,
    password: string,
    address: string,
  ): Promise<UserCredentials | undefined> {
    const key = `${username}|${address}`;
    await checkRateLimit(key);
    const user = await findUserCredentials(db, username);
    // Hash even for unknown users, so timing does not tell which usernames exist.
    const ok = await verifyPassword(password, user?.password_hash ?? DUMMY_HASH);
    if (!user || !ok) {
      await recordFailure(key);
      return undefined;
    }
    await repo.clearFailures(db, key);
    return user;
  };
}
