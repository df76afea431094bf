import { hash } from 'node:crypto';
import { preconditionFailed } from './errors.js';

/** A strong ETag of a JSON representation: a hash of its exact bytes (the one-shot `hash`: no Hash object). */
export function etagOf(json: string): string {
  return `"${hash('sha256', json, 'base64url').slice(0, 32)}"`;
}

/**
 * Throws 412 when `ifMatch` was sent and names neither `*` nor the current ETag. Call inside the transaction
 * that writes, with the ETag of the representation as it is now, so check and write are one step.
 */
export function assertIfMatch(ifMatch: string | undefined, currentEtag: string | null): void {
  if (ifMatch === undefined) return;
  const tags = ifMatch.split(',').map((s) => s.trim());
  if (tags.includes('*') && currentEtag !== null) return;
  if (currentEtag !== null && tags.includes(currentEtag)) return;
  throw preconditionFailed();
}

/** The conditional headers of a PUT: `If-Match` (update only that version) and `If-None-Match: *` (create only). */
export interface Preconditions {
  ifMatch?: string;
  ifNoneMatch?: string;
}

/**
 * Throws 412 when a precondition fails: `If-Match` as in assertIfMatch, and `If-None-Match` naming `*` or the
 * current ETag while the item exists (`If-None-Match: *` makes a PUT create-only). Call inside the transaction that
 * writes, with the item locked, so two concurrent creates cannot both pass.
 */
export function assertPreconditions(pre: Preconditions, currentEtag: string | null, what = 'The item'): void {
  assertIfMatch(pre.ifMatch, currentEtag);
  if (pre.ifNoneMatch === undefined || currentEtag === null) return;
  const tags = pre.ifNoneMatch.split(',').map((s) => s.trim());
  if (tags.includes('*') || tags.includes(currentEtag)) {
    throw preconditionFailed(`${what} already exists (If-None-Match).`);
  }
}

/**
 * The error of a create that lost a race to a concurrent one (the database refused the second row): a create-only
 * PUT (`If-None-Match: *`) answers 412 like any PUT that finds the item there; others keep `otherwise` (409).
 */
export function lostCreateRace(pre: Preconditions, what: string, otherwise: Error): Error {
  const createOnly = pre.ifNoneMatch?.split(',').some((t) => t.trim() === '*');
  return createOnly ? preconditionFailed(`${what} already exists (If-None-Match).`) : otherwise;
}

/**
 * True when the list of ETags in `header` names `etag` (weak comparison) or is `*`: an `If-None-Match` that makes a
 * GET answer 304, or an `If-Match` naming a variant (etagForIfMatch).
 */
export function headerNamesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((t) => {
    const tag = t.trim().replace(/^W\//, '');
    return tag === '*' || tag === etag;
  });
}

/**
 * The ETag an `If-Match` is compared with: the current one, or — when the header names one of `variants` (the
 * item's ETag with other check-out fields: a check-out lease is not content, docs/decisions.md) — that one.
 */
export function etagForIfMatch(ifMatch: string | undefined, current: string, variants: () => string[]): string {
  if (ifMatch === undefined || headerNamesEtag(ifMatch, current)) return current;
  return variants().find((v) => headerNamesEtag(ifMatch, v)) ?? current;
}
