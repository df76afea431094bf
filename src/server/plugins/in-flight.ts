import type { FastifyInstance, FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set while the request counts as in flight (see registerInFlight). */
    inFlight: { sent: boolean; closed: boolean } | null;
  }
}

/** Requests still running, and a wait for them to end. */
export interface InFlight {
  readonly count: number;
  /** Resolves true once no request is in flight, or false when `timeoutMs` passed first. */
  drained(timeoutMs: number): Promise<boolean>;
  /** Starts counting the requests of `app` (see registerInFlight); call once. */
  register(app: FastifyInstance): void;
}

/**
 * Counts the requests whose work is not over (once `register`ed), so that a shutdown closes the database only
 * after them (app.ts's onClose). Fastify's own close waits for connections, not handlers: a client that hung up leaves its
 * handler running, and its commit, change-generation bump or sync would meet a closed database.
 *
 * A request counts from its `onRequest` until both (a) its `onSend` chain reached this plugin's hook, which runs
 * after the generation bump and the durability wait (register it after them: global `onSend` hooks run in the
 * order they were added), and (b) its response closed (sent, a stream ended, or the client gone). Every request
 * ends in `onSend`, its error answers too, so none is counted for ever.
 */
export function createInFlight(): InFlight {
  let count = 0;
  let waiters: (() => void)[] = [];

  function end(request: FastifyRequest) {
    if (request.inFlight === null) return;
    request.inFlight = null;
    count--;
    if (count === 0) {
      const ready = waiters;
      waiters = [];
      for (const w of ready) w();
    }
  }

  function register(app: FastifyInstance) {
    app.decorateRequest('inFlight', null);
    app.addHook('onRequest', function (request, reply, done) {
      const state = { sent: false, closed: false };
      request.inFlight = state;
      count++;
      reply.raw.once('close', () => {
        state.closed = true;
        if (state.sent) end(request);
      });
      done();
    });
    app.addHook('onSend', function (request, _reply, payload, done) {
      const state = request.inFlight;
      if (state) {
        state.sent = true;
        if (state.closed) end(request);
      }
      done(null, payload);
    });
  }

  return {
    register,
    get count() {
      return count;
    },
    drained(timeoutMs) {
      if (count === 0) return Promise.resolve(true);
      return new Promise((resolve) => {
        const timer = setTimeout(() => {
          waiters = waiters.filter((w) => w !== ready);
          resolve(false);
        }, timeoutMs);
        const ready = () => {
          clearTimeout(timer);
          resolve(true);
        };
        waiters.push(ready);
      });
    },
  };
}
