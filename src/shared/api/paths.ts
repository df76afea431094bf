/** URL builders for the by-path resources. Each segment is percent-encoded; `/` separates segments. */
import type { LeaseKind } from './leases.js';

export const API_BASE = '/cms/rest';
/** The URL of the live event stream (Server-Sent Events). */
export const EVENTS_URL = `${API_BASE}/events`;
/** The URL of full-text search. */
export const SEARCH_URL = `${API_BASE}/search`;
/** First segment of every asset path. */
export const ASSET_LIBRARY = 'Assets';

const enc = (segments: readonly string[]) => segments.map(encodeURIComponent).join('/');

/** Splits a by-path path (`site/folder/name`) into segments, dropping empty ones. */
export function splitPath(path: string): string[] {
  return path.split('/').filter((s) => s.length > 0);
}

/** `/cms/rest/folders/by-path/<site>/<path…>/<name>` (also `Assets/…` asset folders). */
export function folderHref(segments: readonly string[]): string {
  return `${API_BASE}/folders/by-path/${enc(segments)}`;
}

/** `/cms/rest/pages/by-path/<site>/<folderPath…>/<name>`. */
export function pageHref(segments: readonly string[]): string {
  return `${API_BASE}/pages/by-path/${enc(segments)}`;
}

/** `/cms/rest/assets/by-path/Assets/<folder…>/<name>`. */
export function assetHref(segments: readonly string[]): string {
  return `${API_BASE}/assets/by-path/${enc(segments)}`;
}

/** `/cms/rest/assets/binary/Assets/<folder…>/<name>`. */
export function assetBinaryHref(segments: readonly string[]): string {
  return `${API_BASE}/assets/binary/${enc(segments)}`;
}

/** Segments of a resource href, whatever its kind (`/cms/rest/<kind>/by-path/a/b` → ['a', 'b']). */
export function segmentsOfHref(href: string): string[] {
  const m = /\/(?:folders|pages|assets)\/(?:by-path|binary)\/(.*)$/.exec(href.split('?')[0] ?? '');
  if (!m) return [];
  return splitPath(m[1]!).map((s) => {
    try {
      return decodeURIComponent(s);
    } catch {
      return s;
    }
  });
}

/** `/cms/rest/leases/<kind>/<segments…>`: the lease and presence of an item (each segment percent-encoded). */
export function leaseHref(kind: LeaseKind, segments: readonly string[]): string {
  return `${API_BASE}/leases/${kind}/${segments.map(encodeURIComponent).join('/')}`;
}
