/** HTTP details of binary downloads: byte ranges and the attachment file name. */

/** Policy on every binary download: the bytes never run as a document of this origin, whatever they are. */
export const DOWNLOAD_CSP = "sandbox; default-src 'none'; frame-ancestors 'none'";

/** An inclusive byte range `[start, end]`. */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * Interprets a `Range` header for a representation of `size` bytes (RFC 9110 §14): a range to send, 'unsatisfiable'
 * (416), or null to send the whole (no header, a malformed one, another unit, or several ranges, which this
 * server answers in full rather than as multipart/byteranges).
 */
export function parseRange(header: string | undefined, size: number): ByteRange | 'unsatisfiable' | null {
  if (!header) return null;
  const m = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!m) return null;
  const [, first, last] = m as unknown as [string, string, string];
  if (first === '' && last === '') return null;
  if (first === '') {
    // Suffix range: the last N bytes.
    const n = Number(last);
    if (n === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - n), end: size - 1 };
  }
  const start = Number(first);
  if (!Number.isSafeInteger(start)) return 'unsatisfiable';
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (last !== '' && Number(last) < start) return null; // invalid: ignore the header
  if (start >= size) return 'unsatisfiable';
  return { start, end };
}

/** True when an `If-Range` header allows a partial answer: absent, or the current strong ETag. */
export function ifRangeAllows(header: string | undefined, etag: string): boolean {
  return header === undefined || header.trim() === etag;
}

/** RFC 5987 `value-chars`: everything outside attr-char is percent-encoded. */
function rfc5987(value: string): string {
  return encodeURIComponent(value).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/**
 * `Content-Disposition: attachment` naming the file by its path below `Assets/` (as the reference system does),
 * with an ASCII `filename` (other characters become `_`) plus `filename*` in UTF-8 when the name is not ASCII.
 */
export function attachmentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const needsExtended = /[^\x20-\x7e]/.test(filename) || /["\\]/.test(filename);
  return needsExtended
    ? `attachment; filename="${ascii}"; filename*=UTF-8''${rfc5987(filename)}`
    : `attachment; filename="${ascii}"`;
}
