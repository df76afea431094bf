import { Transform, type TransformCallback } from 'node:stream';
import { fileTypeFromBuffer } from 'file-type';
import { AppError, badRequest } from '../../lib/errors.js';

/** Bytes from the start of an upload that decide its type (magic numbers and markup at the top). */
export const SNIFF_BYTES = 16 * 1024;

/** Raster formats stored as images: sharp reads their dimensions and makes thumbnails of them. */
export const RASTER_IMAGE_TYPES: ReadonlySet<string> = new Set([
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/avif',
  'image/tiff',
]);

/** What the bytes are, whatever the name or the client's Content-Type claim. */
export type ContentKind = 'raster' | 'flash' | 'svg' | 'html' | 'xml' | 'text' | 'binary';

export interface Sniffed {
  kind: ContentKind;
  /** MIME type stored and sent on download. */
  mime: string;
  /** Canonical extension of the detected format, without a dot (`png`, `pdf`); null when the bytes do not say. */
  ext: string | null;
}

/** Extensions a markup document (HTML, SVG, XML) may carry; any other extension on markup bytes is a disguise. */
const MARKUP_EXTENSIONS: ReadonlySet<string> = new Set([
  'html',
  'htm',
  'xhtml',
  'xht',
  'shtml',
  'svg',
  'xml',
  'xsl',
  'xslt',
  'rss',
  'atom',
  'kml',
  'gpx',
]);

/** Types of plain-text files, which carry no magic number, by the name's extension. */
const TEXT_TYPES: Readonly<Record<string, string>> = {
  txt: 'text/plain',
  text: 'text/plain',
  log: 'text/plain',
  md: 'text/markdown',
  markdown: 'text/markdown',
  csv: 'text/csv',
  tsv: 'text/tab-separated-values',
  json: 'application/json',
  css: 'text/css',
  js: 'text/javascript',
  mjs: 'text/javascript',
  ics: 'text/calendar',
  vtt: 'text/vtt',
  srt: 'text/plain',
  yaml: 'application/yaml',
  yml: 'application/yaml',
};

/** The extension of a name, lower-cased, without the dot; '' when there is none. */
export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 && dot < name.length - 1 ? name.slice(dot + 1).toLowerCase() : '';
}

/** Decodes the head of a text file (UTF-8, or UTF-16 with a byte-order mark); null when it is not text. */
function decodeText(head: Buffer): string | null {
  const utf16 =
    head[0] === 0xff && head[1] === 0xfe
      ? Buffer.from(head.subarray(2, head.length - (head.length % 2)))
      : head[0] === 0xfe && head[1] === 0xff
        ? Buffer.from(head.subarray(2, head.length - (head.length % 2))).swap16()
        : null;
  if (utf16) {
    const text = utf16.toString('utf16le');
    // eslint-disable-next-line no-control-regex
    const controls = (text.match(/[\u0000-\u0008\u000e-\u001f]/g) ?? []).length;
    return controls > text.length / 100 + 1 ? null : text;
  }
  const body = head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? head.subarray(3) : head;
  let controls = 0;
  for (const b of body) {
    if (b === 0) return null;
    if (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d && b !== 0x0c) controls++;
  }
  if (controls > body.length / 100 + 1) return null;
  // A multi-byte character cut at the end of the head is not a reason to call it binary.
  const text = new TextDecoder('utf-8', { fatal: false }).decode(body);
  const bad = (text.match(/\uFFFD/g) ?? []).length;
  return bad > 2 ? null : text;
}

const HTML_START =
  /^(<!doctype\s+html|<html|<head|<body|<script|<iframe|<frameset|<h1|<div|<font|<table|<a[\s>]|<style|<title|<b[\s>]|<br|<p[\s>])/;
const HTML_ANYWHERE = /<(html|head|body|script|iframe|frameset|object|embed)[\s>/]/;
const SVG_ANYWHERE = /<svg[\s>/]/;

/** Markup kind of a text head that starts with `<` (after a byte-order mark and white space), else null. */
function markupKind(text: string): 'html' | 'svg' | 'xml' | null {
  const t = text
    .replace(/^\uFEFF/, '')
    .trimStart()
    .toLowerCase();
  if (!t.startsWith('<')) return null;
  if (HTML_START.test(t)) return 'html';
  if (SVG_ANYWHERE.test(t) && !/<html[\s>]/.test(t)) return 'svg';
  if (HTML_ANYWHERE.test(t)) return 'html';
  return 'xml';
}

/**
 * Decides what the bytes are from the head of a file: magic numbers (file-type), then markup and text. The
 * name only chooses the MIME type of plain text, which has no signature.
 */
export async function sniff(head: Buffer, name: string): Promise<Sniffed> {
  // A byte-order mark followed by text is text: file-type would read UTF-16's FF FE as an MPEG audio frame.
  const hasBom = (head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff);
  const detected = head.length && !(hasBom && decodeText(head) !== null) ? await fileTypeFromBuffer(head) : undefined;
  if (detected && detected.mime !== 'application/xml') {
    if (RASTER_IMAGE_TYPES.has(detected.mime)) return { kind: 'raster', mime: detected.mime, ext: detected.ext };
    if (detected.mime === 'application/x-shockwave-flash') return { kind: 'flash', mime: detected.mime, ext: 'swf' };
    return { kind: 'binary', mime: detected.mime, ext: detected.ext };
  }
  const text = decodeText(head);
  if (text === null) return { kind: 'binary', mime: 'application/octet-stream', ext: null };
  const markup = markupKind(text) ?? (detected ? 'xml' : null);
  if (markup === 'html') return { kind: 'html', mime: 'text/html', ext: 'html' };
  if (markup === 'svg') return { kind: 'svg', mime: 'image/svg+xml', ext: 'svg' };
  if (markup === 'xml') return { kind: 'xml', mime: 'application/xml', ext: 'xml' };
  return { kind: 'text', mime: TEXT_TYPES[extensionOf(name)] ?? 'text/plain', ext: null };
}

