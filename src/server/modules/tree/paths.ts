import type { FastifyReply, FastifyRequest } from 'fastify';
import { ItemName } from '../../../shared/api/common.js';
import type { FieldError } from '../../../shared/api/errors.js';
import { badRequest } from '../../lib/errors.js';
import { actorOf, preconditionsOf, writeScopeOf, type ByPathRead, type ByPathWrite } from '../../lib/http.js';
import { answerJson, type SerialisedJson } from '../../lib/respond.js';

/**
 * The item path of a by-path request (`<site>/<folders…>/<name>`, `Assets/<folders…>/<name>`) as segments: the one
 * way every by-path route reads its URL. The route is registered as `<prefix>/*`; the path after the prefix is
 * taken from the raw URL, its slashes either as they are or percent-encoded (`%2F`, as generated clients send a
 * path parameter), each name percent-decoded. 400 when the path is badly encoded, holds an invalid name or is
 * empty (unless `allowEmpty`: the asset library's listings take an empty path as the library itself).
 */
export function itemPathOf(request: FastifyRequest, opts: { allowEmpty?: boolean } = {}): string[] {
  const route = request.routeOptions.url ?? '';
  const prefix = route.endsWith('*') ? route.slice(0, -1) : route;
  const segments = byPathSegments(request.url, prefix);
  if (segments.length === 0 && !opts.allowEmpty) {
    throw badRequest(
      'Name a site (or Assets) in the path.',
      [{ path: 'path', message: 'is empty' }],
      'INVALID_PARAMETER',
    );
  }
  return segments;
}

/** A by-path GET's read of another version than the current one (`?revision=N`, `?version=live`: modules/revisions). */
export type VersionRead = (request: FastifyRequest) => Promise<SerialisedJson>;

/**
 * The answer of a by-path GET route's handler: `read` (the service's `get`) for the request's caller and path, a
 * claimed caller proven or confirmed by it. When the read answered synchronously, so does the handler (the body is
 * sent without a promise); otherwise it answers a promise of the body. A query naming a revision or the live
 * version is answered by `version` instead.
 */
export function answerByPath<T>(
  request: FastifyRequest,
  reply: FastifyReply & { send(payload?: T): FastifyReply },
  read: ByPathRead,
  version?: VersionRead,
): T | Promise<T> {
  const query = request.query as { revision?: unknown; version?: unknown } | undefined;
  if (version && (query?.revision !== undefined || query?.version !== undefined)) {
    return version(request).then((a) => answerJson<T>(reply, a));
  }
  // The read settles a claimed caller (proves or confirms it: plugins/claim-check.ts checks).
  const answer = read(actorOf(request), itemPathOf(request), request.actorClaim ?? undefined);
  if (!(answer instanceof Promise)) return answerJson<T>(reply, answer);
  return answer.then((a) => answerJson<T>(reply, a));
}

/**
 * The write of a by-path PUT route's handler: `write` (the service's `put`) for the request's caller, path, body
 * (as the route's schema parsed it) and preconditions, with its WriteScope (the claim and the generation bump).
 */
export function writeByPath<B, R>(request: FastifyRequest, write: ByPathWrite<B, R>): Promise<R> {
  return write(
    actorOf(request),
    itemPathOf(request),
    request.body as B,
    preconditionsOf(request),
    writeScopeOf(request),
  );
}

/**
 * Segments of a by-path URL (`/cms/rest/folders/by-path/a/b%2Fc` → `a`, `b`, `c`) after `routePrefix`, read from
 * the raw request URL and percent-decoded; an encoded `/` separates names like a plain one (no name holds a `/`).
 * Empty segments (`a//b`, a trailing `/`) are dropped. 400 when the encoding is broken or a segment is not a
 * valid name (`.`, `..`, control characters, …).
 */
export function byPathSegments(rawUrl: string, routePrefix: string): string[] {
  const rawPath = rawUrl.split('?')[0]!;
  const tail = rawTail(rawPath, routePrefix);
  if (tail === null) {
    throw badRequest(
      'The path in the URL is not valid.',
      [{ path: 'path', message: 'does not start with the route' }],
      'INVALID_PARAMETER',
    );
  }
  const segments: string[] = [];
  const errors: FieldError[] = [];
  tail.split('/').forEach((raw, i) => {
    let decoded: string;
    try {
      decoded = decodeURIComponent(raw);
    } catch {
      errors.push({ path: `path.${i}`, message: 'is not valid percent-encoded UTF-8' });
      return;
    }
    for (const name of decoded.split('/')) if (name.length > 0) segments.push(name);
  });
  if (errors.length) throw badRequest('The path in the URL is not valid.', errors, 'INVALID_PARAMETER');
  assertValidNames(segments, 'path', 'INVALID_PARAMETER');
  return segments;
}

/**
 * The raw text after `routePrefix` in `rawPath`. The router matched the decoded URL, so the prefix may be
 * percent-encoded in the raw one (`/cms/rest/%61ssets/list/…`): then it is matched segment by segment rather
 * than taken as missing (which would address the top of the tree instead of the item named). Null when the
 * prefix is not there at all.
 */
function rawTail(rawPath: string, routePrefix: string): string | null {
  const at = rawPath.indexOf(routePrefix);
  if (at >= 0) return rawPath.slice(at + routePrefix.length);
  const want = routePrefix.split('/').filter((s) => s.length > 0);
  const raw = rawPath.split('/');
  const decoded = (s: string) => {
    try {
      return decodeURIComponent(s);
    } catch {
      return null;
    }
  };
  for (let start = 0; start + want.length <= raw.length; start++) {
    if (want.every((w, i) => decoded(raw[start + i]!) === w)) return raw.slice(start + want.length).join('/');
  }
  return null;
}

/** Splits a by-path path given in a body (`site/folder/name`) into validated segments; 400 naming `field`. */
export function itemPathSegments(path: string, field: string): string[] {
  const segments = path.split('/').filter((s) => s.length > 0);
  if (segments.length === 0) throw badRequest(`${field} names no item.`, [{ path: field, message: 'is empty' }]);
  assertValidNames(segments, field, 'INVALID_BODY');
  return segments;
}

/** Names ItemName accepted lately (the same few names start most paths); emptied when it reaches its bound. */
const VALID_NAMES = new Set<string>();
const VALID_NAMES_MAX = 10_000;

/** Throws 400 listing each segment that is not a valid name. */
export function assertValidNames(
  segments: readonly string[],
  where: string,
  code: 'INVALID_PARAMETER' | 'INVALID_BODY',
): void {
  const errors: FieldError[] = [];
  segments.forEach((s, i) => {
    if (VALID_NAMES.has(s)) return;
    const r = ItemName.safeParse(s);
    if (r.success) {
      if (VALID_NAMES.size >= VALID_NAMES_MAX) VALID_NAMES.clear();
      VALID_NAMES.add(s);
    } else
      errors.push({
        path: `${where}.${i}`,
        message: `${JSON.stringify(s.slice(0, 80))} ${r.error.issues[0]!.message}`,
      });
  });
  if (errors.length) throw badRequest(`The path contains an invalid name.`, errors, code);
}
