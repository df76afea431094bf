import { THUMBNAIL_PREFIX } from '../../shared/api/assets.js';
import { ASSET_LIBRARY } from '../../shared/api/paths.js';

/** At most this many references are kept per widget: more is not content a person wrote. */
export const MAX_REFS_PER_WIDGET = 200;
/** A path longer than this is no asset path (names and depth are bounded well below). */
const MAX_REF_LENGTH = 2000;

// The file or metadata URL of a library item, relative or absolute, up to where a URL ends in markup or CSS.
// `(`, `)` and `'` stay in: encodeURIComponent leaves them in names ("photo (1).png"); trimmed variants are kept too.
const ASSET_URL = /\/cms\/rest\/assets\/(?:binary|by-path)\/([^\s"<>?#\\]+)/g;
const ENTITY = /&(?:#(\d{1,7})|#x([0-9a-f]{1,6})|(amp|quot|apos|lt|gt|sol));/gi;
const NAMED: Record<string, string> = { amp: '&', quot: '"', apos: "'", lt: '<', gt: '>', sol: '/' };

function decodeEntities(s: string): string {
  if (!s.includes('&')) return s;
  return s.replace(ENTITY, (whole, dec: string | undefined, hex: string | undefined, name: string | undefined) => {
    const code = dec !== undefined ? Number(dec) : hex !== undefined ? parseInt(hex, 16) : -1;
    if (code >= 0) return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    return NAMED[name!.toLowerCase()] ?? whole;
  });
}

function decodeSegment(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** `Assets/a/b.png` from the URL-encoded part after `/binary/` or `/by-path/`; null when it is not in the library. */
function pathOfEncoded(encoded: string): string | null {
  const segments = encoded
    .split('/')
    .filter((s) => s.length > 0)
    .map(decodeSegment);
  return segments.length > 1 && segments[0] === ASSET_LIBRARY ? segments.join('/') : null;
}

/** The library paths one string refers to: asset URLs anywhere in it (markup, srcset, CSS), or itself a path. */
function refsInString(raw: string, out: Set<string>): void {
  const s = decodeEntities(raw);
  for (const m of s.matchAll(ASSET_URL)) {
    // A URL ends where markup or CSS around it goes on: keep each reading, since a name may end in `)` or `'`.
    let encoded = m[1]!;
    for (;;) {
      const path = pathOfEncoded(encoded);
      if (path) out.add(path);
      const trimmed = encoded.replace(/[)',;]$/, '');
      if (trimmed === encoded) break;
      encoded = trimmed;
    }
  }
  const whole = s.trim().replace(/^\/+|\/+$/g, '');
  if (whole.startsWith(`${ASSET_LIBRARY}/`) && !/[\n\r\t]/.test(whole)) {
    out.add(
      whole
        .split('/')
        .filter((x) => x.length > 0)
        .join('/'),
    );
  }
}

function collect(value: unknown, out: Set<string>): void {
  if (typeof value === 'string') refsInString(value, out);
  else if (Array.isArray(value)) for (const v of value) collect(v, out);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) collect(v, out);
}

/**
 * The asset library paths (`Assets/<folder…>/<name>`, decoded) that a widget's local fields refer to: images and
 * links in rich text and raw HTML (`src`, `href`, `srcset`, any attribute or CSS `url()` holding an asset's file or
 * metadata URL, relative or absolute), and fields whose whole value is a library path. A thumbnail URL is kept as
 * it is (`…/thumb_<name>`); {@link usagePathsOf} matches it to its image. `fields` is the stored JSON text.
 */
export function assetRefsOf(fields: string | null | undefined): string[] {
  // Every asset URL and path holds the library's name as it is (it needs no encoding).
  if (!fields?.includes(ASSET_LIBRARY)) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(fields);
  } catch {
    return [];
  }
  const out = new Set<string>();
  collect(parsed, out);
  return [...out].filter((p) => p.length <= MAX_REF_LENGTH).slice(0, MAX_REFS_PER_WIDGET);
}

/** The stored reference paths that mean the asset at `segments`: its own path, and its thumbnail's. */
export function usagePathsOf(segments: readonly string[]): string[] {
  const name = segments[segments.length - 1]!;
  return [segments.join('/'), [...segments.slice(0, -1), `${THUMBNAIL_PREFIX}${name}`].join('/')];
}

/** True when two lists of references hold the same paths (in any order). */
export function sameRefs(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  const set = new Set(a);
  return b.every((p) => set.has(p));
}
