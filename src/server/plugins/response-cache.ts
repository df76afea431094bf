import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ifNoneMatchHits } from '../lib/etag.js';
import { headerOf } from '../lib/http.js';

/** Response headers a stored answer keeps; security headers and per-request ones are added by hooks on a hit. */
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

const cacheable = (request: FastifyRequest) =>
  request.routeOptions.config?.cache === true && (request.method === 'GET' || request.method === 'HEAD');

/**
 * The response cache of GET/HEAD routes with `config: { cache: true }`, keyed by the caller's role and the raw
 * URL. A lookup happens in `onRequest`, right after authentication, so a hit skips validation, the handler and
 * every query but the generation read; `onSend` hooks (security headers, conditional GET) run on hits too.
 * Registered even when disabled: flagged routes then still answer `If-None-Match` with 304.
 * Must be registered after the authentication hook. Answers the cache (for stats), or null when disabled.
 */
export function registerResponseCache(app: FastifyInstance, opts: ResponseCacheOptions): ResponseCache | null {
  const cache = opts.enabled
    ? new ResponseCache({ maxBytes: opts.maxBytes, maxEntries: MAX_CACHE_ENTRIES, maxAgeMs: opts.maxAgeMs })
    : null;
  app.decorateRequest('responseCacheKey', null);
  app.decorateRequest('responseCacheGeneration', '');
  app.decorateRequest('responseCacheReadAt', 0);
  app.decorateRequest('responseCacheHit', false);

  if (cache) {
    app.addHook('onRequest', async (request, reply) => {
      if (!request.actor || !cacheable(request)) return;
      // The generation is read before the answer is produced: an entry made from data older than a write carries
      // a generation older than that write's bump.
      const generation = await request.changeGeneration();
      const now = opts.now();
      const key = `${request.actor.role}\0${request.url}`;
      request.responseCacheKey = key;
      request.responseCacheGeneration = generation;
      request.responseCacheReadAt = now;
      const hit = cache.get(key, generation, now);
      if (!hit) return;
      request.responseCacheHit = true;
      return reply.code(200).headers(hit.headers).send(hit.body);
    });
  }

  app.addHook('onSend', async (request, reply, payload) => {
    if (reply.statusCode !== 200 || !cacheable(request)) return payload;
    if (
      cache &&
      request.responseCacheKey !== null &&
      !request.responseCacheHit &&
      request.method === 'GET' &&
      (typeof payload === 'string' || Buffer.isBuffer(payload))
    ) {
      cache.set(request.responseCacheKey, {
        generation: request.responseCacheGeneration,
        readAt: request.responseCacheReadAt,
        headers: storedHeaders(reply),
        body: payload,
      });
    }
    const etag = reply.getHeader('etag');
    if (typeof etag === 'string' && ifNoneMatchHits(headerOf(request, 'if-none-match'), etag)) {
      reply.code(304);
      return null;
    }
    return payload;
  });
  return cache;
}

function storedHeaders(reply: FastifyReply): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of STORED_HEADERS) {
    const v = reply.getHeader(name);
    if (v !== undefined) out[name] = String(v);
  }
  return out;
}
