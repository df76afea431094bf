import { THUMBNAIL_PREFIX } from '../../shared/api/assets.js';
import { ASSET_LIBRARY } from '../../shared/api/paths.js';
import { ASSET_TYPES } from '../../shared/registry/index.js';

/** At most this many references are kept per widget: more is not content a person wrote. */
export const MAX_REFS_PER_WIDGET = 200;
/** A path longer than this is no asset path (names and depth are bounded well below). */
const MAX_REF_LENGTH = 2000;

// The file or metadata URL of a library item, relative or absolute, up to where a URL ends in markup or CSS.
// `(`, `)` and `'` stay in: encodeURIComponent leaves them in names ("photo (1).png"); trimmed variants are kept too.
const ASSET_URL = /\/cms\/rest\/assets\/(?:binary|by-path)\/([^\s"<>?#\\]+)/g;
// The address of a page or folder (the link dialog's page picker stores `pageHref`), relative or absolute.
const SITE_URL = /\/cms\/rest\/(?:pages|folders)\/by-path\/([^\s"<>?#\\]+)/g;
// Any of the above, for rewriting: the part before the path, and the path up to where a URL ends.
const ANY_URL = /(\/cms\/rest\/(?:assets\/(?:binary|by-path)|pages\/by-path|folders\/by-path)\/)([^\s"<>?#\\]+)/g;

/** Keys of fields whose whole value is a site path (`demo/news`): the registry's `site-path` fields. */
export const SITE_PATH_KEYS: ReadonlySet<string> = new Set(
  ASSET_TYPES.flatMap((t) => t.fields.filter((f) => f.editor === 'site-path').map((f) => f.key)),
);
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

/**
 * The item path from the URL-encoded part after `/binary/` or `/by-path/`: `Assets/a/b.png` for `assets` URLs
 * (null when it is not in the library), `site/…` for pages and folders.
 */
function pathOfEncoded(encoded: string, library: boolean): string | null {
  const segments = encoded
    .split('/')
    .filter((s) => s.length > 0)
    .map(decodeSegment);
  if (library) return segments.length > 1 && segments[0] === ASSET_LIBRARY ? segments.join('/') : null;
  return segments.length > 0 ? segments.join('/') : null;
}

/** The paths of the item URLs of `pattern` in `s`, each reading kept (a name may end in `)` or `'`). */
function urlRefs(s: string, pattern: RegExp, library: boolean, out: Set<string>): void {
  for (const m of s.matchAll(pattern)) {
    // A URL ends where markup or CSS around it goes on: keep each reading, since a name may end in `)` or `'`.
    let encoded = m[1]!;
    for (;;) {
      const path = pathOfEncoded(encoded, library);
      if (path) out.add(path);
      const trimmed = encoded.replace(/[)',;]$/, '');
      if (trimmed === encoded) break;
      encoded = trimmed;
    }
  }
}

/** The segments of a string that is itself a path (`/Assets/a/b.png`, `demo/news`); null when it holds a break. */
function wholePath(s: string): string[] | null {
  if (/[\n\r\t]/.test(s)) return null;
  const segments = s.split('/').filter((x) => x.trim().length > 0);
  return segments.length ? segments.map((x) => x.trim()) : null;
}

/**
 * The paths one string refers to: asset, page and folder URLs anywhere in it (markup, srcset, CSS), or itself a
 * library path, or (a site-path field's value) a site path.
 */
function refsInString(raw: string, sitePath: boolean, out: Set<string>): void {
  const s = decodeEntities(raw);
  urlRefs(s, ASSET_URL, true, out);
  urlRefs(s, SITE_URL, false, out);
  const whole = wholePath(s);
  if (whole && (sitePath || (whole[0] === ASSET_LIBRARY && whole.length > 1))) out.add(whole.join('/'));
}

function collect(value: unknown, out: Set<string>, key?: string): void {
  if (typeof value === 'string') refsInString(value, key !== undefined && SITE_PATH_KEYS.has(key), out);
  else if (Array.isArray(value)) for (const v of value) collect(v, out);
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) collect(v, out, k);
}

/** True when `text` may hold a reference at all (a cheap test before parsing). */
function mayRefer(text: string): boolean {
  // Every asset URL and path holds the library's name as it is (it needs no encoding); so do page URLs `by-path`.
  if (text.includes(ASSET_LIBRARY) || text.includes('/by-path/')) return true;
  for (const k of SITE_PATH_KEYS) if (text.includes(`"${k}"`)) return true;
  return false;
}

/**
 * The item paths (decoded segments joined by `/`) that stored content refers to — a widget's local fields, a
 * shared asset's fields, a template's regions: images and links in rich text and raw HTML (`src`, `href`,
 * `srcset`, any attribute or CSS `url()` holding an asset's file or metadata URL or a page's or folder's by-path
 * URL, relative or absolute), fields whose whole value is a library path (`Assets/…`), and site-path fields
 * (`site_path`, `…_page_result`: `demo/news`). A thumbnail URL is kept as it is (`…/thumb_<name>`);
 * {@link usagePathsOf} matches it to its image. `text` is the stored JSON text.
 */
export function contentRefsOf(text: string | null | undefined): string[] {
  if (!text || !mayRefer(text)) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return [];
  }
  const out = new Set<string>();
  collect(parsed, out);
  return [...out].filter((p) => p.length <= MAX_REF_LENGTH).slice(0, MAX_REFS_PER_WIDGET);
}

/** The asset library paths among {@link contentRefsOf} (what migration 0210 stored). */
export function assetRefsOf(fields: string | null | undefined): string[] {
  return contentRefsOf(fields).filter((p) => p.startsWith(`${ASSET_LIBRARY}/`));
}

/** An item's path changed from `from` to `to` (segments): what {@link rewriteRefs} replaces. */
export interface PathChange {
  from: readonly string[];
  to: readonly string[];
}

function sameSegment(encoded: string, name: string): boolean {
  return decodeSegment(decodeEntities(encoded)) === name;
}

/**
 * The URL-encoded path `encoded` (as it stands in a URL) with its leading segments `change.from` replaced by
 * `change.to`; null when it does not begin with them. The last segment of the URL may carry what ends it in
 * markup or CSS (`)`, `'`, `,`, `;`), which is kept.
 */
function rewriteEncoded(encoded: string, change: PathChange): string | null {
  const segs = encoded.split('/');
  const k = change.from.length;
  if (segs.length < k) return null;
  for (let i = 0; i < k - 1; i++) if (!sameSegment(segs[i]!, change.from[i]!)) return null;
  let last = segs[k - 1]!;
  let tail = '';
  if (!sameSegment(last, change.from[k - 1]!)) {
    const m = segs.length === k ? /^(.*?)([)',;]+)$/.exec(last) : null;
    if (!m || !sameSegment(m[1]!, change.from[k - 1]!)) return null;
    last = m[1]!;
    tail = m[2]!;
  }
  return [change.to.map(encodeURIComponent).join('/') + tail, ...segs.slice(k)].join('/');
}

function startsWith(segments: readonly string[], prefix: readonly string[]): boolean {
  return segments.length >= prefix.length && prefix.every((p, i) => segments[i] === p);
}

/** One string with every reference to `changes` rewritten (URLs, and the whole value when it is a path). */
function rewriteString(s: string, sitePath: boolean, changes: readonly PathChange[]): string {
  let out = s.replace(ANY_URL, (whole, prefix: string, encoded: string) => {
    for (const c of changes) {
      const rewritten = rewriteEncoded(encoded, c);
      if (rewritten !== null) return prefix + rewritten;
    }
    return whole;
  });
  const segments = wholePath(out);
  if (segments && (sitePath || segments[0] === ASSET_LIBRARY) && !out.includes('/cms/rest/')) {
    const c = changes.find((x) => startsWith(segments, x.from));
    if (c) {
      const [, lead, , trail] = /^(\s*\/*)(.*?)(\/*\s*)$/s.exec(out)!;
      out = lead + [...c.to, ...segments.slice(c.from.length)].join('/') + trail;
    }
  }
  return out;
}

function rewriteValue(value: unknown, changes: readonly PathChange[], key?: string): unknown {
  if (typeof value === 'string') return rewriteString(value, key !== undefined && SITE_PATH_KEYS.has(key), changes);
  if (Array.isArray(value)) return value.map((v) => rewriteValue(v, changes));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, rewriteValue(v, changes, k)]));
  }
  return value;
}

/**
 * Stored content (JSON text, as {@link contentRefsOf} reads it) with every reference to an item whose path
 * changed — or to anything below it — rewritten to the new path; null when nothing in it changes.
 */
export function rewriteRefs(text: string | null | undefined, changes: readonly PathChange[]): string | null {
  if (!text || !mayRefer(text)) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  const next = JSON.stringify(rewriteValue(parsed, changes));
  return next === JSON.stringify(parsed) ? null : next;
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
