import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Role } from '../../shared/api/auth.js';
import type { BlobStore } from '../blobs/blob-store.js';
import type { Config } from '../config.js';
import type { Database } from '../db/database.js';
import type { DB } from '../db/schema.js';
import type { ChangeGeneration } from './change-generation.js';

/** What every service is built from. */
export interface AppContext {
  config: Config;
  database: Database;
  db: Kysely<DB>;
  blobs: BlobStore;
  log: FastifyBaseLogger;
  /** Differs after every acknowledged write, on every node: what caches check their entries against. */
  generation: ChangeGeneration;
  /** Milliseconds since the epoch; replaceable in tests. */
  now(): number;
}

/** The user a service acts for. */
export interface Actor {
  username: string;
  role: Role;
  /** Writes even while someone else holds the item's check-out lease (scheduled publishing, lib/scheduler.ts). */
  overridesLease?: boolean;
}

/**
 * An actor taken on trust for one request (PostgreSQL, on routes with `config.provesActor`): a Basic credential
 * or a session this node checked moments ago, not read again yet. The request's write must prove it in the
 * statement that writes (`proof`: the user row still holds the password hash and role, or the session is live
 * and its user has that role), or call `confirm()` first, which authenticates as usual and answers the actor (401
 * when the credentials no longer hold). Nothing may be answered before one of the two happened: the error handler
 * confirms before it answers an error.
 */
export interface ActorClaim extends Actor {
  /** The condition that proves the claim, for the statement that writes (db/prepared.ts StatementProof). */
  proof: { condition: string; values: readonly unknown[] };
  /** Authenticates as usual, once per request: the actor, or 401. */
  confirm(): Promise<Actor>;
  /** Says that a statement carrying `proof` found it held: the claim is settled (plugins/claim-check.ts). */
  proven(): void;
}

/**
 * The actor a read answers for: `actor` without a claim; with one, `proven` (the read's proof held) settles it,
 * else it is confirmed first.
 */
export function settleClaim(
  actor: Actor,
  claim: ActorClaim | undefined,
  proven: boolean | undefined,
): Actor | Promise<Actor> {
  if (!claim) return actor;
  if (!proven) return claim.confirm();
  claim.proven();
  return actor;
}

/**
 * What a route hands the service that writes for it (http.ts writeScopeOf): the actor taken on trust, when it is
 * (route config `provesActor`), and where to say that the write's own statement bumped the change generation,
 * so that the request is not bumped again after it.
 */
export interface WriteScope {
  claim?: ActorClaim;
  bumpedInStatement(): void;
}

/**
 * Tries a write that proves a claimed actor in its own statement, before the general way (the one-statement PUTs).
 * `attempt` answers `wrote: true` when its statement wrote, which proved the claim; `wrote: false` with the answer
 * when there was nothing to write; undefined when the general way must decide. A claim neither proven nor confirmed
 * answers nothing: what `attempt` throws, or answers without a write, stands once the claim is confirmed under the
 * role it claimed (401 otherwise); under another role the general way decides again. Undefined: take the general
 * way, after `claim.confirm()` (which authenticates once, however often asked).
 */
export async function tryProvingWrite<T>(
  claim: ActorClaim | undefined,
  attempt: () => Promise<{ answer: T; wrote: boolean } | undefined>,
): Promise<T | undefined> {
  const sameRole = async () => !claim || (await claim.confirm()).role === claim.role;
  let tried: { answer: T; wrote: boolean } | undefined;
  try {
    tried = await attempt();
  } catch (err) {
    if (await sameRole()) throw err;
    return undefined;
  }
  if (tried?.wrote) claim?.proven();
  return tried && (tried.wrote || (await sameRole())) ? tried.answer : undefined;
}

/** The actor used by start-up work such as seeding. */
export const SYSTEM_ACTOR: Actor = { username: 'admin', role: 'Admin' };

/** ISO-8601 UTC timestamp of `ms`. */
export function isoTime(ms: number): string {
  return new Date(ms).toISOString();
}
