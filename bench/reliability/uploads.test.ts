/**
 * Upload abuse: spoofed MIME types, SVG with script, HTML disguised as an image, traversal and control
 * characters in names, pixel bombs, oversize files. Each is refused — and then nothing is stored: no asset, no
 * blob, no temp file — or neutralised: stored under the type its bytes have and only ever served as an
 * attachment with `nosniff` and a sandboxing Content-Security-Policy.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordResult } from './results.js';
import {
  blobKeys,
  call,
  enc,
  httpBytes,
  multipart,
  rawRequest,
  report,
  startHarness,
  type Harness,
} from './support.js';

const LIMIT = 1024 * 1024;

/** CRC-32 of PNG chunks. */
function crc32(buf: Buffer): number {
  let c = ~0;
  for (const b of buf) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
  }
  return ~c >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
}

/** A small PNG file whose header claims `w` × `h` pixels: a decompression bomb's signature. */
function pngBomb(w: number, h: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr.set([8, 0, 0, 0, 0], 8); // 8-bit greyscale
  const rows = zlib.deflateSync(Buffer.alloc((w + 1) * 16)); // the first rows; a real bomb streams zeros
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', rows),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A GIF header claiming the largest logical screen (65535 × 65535). */
function gifBomb(): Buffer {
  const head = Buffer.from('GIF89a', 'latin1');
  const screen = Buffer.from([0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00]);
  const image = Buffer.from([0x2c, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0x00, 0x02, 0x02, 0x44, 0x01, 0x00, 0x3b]);
  return Buffer.concat([head, screen, image]);
}

interface Case {
  name: string;
  /** Asset path as sent in the URL (already percent-encoded where it needs to be). */
  url: string;
  file: { name: string; type: string; data: Buffer };
  fields?: Record<string, string>;
  /** `refused`: a 4xx and nothing stored; `neutralised`: stored, served only as an attachment of its real type. */
  expect: 'refused' | 'neutralised' | 'either';
  /** For neutralised files: the type the bytes have. */
  realType?: RegExp;
}

describe('upload abuse', () => {
  let h: Harness;
  let png: Buffer;

  beforeAll(async () => {
    h = await startHarness({ CMS_MAX_UPLOAD_BYTES: String(LIMIT) });
    png = await sharp({ create: { width: 20, height: 20, channels: 3, background: '#ff0000' } })
      .png()
      .toBuffer();
  });

  afterAll(async () => {
    await h?.close();
  });

  it('refuses or neutralises every abusive upload, and stores nothing for a refused one', async () => {
    const html = Buffer.from('<!DOCTYPE html><html><body><script>alert(document.cookie)</script></body></html>');
    const svgScript = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script><rect width="10" height="10"/></svg>',
    );
    const svgOnload = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect width="10" height="10"/></svg>',
    );
    const svgHref = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><a xlink:href="javascript:alert(1)"><text y="20">x</text></a></svg>',
    );
    const svgForeign = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg"><foreignObject><iframe xmlns="http://www.w3.org/1999/xhtml" src="javascript:alert(1)"/></foreignObject></svg>',
    );
    const svgPlain = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10" fill="red"/></svg>',
    );
    const utf16Html = Buffer.concat([
      Buffer.from([0xff, 0xfe]),
      Buffer.from('<html><script>alert(1)</script></html>', 'utf16le'),
    ]);
    const polyglot = Buffer.concat([
      Buffer.from('GIF89a/*', 'latin1'),
      Buffer.from('*/=1;alert(1);<script>alert(2)</script>'),
    ]);
    const exe = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(200, 0x90)]);

    const cases: Case[] = [
      {
        name: 'PNG sent as text/html',
        url: 'Assets/up/spoof.png',
        file: { name: 'x.html', type: 'text/html', data: png },
        expect: 'neutralised',
        realType: /^image\/png$/,
      },
      {
        name: 'PNG named .html',
        url: 'Assets/up/photo.png.html',
        file: { name: 'p.png', type: 'image/png', data: png },
        expect: 'either',
        realType: /^image\/png$/,
      },
      {
        name: 'HTML disguised as PNG',
        url: 'Assets/up/evil.png',
        file: { name: 'evil.png', type: 'image/png', data: html },
        expect: 'refused',
      },
      {
        name: 'HTML disguised as JPEG',
        url: 'Assets/up/evil.jpg',
        file: { name: 'evil.jpg', type: 'image/jpeg', data: html },
        expect: 'refused',
      },
      {
        name: 'UTF-16 HTML disguised as JPEG',
        url: 'Assets/up/evil16.jpg',
        file: { name: 'e.jpg', type: 'image/jpeg', data: utf16Html },
        expect: 'refused',
      },
      {
        name: 'HTML as assetType=image',
        url: 'Assets/up/evil-image',
        file: { name: 'e', type: 'image/png', data: html },
        fields: { assetType: 'image' },
        expect: 'refused',
      },
      {
        name: 'HTML named .html',
        url: 'Assets/up/page.html',
        file: { name: 'page.html', type: 'text/html', data: html },
        expect: 'either',
        realType: /^text\/html/,
      },
      {
        name: 'SVG with <script>',
        url: 'Assets/up/script.svg',
        file: { name: 's.svg', type: 'image/svg+xml', data: svgScript },
        expect: 'refused',
      },
      {
        name: 'SVG with onload',
        url: 'Assets/up/onload.svg',
        file: { name: 's.svg', type: 'image/svg+xml', data: svgOnload },
        expect: 'refused',
      },
      {
        name: 'SVG with javascript: link',
        url: 'Assets/up/href.svg',
        file: { name: 's.svg', type: 'image/svg+xml', data: svgHref },
        expect: 'refused',
      },
      {
        name: 'SVG with foreignObject',
        url: 'Assets/up/foreign.svg',
        file: { name: 's.svg', type: 'image/svg+xml', data: svgForeign },
        expect: 'refused',
      },
      {
        name: 'SVG with script named .png',
        url: 'Assets/up/svg.png',
        file: { name: 's.png', type: 'image/png', data: svgScript },
        expect: 'refused',
      },
      {
        name: 'inactive SVG',
        url: 'Assets/up/plain.svg',
        file: { name: 'p.svg', type: 'image/svg+xml', data: svgPlain },
        expect: 'either',
        realType: /^image\/svg\+xml/,
      },
      {
        name: 'GIF/JS polyglot',
        url: 'Assets/up/poly.gif',
        file: { name: 'p.gif', type: 'image/gif', data: polyglot },
        expect: 'either',
        realType: /^image\/gif$/,
      },
      {
        name: 'executable named .png',
        url: 'Assets/up/setup.png',
        file: { name: 'setup.png', type: 'image/png', data: exe },
        expect: 'either',
        realType: /^application\//,
      },
      {
        name: 'PNG bomb (2.5 GP)',
        url: 'Assets/up/bomb.png',
        file: { name: 'b.png', type: 'image/png', data: pngBomb(50_000, 50_000) },
        expect: 'refused',
      },
      {
        name: 'PNG bomb (just over the limit)',
        url: 'Assets/up/bomb2.png',
        file: { name: 'b.png', type: 'image/png', data: pngBomb(8000, 6251) },
        expect: 'refused',
      },
      {
        name: 'GIF bomb (4.3 GP)',
        url: 'Assets/up/bomb.gif',
        file: { name: 'b.gif', type: 'image/gif', data: gifBomb() },
        expect: 'refused',
      },
      {
        name: 'oversize (limit + 1 byte)',
        url: 'Assets/up/big.bin',
        file: { name: 'big.bin', type: 'application/octet-stream', data: Buffer.alloc(LIMIT + 1, 7) },
        expect: 'refused',
      },
      {
        name: 'oversize (3× the limit)',
        url: 'Assets/up/bigger.bin',
        file: { name: 'b.bin', type: 'application/octet-stream', data: Buffer.alloc(LIMIT * 3, 7) },
        expect: 'refused',
      },
      {
        name: 'empty file',
        url: 'Assets/up/empty.bin',
        file: { name: 'e.bin', type: 'application/octet-stream', data: Buffer.alloc(0) },
        expect: 'refused',
      },
      {
        name: 'traversal in the name',
        url: `Assets/up/${enc('../../../etc/passwd')}`,
        file: { name: 'passwd', type: 'text/plain', data: Buffer.from('root:x:0:0') },
        expect: 'refused',
      },
      {
        name: 'encoded dot-dot name',
        url: 'Assets/up/%2e%2e',
        file: { name: 'x', type: 'text/plain', data: Buffer.from('x') },
        expect: 'refused',
      },
      {
        name: 'dot-dot folder',
        url: 'Assets/up/../../x.txt',
        file: { name: 'x', type: 'text/plain', data: Buffer.from('x') },
        expect: 'refused',
      },
      // A backslash is only a character of a name here (blobs are stored by id); the download's plain filename drops it.
      {
        name: 'backslash traversal',
        url: `Assets/up/${enc('..\\..\\x.txt')}`,
        file: { name: 'x', type: 'text/plain', data: Buffer.from('x') },
        expect: 'either',
        realType: /^text\/plain/,
      },
      {
        name: 'NUL in the name',
        url: 'Assets/up/a%00.png',
        file: { name: 'x', type: 'image/png', data: png },
        expect: 'refused',
      },
      {
        name: 'newline in the name',
        url: 'Assets/up/a%0d%0aSet-Cookie%3A%20x.png',
        file: { name: 'x', type: 'image/png', data: png },
        expect: 'refused',
      },
      {
        name: 'control character in the name',
        url: 'Assets/up/a%01b%1f.png',
        file: { name: 'x', type: 'image/png', data: png },
        expect: 'refused',
      },
      {
        name: 'bidi override in the name',
        url: 'Assets/up/%E2%80%AEgnp.exe',
        file: { name: 'x', type: 'image/png', data: png },
        expect: 'either',
        realType: /^image\/png$/,
      },
      {
        name: 'traversal in the part filename',
        url: 'Assets/up/named-by-url.png',
        file: { name: '../../../../tmp/folio-escaped.png', type: 'image/png', data: png },
        expect: 'neutralised',
        realType: /^image\/png$/,
      },
      {
        name: 'traversal in the path field',
        url: 'Assets/up/field.png',
        file: { name: 'x', type: 'image/png', data: png },
        fields: { path: 'Assets/up/../../../etc/field.png' },
        expect: 'refused',
      },
      {
        name: 'upload outside the library',
        url: 'up/outside.png',
        file: { name: 'x', type: 'image/png', data: png },
        expect: 'refused',
      },
    ];

    const outcomes: { name: string; status: number; verdict: string }[] = [];
    const problems: string[] = [];
    for (const c of cases) {
      const blobsBefore = blobKeys(h.dataDir).length;
      const mp = multipart(c.fields ?? {}, c.file);
      // A raw request: the server may answer (413) and close while the client is still sending, and the answer
      // must still be read.
      const raw = await rawRequest(
        h.port,
        httpBytes({
          method: 'POST',
          path: `/cms/rest/assets/binary/${c.url}`,
          headers: { authorization: h.auth.Admin!, 'content-type': mp.contentType },
          body: mp.body,
          port: h.port,
        }),
        { timeoutMs: 30_000 },
      );
      const text = raw.body.toString();
      const res = { status: raw.status ?? 0, text, json: <T>() => JSON.parse(text) as T };
      const refused = res.status >= 400 && res.status < 500;
      const stored = res.status === 201;
      outcomes.push({ name: c.name, status: res.status, verdict: refused ? 'refused' : stored ? 'stored' : 'other' });
      if (res.status >= 500 || (!refused && !stored))
        problems.push(`${c.name}: ${res.status} ${res.text.slice(0, 200)}`);
      if (c.expect === 'refused' && !refused) problems.push(`${c.name}: expected a refusal, got ${res.status}`);
      if (c.expect === 'neutralised' && !stored)
        problems.push(`${c.name}: expected it stored, got ${res.status} ${res.text.slice(0, 200)}`);
      const tmp = path.join(h.dataDir, 'blobs', 'tmp');
      const leftovers = fs.existsSync(tmp) ? fs.readdirSync(tmp) : [];
      if (leftovers.length) problems.push(`${c.name}: temp files left: ${leftovers.join(', ')}`);
      if (refused) {
        if (blobKeys(h.dataDir).length !== blobsBefore)
          problems.push(`${c.name}: refused (${res.status}) but a blob was stored`);
        const meta = await call(h.url, 'GET', `/cms/rest/assets/by-path/${c.url}`);
        if (meta.status === 200) problems.push(`${c.name}: refused but an asset is there`);
      } else if (stored) {
        const meta = res.json<{ name: string; image?: { type: string }; file?: { type: string } }>();
        const type = meta.image?.type ?? meta.file?.type ?? '';
        if (c.realType && !c.realType.test(type)) problems.push(`${c.name}: stored as ${type}`);
        if (c.file.name.includes('..') && meta.name.includes('..'))
          problems.push(`${c.name}: the part's filename became the name`);
        const dl = await fetch(`${h.url}/cms/rest/assets/binary/${c.url}`, {
          headers: { authorization: h.auth.Admin! },
        });
        await dl.arrayBuffer();
        const disposition = dl.headers.get('content-disposition') ?? '';
        const csp = dl.headers.get('content-security-policy') ?? '';
        if (!disposition.startsWith('attachment'))
          problems.push(`${c.name}: served with Content-Disposition "${disposition}"`);
        const plainName = /filename="([^"]*)"/.exec(disposition)?.[1] ?? '';
        if ([...plainName].some((ch) => ch === '\\' || ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f))
          problems.push(`${c.name}: download filename "${plainName}"`);
        if (dl.headers.get('x-content-type-options') !== 'nosniff') problems.push(`${c.name}: served without nosniff`);
        if (!/sandbox/.test(csp) || !/default-src 'none'/.test(csp))
          problems.push(`${c.name}: served with CSP "${csp}"`);
        if (c.realType && !c.realType.test(dl.headers.get('content-type') ?? '')) {
          problems.push(`${c.name}: served as ${dl.headers.get('content-type')}`);
        }
      }
    }

    // Nothing anywhere in the data dir but the database and blob files, and nothing escaped it.
    const stray: string[] = [];
    const walk = (dir: string) => {
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, e.name);
        const rel = path.relative(h.dataDir, p);
        if (e.isDirectory()) walk(p);
        else if (!/^folio\.db(-wal|-shm)?$/.test(rel) && !/^blobs\/[0-9a-f]{2}\/[0-9a-f]{2}\/[0-9a-f]{32}$/.test(rel))
          stray.push(rel);
      }
    };
    walk(h.dataDir);
    if (fs.existsSync('/tmp/folio-escaped.png')) stray.push('/tmp/folio-escaped.png');
    if (stray.length) problems.push(`files where none should be: ${stray.join(', ')}`);

    report(`uploads: ${outcomes.map((o) => `${o.name} → ${o.status}`).join('; ')}`);
    recordResult('uploads', { cases: outcomes, problems });
    expect(problems).toEqual([]);
  });
});
