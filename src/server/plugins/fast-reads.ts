import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { fastifyCookie } from '@fastify/cookie';
import type { FastifyInstance } from 'fastify';
import type { ChangeGeneration } from '../lib/change-generation.js';
import type { Actor, ActorClaim } from '../lib/context.js';
import type { ByPathRead } from '../lib/http.js';
import { jsonHeaderList, type SerialisedJson } from '../lib/respond.js';
import { byPathSegments } from '../modules/tree/paths.js';
import type { AuthService } from '../modules/auth/auth.service.js';
import type { InFlight } from './in-flight.js';
import { SESSION_COOKIE } from './authenticate.js';
import { responseCacheKey, type CachedResponse, type ResponseCache } from './response-cache.js';
import { API_HEADERS } from './security-headers.js';

/** The security headers every API answer carries, flat as `writeHead` takes them (lib/respond.ts jsonHeaderList). */
const API_HEADER_LIST: readonly string[] = Object.entries(API_HEADERS).flat();

/** Thrown by a fast read's ActorClaim when its proof failed: Fastify's way then decides (and counts failures). */
const TAKE_FASTIFYS_WAY = new Error('fast read: the claimed caller must be authenticated the usual way');

export interface FastReads {
  /** Requests answered without Fastify since the start (tests and stats). */
  readonly served: number;
}

/**
 * GETs of pages, assets and folders by path answered before Fastify sees them, when the answer is one the
 * Fastify route would give in its simplest case: the same bytes, status and headers, from the same services, for
 * the same caller. Fastify's per-request machinery (routing, request and reply objects, a dozen hooks, the
 * serialiser's checks) was a third of an uncached GET's CPU, spread thin over all of them (bench/README.md).
 *
 * A request takes this way only when all of this holds; anything else goes to Fastify as it came, which also
 * answers every error (a 4xx from here would be a second error path):
 * - GET (not HEAD) of a route registered with `config.byPathRead`, with no query string and no `If-None-Match`;
 * - the server is not closing, and request logging is off (LOG_LEVEL above info: Fastify logs each request at info);
 * - the caller is decided as the auth hook decides it for a GET, from memory or a synchronous read: Basic
 *   credentials remembered under the current generation (or rechecked now on SQLite), or the session cookie
 *   remembered (or read now on SQLite); on PostgreSQL with the response cache off, a remembered credential or
 *   session taken on trust and proven by the read's own statement (ActorClaim) — a failed proof hands the
 *   request to Fastify, which authenticates it as usual;
 * - with the response cache on: a hit (a miss goes to Fastify, which stores its answer); with it off: the route's
 *   synchronous read answered (SQLite), or its read did (PostgreSQL), without an error.
 *
 * The headers are those of the Fastify path (content type, ETag, API_HEADERS, length; a cache hit's stored ones):
 * fast-reads.test.ts compares the two ways' answers byte for byte on both databases.
 */
