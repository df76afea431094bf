import type { FastifyInstance, FastifyRequest, onSendHookHandler } from 'fastify';
import type { Database } from '../db/database.js';
import { AppError } from '../lib/errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set once the request waited for `durable()` (an error response passes through onSend again). */
    durableWaited: boolean;
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Nothing that changed data is acknowledged before it is on stable storage: every request with an unsafe
 * method waits for `database.durable()` in `onSend`, after its handler's commits and after the change-generation
 * bump (registered before this), so one sync covers both. On SQLite the writers waiting at the same moment share
 * one fdatasync of the WAL (group commit, db/durability.ts); on PostgreSQL the commit already was durable.
 *
 * A request that wrote nothing (a 4xx) waits too: finding that out would cost more than syncing a file with
 * nothing dirty in it. If the sync fails, the client gets 503 STORAGE_UNAVAILABLE instead of its 2xx.
 */
export function registerDurableWrites(app: FastifyInstance, database: Database) {
  app.decorateRequest('durableWaited', false);
  async function waitDurable(request: FastifyRequest) {
    try {
      await database.durable();
    } catch (err) {
      request.log.error({ err }, 'could not sync the database to disk; the write is not acknowledged');
      throw new AppError(
        503,
        'STORAGE_UNAVAILABLE',
        'The change was made, but the disk failed to confirm it: it could be lost if the machine fails. Check the storage.',
      );
    }
  }
  // Callback-style: a GET passes through without a promise tick.
  const onSend: onSendHookHandler = function (request, _reply, payload, done) {
    if (request.durableWaited || SAFE_METHODS.has(request.method)) return done(null, payload);
    request.durableWaited = true;
    waitDurable(request).then(
      () => done(null, payload),
      (err: Error) => done(err),
    );
  };
  app.addHook('onSend', onSend);
}
