import type { Role } from '../../../shared/api/auth.js';
import type { Actor } from '../../lib/context.js';
import { forbidden } from '../../lib/errors.js';
import type { AccessLevel } from '../../../shared/api/folders.js';
import type { NodeRow } from './tree.repository.js';

export type { AccessLevel };
const RANK: Record<AccessLevel, number> = { READ: 0, WRITE: 1, ADMIN: 2 };

const ROLE_LEVEL: Record<Role, AccessLevel> = { Viewer: 'READ', Contributor: 'WRITE', Editor: 'WRITE', Admin: 'ADMIN' };

/**
 * The access a user has at a node: their role's level (Viewer READ, Contributor/Editor WRITE, Admin ADMIN),
 * capped for non-admins by the strictest `accessLevel` set on the node or any folder above it.
 */
export function effectiveAccess(actor: Actor, chain: readonly NodeRow[]): AccessLevel {
  return accessUnderCap(actor, accessCapOf(chain));
}

/** The strictest `accessLevel` set on the nodes of `chain`; null when none is set. */
export function accessCapOf(chain: readonly NodeRow[]): AccessLevel | null {
  let cap: AccessLevel | null = null;
  for (const node of chain) {
    const set = node.access_level as AccessLevel | null;
    if (set && (cap === null || RANK[set] < RANK[cap])) cap = set;
  }
  return cap;
}

/** The access a user has under a path whose strictest level set is `cap` (see effectiveAccess). */
export function accessUnderCap(actor: Actor, cap: AccessLevel | null): AccessLevel {
  const level = ROLE_LEVEL[actor.role];
  if (actor.role === 'Admin' || cap === null) return level;
  return RANK[cap] < RANK[level] ? cap : level;
}

/** Throws 403 unless the user has at least `needed` at the end of `chain`. */
export function requireAccess(actor: Actor, chain: readonly NodeRow[], needed: AccessLevel, what = 'this'): void {
  if (RANK[effectiveAccess(actor, chain)] < RANK[needed]) {
    throw forbidden(
      needed === 'READ' ? `You may not read ${what}.` : `You may not change ${what}: you have read-only access here.`,
    );
  }
}

/**
 * Sites are created, renamed and deleted by admins only: a site is a publication of its own, not content. What is
 * inside a site follows the access levels as everywhere else.
 */
export function requireSiteAdmin(actor: Actor, verb: 'create' | 'rename' | 'delete'): void {
  if (actor.role !== 'Admin') throw forbidden(`Only admins ${verb} sites.`);
}
