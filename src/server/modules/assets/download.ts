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

const header = (description: string, schema: Record<string, unknown> = { type: 'string' }) => ({
  description,
  ...schema,
});
/** Headers of every answer with (part of) a file. */
const FILE_HEADERS = {
  ETag: header('Strong ETag of the file (its SHA-256); send it as If-None-Match or If-Range'),
  'Content-Length': header('Bytes in this answer', { type: 'integer', minimum: 0 }),
  'Content-Disposition': header('`attachment`, named after the asset path below `Assets/`'),
  'Accept-Ranges': header('Byte ranges are taken (`Range: bytes=…`)', { type: 'string', enum: ['bytes'] }),
};
/** The file itself, of its own stored type (sniffed from its bytes at upload): a binary download for clients. */
const FILE_CONTENT = { '*/*': { schema: { type: 'string', format: 'binary' } } };

/**
 * The OpenAPI responses of a file download (route `config.openApiResponses`): the file's own media type (not
 * JSON), the partial answer of a `Range` request, the 304 of a matching `If-None-Match`, and their headers.
 */
export const DOWNLOAD_RESPONSES: Record<string, Record<string, unknown>> = {
  200: { description: 'The whole file, of its stored type', headers: FILE_HEADERS, content: FILE_CONTENT },
  206: {
    description: 'The byte range asked for by `Range` (one range; several are answered in full with 200)',
    headers: {
      ...FILE_HEADERS,
      'Content-Range': header('The range sent and the whole size: `bytes <first>-<last>/<size>`'),
    },
    content: FILE_CONTENT,
  },
  304: {
    type: 'null',
    description: 'Not modified: `If-None-Match` names the current ETag (no body)',
    headers: { ETag: FILE_HEADERS.ETag },
  },
  416: {
    description: 'Problem details (416): the range starts past the end of the file',
    headers: { 'Content-Range': header('The whole size: `bytes */<size>`') },
  },
};
