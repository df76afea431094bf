import fs from 'node:fs';
import SQLite, { type SqliteConnection } from '../db/sqlite-driver.js';
import type { FastifyInstance, FastifyRequest, onSendHookHandler } from 'fastify';
import { CompiledQuery, type Kysely } from 'kysely';
import { GENERATION_SLOTS } from '../db/migrations/0110-generation-slots.js';
import { sharedRuns } from './shared-runs.js';

/**
 * The change generation: a value that differs after every acknowledged write, on every node. Caches (the
 * response cache, the Basic credential cache) remember the generation they read before producing an entry and
 * trust the entry only while the generation is still the same. See docs/decisions.md for the consistency argument.
 *
 * `read()` answers the current generation: it reflects every write acknowledged before the call. SQLite answers
 * at once (no query); PostgreSQL after one round trip, shared by the callers that arrive while one is under way
 * (`readCostsAQuery`: read it there only where its value is used).
 */
export type ChangeGeneration = ChangeGenerationWrites &
  ({ readonly readCostsAQuery: false; read(): string } | { readonly readCostsAQuery: true; read(): Promise<string> });

interface ChangeGenerationWrites {
  /** Marks a change: every later `read`, on any node, answers a different value. */
  bump(): Promise<void>;
  /**
   * This node's part of a bump that a statement made (`GENERATION_BUMP_WITH` on PostgreSQL; on SQLite every commit
   * moves the generation): later reads here answer a new value.
   */
  bumpedInStatement(): void;
  close(): Promise<void>;
}

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The change generation as this request first saw it: read once (lazily) and shared by the auth hook and the
     * response cache. Read it before producing anything that is cached under it.
     */
    changeGeneration(): string | Promise<string>;
    /** Memo of `changeGeneration()`. */
    changeGenerationRead: string | Promise<string> | null;
    /** Set once this request bumped the generation. */
    changeGenerationBumped: boolean;
    /**
     * Records that this request's writes bumped the generation in their own statements (`GENERATION_BUMP_WITH` on
     * PostgreSQL; any commit on SQLite): it is not bumped again after the handler. Call only when every write of
     * the request committed such a bump.
     */
    changeGenerationBumpedInStatement(): void;
  }
}

export interface ChangeGenerationOptions {
  dialect: 'sqlite' | 'postgres';
  db: Kysely<any>;
  /** The SQLite database file (SQLite only). */
  sqlitePath?: string;
}

/** The sequence (bumped after commits) and the slots (bumped inside statements, migration 0110), in one read. */
const PG_READ = CompiledQuery.raw(
  `select last_value || '.' || (select sum(value) from change_generation_slots) as last_value from change_generation`,
);
const PG_BUMP = CompiledQuery.raw(`select nextval('change_generation')`);

/**
 * PostgreSQL: a data-modifying `with` member that bumps the generation inside the statement it heads (`with
 * <this> update …`), so the bump commits with that statement's writes and costs no round trip of its own. The
 * row is the connection's own (by its backend's process id): a connection runs one statement at a time, so a
 * node's statements never wait for each other's row, and other nodes' connections rarely share one. A request
 * whose writes all carried it calls `request.changeGenerationBumpedInStatement()`, and is not bumped again after
 * its handler.
 */
export const GENERATION_BUMP_WITH =
  'generation_bump as (update change_generation_slots set value = value + 1' +
  ` where slot = pg_backend_pid() % ${GENERATION_SLOTS})`;

/**
 * Opens the generation of a migrated database.
 * - SQLite: an in-process counter plus the file's `PRAGMA data_version` as seen by a read-only watcher
 *   connection of its own, which changes at every commit by any other connection: this process's own (so even a
 *   write that bypasses the HTTP layer is seen at commit) and other processes'.
 * - PostgreSQL: an in-process counter plus the `change_generation` sequence (migration 0060) and the sum of the
 *   `change_generation_slots` rows (migration 0110): bump is `nextval` (non-transactional, no row lock) after a
 *   commit, or a slot's `update` inside a statement (`GENERATION_BUMP_WITH`); read is both in one precompiled query.
 */