export function installFastReads(
  app: FastifyInstance,
  deps: {
    auth: AuthService;
    generation: ChangeGeneration;
    cache: ResponseCache | null;
    inFlight: InFlight;
    now: () => number;
  },
): FastReads {
  const routes: { prefix: string; read: ByPathRead }[] = [];
  let served = 0;
  let closing = false;
  const { auth, generation, cache, inFlight } = deps;

  app.addHook('onRoute', (route) => {
    const read = route.config?.byPathRead;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!read || !methods.includes('GET') || !route.url.endsWith('/*')) return;
    routes.push({ prefix: route.url.slice(0, -1), read });
  });
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });

  const logsRequests = () => (app.log as { isLevelEnabled?(level: string): boolean }).isLevelEnabled?.('info') ?? false;

  function routeOf(url: string) {
    for (const r of routes) if (url.startsWith(r.prefix)) return r;
    return undefined;
  }

  /** A hit's stored headers with the security headers, flat: made once per stored answer (a new one, anew). */
  const hitHeaderLists = new WeakMap<CachedResponse, string[]>();
  function hitHeaders(hit: CachedResponse): string[] {
    let list = hitHeaderLists.get(hit);
    if (!list) hitHeaderLists.set(hit, (list = Object.entries({ ...API_HEADERS, ...hit.headers }).flat()));
    return list;
  }

  const together = answersTogether();
  /** Every answer of this way: a 200, counted, written with the others of this turn. */
  function answer200(res: ServerResponse, headers: readonly string[], body: string | Buffer) {
    served++;
    together.write(res, headers, body);
  }
  function send(res: ServerResponse, answer: SerialisedJson) {
    const headers = jsonHeaderList(answer, API_HEADER_LIST);
    headers.push('content-length', String(Buffer.byteLength(answer.json)));
    answer200(res, headers, answer.json);
  }

  /** True when it answered, or took the request on (PostgreSQL); false: Fastify's way, untouched. */
  function answer(
    req: IncomingMessage,
    res: ServerResponse,
    fastify: (req: IncomingMessage, res: ServerResponse) => void,
  ) {
    if (req.method !== 'GET' || closing) return false;
    const url = req.url ?? '';
    const route = routeOf(url);
    if (!route || url.includes('?') || req.headers['if-none-match'] !== undefined || logsRequests()) return false;
    const header = req.headers.authorization;
    const sid = header === undefined ? sessionIdOf(req.headers.cookie) : undefined;
    if (header === undefined && !sid) return false;
    let segments: string[];
    try {
      segments = byPathSegments(url, route.prefix);
    } catch {
      return false;
    }
    if (segments.length === 0) return false;

    if (generation.readCostsAQuery) {
      // PostgreSQL: reading the generation costs a query, so it is not read here (a cache miss goes to Fastify,
      // which reads it). With the cache off, the read proves the caller itself.
      return cache ? false : claimed(route.read, header, sid, segments, req, res, fastify);
    }
    const g = generation.read();
    let actor: Actor | null;
    try {
      actor = header !== undefined ? auth.basicNow(header, g) : auth.sessionNow(sid!, g);
      if (!actor) return false;
      if (cache) {
        const hit = cache.get(responseCacheKey(actor.role, url), g, deps.now());
        if (!hit) return false;
        answer200(res, hitHeaders(hit), hit.body);
        return true;
      }
      const found = route.read.now({ username: actor.username, role: actor.role }, segments);
      if (!found) return false;
      send(res, found);
      return true;
    } catch {
      return false;
    }
  }

  /** The read with a claimed caller (PostgreSQL, cache off); any error hands the request to Fastify. */
  function claimed(
    read: ByPathRead,
    header: string | undefined,
    sid: string | undefined,
    segments: string[],
    req: IncomingMessage,
    res: ServerResponse,
    fastify: (req: IncomingMessage, res: ServerResponse) => void,
  ): boolean {
    let actor: Actor;
    let proof: ActorClaim['proof'];
    if (header !== undefined) {
      const c = auth.basicClaim(header);
      if (!c) return false;
      ({ actor, proof } = c);
    } else {
      const c = auth.sessionClaim(sid!);
      if (!c) return false;
      actor = { username: c.session.username, role: c.session.role };
      proof = c.proof;
    }
    const claim: ActorClaim = { ...actor, proof, confirm: () => Promise.reject(TAKE_FASTIFYS_WAY) };
    const end = inFlight.begin();
    read.get(actor, segments, claim).then(
      (found) => {
        end();
        send(res, found);
      },
      () => {
        end();
        fastify(req, res);
      },
    );
    return true;
  }

  // Fastify's own handler stays the server's way for everything this does not answer.
  const server = app.server as Server;
  const listeners = server.listeners('request') as ((req: IncomingMessage, res: ServerResponse) => void)[];
  if (listeners.length !== 1)
    throw new Error(`fast reads: expected Fastify's one request listener, found ${listeners.length}`);
  const fastify = listeners[0]!;
  server.removeListener('request', fastify);
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (!answer(req, res, fastify)) fastify(req, res);
  });

  return {
    get served() {
      return served;
    },
  };
}

/**
 * 200 answers written together once the event loop has run the handlers of the requests that arrived with them
 * (`setImmediate`: after the poll phase), instead of each as soon as its request is parsed. Each write to a socket
 * whose reader sleeps has to wake it, which costs the writer more than the write (on one machine: the load
 * generator or a reverse proxy, through an interrupt to the core it sleeps on). Written one by one, every answer
 * found its reader asleep again; written together, the first wakes it and the rest find it reading. An answer
 * waits for the rest of the event loop's turn at most. Measured: bench/README.md ("Answers written together").
 */
function answersTogether() {
  let queued: { res: ServerResponse; headers: readonly string[]; body: string | Buffer }[] = [];
  function writeAll() {
    const all = queued;
    queued = [];
    for (const a of all) {
      try {
        a.res.writeHead(200, a.headers as string[]);
        a.res.end(a.body);
      } catch {
        // Nothing a client sends gets here (its connection gone is a no-op for `end`); never let one answer's
        // failure leave the others unwritten or take the process down from a timer.
        a.res.destroy();
      }
    }
  }
  return {
    write(res: ServerResponse, headers: readonly string[], body: string | Buffer) {
      if (queued.push({ res, headers, body }) === 1) setImmediate(writeAll);
    },
  };
}

/** The session id in a Cookie header, parsed as @fastify/cookie parses it for the auth hook. */
function sessionIdOf(cookieHeader: string | undefined): string | undefined {
  if (!cookieHeader) return undefined;
  return fastifyCookie.parse(cookieHeader)[SESSION_COOKIE];
}