const unsupported = (detail: string) => new AppError(415, 'UNSUPPORTED_MEDIA_TYPE', detail);

/**
 * Refuses (415) markup whose name claims another type: HTML, SVG or XML named `.png`, `.pdf`, `.txt`… is how
 * active content is smuggled past extension checks. Markup named as markup, or without an extension, is stored
 * as a plain file (always downloaded as an attachment).
 */
export function assertNotDisguised(sniffed: Sniffed, name: string): void {
  if (sniffed.kind !== 'html' && sniffed.kind !== 'svg' && sniffed.kind !== 'xml') return;
  const ext = extensionOf(name);
  if (ext === '' || MARKUP_EXTENSIONS.has(ext)) return;
  const what = sniffed.kind === 'html' ? 'HTML' : sniffed.kind === 'svg' ? 'SVG' : 'XML';
  throw unsupported(
    `The file's content is ${what}, but its name "${name}" claims a .${ext} file. ` +
      `Markup is accepted only under a markup name (e.g. .${sniffed.ext}).`,
  );
}

/** Active content refused in SVG: scripts, event handlers, script URLs, embedded documents, entity declarations. */
const SVG_ACTIVE =
  /<script|<foreignobject|<iframe|<embed|<object|<handler|<!entity|javascript:|vbscript:|data:text\/html|\son[a-z]+\s*=/;
/** Characters of a chunk kept to catch a pattern cut by a chunk boundary. */
const SCAN_OVERLAP = 256;

/** Normalises SVG text for scanning: lower case, numeric character references decoded, URL white space removed. */
function normaliseSvg(text: string): string {
  return text
    .toLowerCase()
    .replace(/&#x0*([0-9a-f]{1,6});?/g, (_m, hex: string) => safeChar(parseInt(hex, 16)))
    .replace(/&#0*([0-9]{1,7});?/g, (_m, dec: string) => safeChar(parseInt(dec, 10)))
    .replace(/&(tab|newline);/g, '')
    .replace(/(java|vb)[\t\n\r]*s[\t\n\r]*c[\t\n\r]*r[\t\n\r]*i[\t\n\r]*p[\t\n\r]*t[\t\n\r]*:/g, '$1script:');
}

function safeChar(code: number): string {
  return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code).toLowerCase() : '';
}

/**
 * Pass-through stream that inspects an upload while it streams to the blob store: it keeps the first
 * SNIFF_BYTES, decides the type from them, refuses (415) disguised markup as soon as the head is in, scans the
 * whole of an SVG for active content, and refuses an empty file (400). A refusal errors the stream, so the blob
 * store discards what it wrote.
 */
export class UploadInspector extends Transform {
  private head: Buffer[] = [];
  private headLength = 0;
  private svgTail = '';
  /** Set once the head is in. */
  sniffed: Sniffed | null = null;
  /** Bytes seen. */
  bytes = 0;

  constructor(private readonly name: string) {
    super();
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, cb: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.sniffed) {
      // Past the head only an SVG is still read (synchronously: no promise per chunk of a large file).
      if (this.sniffed.kind === 'svg') {
        try {
          this.scan(chunk);
        } catch (err) {
          cb(err as Error);
          return;
        }
      }
      cb(null, chunk);
      return;
    }
    this.head.push(chunk);
    this.headLength += chunk.length;
    if (this.headLength < SNIFF_BYTES) {
      cb(null, chunk);
      return;
    }
    this.decide().then(() => cb(null, chunk), cb);
  }

  override _flush(cb: TransformCallback): void {
    if (this.bytes === 0) {
      cb(badRequest('The file is empty.', [{ path: 'file', message: 'is empty (0 bytes)' }]));
      return;
    }
    // Files smaller than the head are decided here; bigger ones were decided, and scanned, on the way.
    const done = this.sniffed ? Promise.resolve() : this.decide();
    done.then(() => cb(), cb);
  }

  private async decide(): Promise<void> {
    const head = Buffer.concat(this.head);
    this.head = [];
    this.sniffed = await sniff(head.subarray(0, SNIFF_BYTES), this.name);
    assertNotDisguised(this.sniffed, this.name);
    if (this.sniffed.kind === 'svg') {
      // The scan reads bytes as single-byte text; UTF-16 would hide every pattern behind NUL bytes.
      if (head[0] === 0xff || head[0] === 0xfe) throw unsupported('SVG files must be encoded as UTF-8, not UTF-16.');
      this.scan(head);
    }
  }

  private scan(chunk: Buffer): void {
    const text = this.svgTail + normaliseSvg(chunk.toString('latin1'));
    const hit = SVG_ACTIVE.exec(text);
    if (hit) {
      throw unsupported(
        `The SVG contains active content (${hit[0].trim()}…). SVG files with scripts, event handlers, ` +
          'script URLs, embedded documents or entity declarations are refused.',
      );
    }
    this.svgTail = text.slice(-SCAN_OVERLAP);
  }
}