export function openChangeGeneration(opts: ChangeGenerationOptions): ChangeGeneration {
  let local = 0;
  if (opts.dialect === 'sqlite') {
    if (!opts.sqlitePath) throw new Error('openChangeGeneration: sqlitePath is required for SQLite');
    const watcher = new SQLite(opts.sqlitePath, { readonly: true, fileMustExist: true });
    const dataVersion = watcher.prepare('pragma data_version').pluck();
    const walIndex = openWalIndexHeader(watcher, opts.sqlitePath);
    const shared = walIndex ?? (() => String(dataVersion.get() as number));
    return {
      read: () => `${local}:${shared()}`,
      readCostsAQuery: false,
      async bump() {
        local++;
      },
      bumpedInStatement() {
        local++;
      },
      async close() {
        walIndex?.close();
        watcher.close();
      },
    };
  }
  const { db } = opts;
  // Reads are shared the way commits are in group commit (lib/shared-runs.ts): a caller gets the answer of a
  // query that started after its call, never of one already under way (it may predate a write acknowledged just
  // before the call), so there is at most one query in flight, whatever the request rate.
  const sequence = sharedRuns(() =>
    db.executeQuery<{ last_value: string }>(PG_READ).then((r) => String(r.rows[0]!.last_value)),
  );
  return {
    async read() {
      const value = await sequence();
      return `${local}:${value}`;
    },
    readCostsAQuery: true,
    async bump() {
      // The local part first: even when PostgreSQL cannot be reached, this node stops trusting its entries.
      local++;
      await db.executeQuery(PG_BUMP);
    },
    bumpedInStatement() {
      local++;
    },
    async close() {},
  };
}

/** Bytes of one copy of the WAL-index header at the start of the `-shm` file (sqlite.org/walformat.html). */
const WAL_INDEX_HEADER_BYTES = 48;

/**
 * The WAL-index header of a SQLite database in WAL mode, read from its `-shm` file with one `pread` (well under a
 * microsecond, where `PRAGMA data_version` takes 2-3 µs: it starts and ends a read transaction, three system
 * calls). Every commit, by any connection of any process, rewrites the header before it returns (its change
 * counter, frame count and checksums change); readers and checkpoints never write it. Writers write the second
 * copy first and this first copy last, so a torn read only ever shows a value that differs from the one before
 * the commit. The watcher connection stays open and keeps the file from being removed: SQLite deletes `-shm`
 * only when the last connection closes. Null (use the pragma) when the database is not in WAL mode or the file
 * cannot be opened; a failed read falls back to the pragma too.
 */
function openWalIndexHeader(
  watcher: SqliteConnection,
  sqlitePath: string,
): ((() => string) & { close(): void }) | null {
  const dataVersion = watcher.prepare('pragma data_version').pluck();
  // A first read maps the shared memory (creating `-shm` if no connection had yet).
  dataVersion.get();
  if (watcher.pragma('journal_mode', { simple: true }) !== 'wal') return null;
  let fd: number;
  try {
    fd = fs.openSync(`${sqlitePath}-shm`, 'r');
  } catch {
    return null;
  }
  const header = Buffer.alloc(WAL_INDEX_HEADER_BYTES);
  const read = () => {
    try {
      if (fs.readSync(fd, header, 0, WAL_INDEX_HEADER_BYTES, 0) === WAL_INDEX_HEADER_BYTES) {
        return header.toString('hex');
      }
    } catch {
      // fall through to the pragma
    }
    return `v${dataVersion.get() as number}`;
  };
  return Object.assign(read, { close: () => fs.closeSync(fd) });
}

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** True when this request must bump the generation once its handler ran. */
function changesContent(request: FastifyRequest): boolean {
  return (
    UNSAFE.has(request.method) &&
    // Unauthenticated requests never reach a handler that writes (and must not be able to empty the caches).
    request.actor !== null &&
    request.url.startsWith('/cms/') &&
    // Signing in only touches sessions (route config); signing out bumps: every node remembers the sessions it
    // resolved under the generation (auth.service's `rememberedSession`).
    request.routeOptions.config?.changesContent !== false
  );
}

/**
 * Gives every request `changeGeneration()` (read once, shared), and bumps the generation after every
 * authenticated unsafe request under /cms/ (but routes with `config.changesContent: false`), whatever its status,
 * unless its write bumped it in its own statement (WriteScope): in `onSend`, awaited,
 * so the bump lands after the handler's commit and before the client hears back.
 */
export function registerChangeGeneration(app: FastifyInstance, generation: ChangeGeneration) {
  app.decorateRequest('changeGenerationRead', null);
  app.decorateRequest('changeGenerationBumped', false);
  app.decorateRequest('changeGeneration', function (this: FastifyRequest) {
    return (this.changeGenerationRead ??= generation.read());
  });
  app.decorateRequest('changeGenerationBumpedInStatement', function (this: FastifyRequest) {
    generation.bumpedInStatement();
    this.changeGenerationBumped = true;
  });

  // Callback-style: a GET (most requests) passes through without a promise tick.
  const onSend: onSendHookHandler = function (request, _reply, payload, done) {
    if (request.changeGenerationBumped || !changesContent(request)) return done(null, payload);
    // Set first: if the bump fails, the error response passes through here again and must not retry forever.
    request.changeGenerationBumped = true;
    generation
      .bump()
      .catch(async (err: unknown) => {
        request.log.error({ err }, 'could not bump the change generation; retrying once');
        // The client must not take the write as acknowledged while other nodes may still serve what it replaced.
        await generation.bump();
      })
      .then(
        () => done(null, payload),
        (err: Error) => done(err),
      );
  };
  app.addHook('onSend', onSend);
}
