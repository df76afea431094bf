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
}

/** The actor used by start-up work such as seeding. */
export const SYSTEM_ACTOR: Actor = { username: 'admin', role: 'Admin' };

/** ISO-8601 UTC timestamp of `ms`. */
export function isoTime(ms: number): string {
  return new Date(ms).toISOString();
}
