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

/** The actor used by start-up work such as seeding. */
export const SYSTEM_ACTOR: Actor = { username: 'admin', role: 'Admin' };

/** ISO-8601 UTC timestamp of `ms`. */
export function isoTime(ms: number): string {
  return new Date(ms).toISOString();
}
