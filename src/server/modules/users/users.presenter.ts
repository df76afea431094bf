import type { Role, User } from '../../../shared/api/auth.js';
import type { UserRow } from './users.repository.js';

/** Row → contract JSON. The password hash never leaves the server. */
export function presentUser(row: UserRow): User {
  return { username: row.username, role: row.role as Role, createdAt: row.created_at, updatedAt: row.updated_at };
}
