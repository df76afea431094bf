import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  HookHandlerDoneFunction,
  onRequestHookHandler,
  onSendHookHandler,
} from 'fastify';
import { headerNamesEtag } from '../lib/etag.js';
import { headerOf } from '../lib/http.js';

/**
 * Response headers a stored answer keeps (plus its content-length); security headers and per-request ones are
 * added by hooks on a hit.
 */
const STORED_HEADERS = ['content-type', 'etag', 'last-modified', 'cache-control', 'content-disposition'] as const;
/** Bookkeeping per entry besides its body and key (a rough figure, so many tiny entries still count). */
const ENTRY_OVERHEAD_BYTES = 256;
/** Entry count bound, whatever their size. */
export const MAX_CACHE_ENTRIES = 50_000;

export interface CachedResponse {
  /** The change generation read before the answer was produced. */
  generation: string;
  /** When that generation was read (ms). */
  readAt: number;
  headers: Record<string, string>;
  body: string | Buffer;
  size: number;
}

/** An LRU map of stored answers, bounded by bytes and entry count; entries live while generation and age allow. */
export class ResponseCache {
  private readonly entries = new Map<string, CachedResponse>();
  private bytes = 0;

  constructor(readonly opts: { maxBytes: number; maxEntries: number; maxAgeMs: number }) {}

  get stats() {
    return { entries: this.entries.size, bytes: this.bytes };
  }

  /** The entry for `key` if it was stored under `generation` and is younger than the max age (it becomes MRU). */
  get(key: string, generation: string, now: number): CachedResponse | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (entry.generation !== generation || now - entry.readAt > this.opts.maxAgeMs) {
      this.bytes -= entry.size;
      return undefined;
    }
    this.entries.set(key, entry);
    return entry;
  }

  set(key: string, entry: Omit<CachedResponse, 'size'>): void {
    const size = key.length * 2 + Buffer.byteLength(entry.body) + ENTRY_OVERHEAD_BYTES;
    // One answer never takes more than a quarter of the cache.
    if (size > this.opts.maxBytes / 4) return;
    this.delete(key);
    this.entries.set(key, { ...entry, size });
    this.bytes += size;
    while (this.bytes > this.opts.maxBytes || this.entries.size > this.opts.maxEntries) {
      const oldest = this.entries.keys().next().value as string;
      this.delete(oldest);
    }
  }

  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }

  private delete(key: string) {
    const old = this.entries.get(key);
    if (!old) return;
    this.entries.delete(key);
    this.bytes -= old.size;
  }
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Response cache key of a cacheable GET (null otherwise); `responseCacheHit` when it was answered from it. */
    responseCacheKey: string | null;
    responseCacheGeneration: string;
    responseCacheReadAt: number;
    responseCacheHit: boolean;
  }
}

export interface ResponseCacheOptions {
  enabled: boolean;
  maxBytes: number;
  maxAgeMs: number;
  now: () => number;
}

const isGetOrHead = (method: string) => method === 'GET' || method === 'HEAD';

/**
 * The response cache of GET/HEAD routes with `config: { cache: true }`, keyed by the caller's role and the raw
 * URL. A lookup happens in `onRequest`, right after authentication, so a hit skips validation, the handler and
 * every query but the generation read; `onSend` hooks (security headers, conditional GET) run on hits too.
 * Registered even when disabled: flagged routes then still answer `If-None-Match` with 304.
 *
 * Its hooks are route hooks of the flagged routes only (added as each route is declared: register this before
 * the routes), so other routes pay nothing, and callback-style, so a hit costs no promise ticks. Route
 * `onRequest` hooks run after the global ones: the lookup comes after authentication. A stored answer keeps its
 * body as a Buffer and its `content-length`, so a hit is sent with no encoding or length computation.
 * Answers the cache (for stats), or null when disabled.
 */
export function registerResponseCache(app: FastifyInstance, opts: ResponseCacheOptions): ResponseCache | null {
  const cache = opts.enabled
    ? new ResponseCache({ maxBytes: opts.maxBytes, maxEntries: MAX_CACHE_ENTRIES, maxAgeMs: opts.maxAgeMs })
    : null;
  app.decorateRequest('responseCacheKey', null);
  app.decorateRequest('responseCacheGeneration', '');
  app.decorateRequest('responseCacheReadAt', 0);
  app.decorateRequest('responseCacheHit', false);

  /** Serves a hit, or notes the key and generation under which the miss's answer will be stored. */
  function lookup(request: FastifyRequest, reply: FastifyReply, generation: string, done: HookHandlerDoneFunction) {
    let hit: CachedResponse | undefined;
    try {
      const now = opts.now();
      // The key of an answer: the caller's role and the raw URL.
      const key = `${request.actor!.role}\0${request.url}`;
      request.responseCacheKey = key;
      request.responseCacheGeneration = generation;
      request.responseCacheReadAt = now;
      hit = cache!.get(key, generation, now);
    } catch (err) {
      return done(err as Error);
    }
    if (!hit) return done();
    request.responseCacheHit = true;
    // Answered here: the rest of the request lifecycle (validation, handler) is skipped; onSend hooks still run.
    void reply.code(200).headers(hit.headers).send(hit.body);
  }

  const onRequest: onRequestHookHandler = function (request, reply, done) {
    if (!request.actor || !isGetOrHead(request.method)) return done();
    // The generation is read before the answer is produced: an entry made from data older than a write carries
    // a generation older than that write's bump.
    const generation = request.changeGeneration();
    if (typeof generation === 'string') return lookup(request, reply, generation, done);
    generation.then((g) => lookup(request, reply, g, done), done);
  };

  const onSend: onSendHookHandler = function (request, reply, payload, done) {
    if (reply.statusCode !== 200 || !isGetOrHead(request.method)) return done(null, payload);
    if (
      cache &&
      request.responseCacheKey !== null &&
      !request.responseCacheHit &&
      request.method === 'GET' &&
      (typeof payload === 'string' || Buffer.isBuffer(payload))
    ) {
      const body = typeof payload === 'string' ? Buffer.from(payload) : payload;
      cache.set(request.responseCacheKey, {
        generation: request.responseCacheGeneration,
        readAt: request.responseCacheReadAt,
        headers: storedHeaders(reply, body.length),
        body,
      });
    }
    const etag = reply.getHeader('etag');
    if (typeof etag === 'string' && headerNamesEtag(headerOf(request, 'if-none-match'), etag)) {
      // A hit carries its body's length; a 304 has no body.
      reply.code(304).removeHeader('content-length');
      return done(null, null);
    }
    done(null, payload);
  };

  app.addHook('onRoute', (route) => {
    if (route.config?.cache !== true) return;
    if (cache) route.onRequest = [...hooksOf(route.onRequest), onRequest];
    route.onSend = [...hooksOf(route.onSend), onSend];
  });
  return cache;
}

function hooksOf<T>(hooks: T | T[] | undefined): T[] {
  if (hooks === undefined) return [];
  return Array.isArray(hooks) ? hooks : [hooks];
}

function storedHeaders(reply: FastifyReply, length: number): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of STORED_HEADERS) {
    const v = reply.getHeader(name);
    if (v !== undefined) out[name] = String(v);
  }
  out['content-length'] = String(length);
  return out;
}
