import type { Kysely } from 'kysely';
import type { Role } from '../../../shared/api/auth.js';
import type { Answer, Later, LookupMode } from '../../db/prepared.js';
import type { DB } from '../../db/schema.js';
import { usersRepository as repo, type UserRow } from './users.repository.js';

// What sign-in needs of the users table (used by the auth module), so auth never reaches into users' SQL.

/** What a password check reads of a user. */
export type UserCredentials = Pick<UserRow, 'username' | 'role' | 'password_hash'>;

/** The name, role and password hash of `username`, or undefined when there is no such user. */
export function findUserCredentials<M extends LookupMode = Later>(
  db: Kysely<DB>,
  username: string,
  mode?: M,
): Answer<M, UserCredentials | undefined> {
  return repo.find(db, username, mode);
}

/** Whether any user exists (the first start creates `admin` when none does). */
export async function hasUsers(db: Kysely<DB>): Promise<boolean> {
  return (await repo.count(db)) > 0;
}

/** Inserts a user row; a taken name fails with the database's unique violation. `at` is an ISO timestamp. */
export function insertUserRecord(
  db: Kysely<DB>,
  user: { username: string; role: Role; passwordHash: string; at: string },
): Promise<unknown> {
  return repo.insert(db, {
    username: user.username,
    role: user.role,
    password_hash: user.passwordHash,
    created_at: user.at,
    updated_at: user.at,
  });
}

/** Stores a new password hash for `username`. `at` is an ISO timestamp. */
export function setPasswordHash(db: Kysely<DB>, username: string, passwordHash: string, at: string): Promise<unknown> {
  return repo.update(db, username, { password_hash: passwordHash, updated_at: at });
}
