import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { authRepository as repo } from './auth.repository.js';

// What user management needs of sessions (used by the users module), so users never reaches into auth's SQL.

/** Ends every session of `username` (their password or role changed). */
export function endSessionsOf(db: Kysely<DB>, username: string): Promise<unknown> {
  return repo.deleteSessionsOf(db, username);
}
