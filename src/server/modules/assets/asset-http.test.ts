import { describe, expect, it } from 'vitest';
import { headerNamesEtag } from '../../lib/etag.js';
import { attachmentDisposition, ifRangeAllows, parseRange } from './download.js';
import { assertNotDisguised, extensionOf, sniff } from './sniff.js';
import { HTML_PAGE, image, pdf, SVG_PLAIN, zip } from './assets.fixtures.js';

describe('byte ranges', () => {
  it('reads single ranges, suffixes and open ends, clamped to the size', () => {
    expect(parseRange('bytes=0-9', 100)).toEqual({ start: 0, end: 9 });
    expect(parseRange('bytes=90-', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=-10', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=-1000', 100)).toEqual({ start: 0, end: 99 });
    expect(parseRange('bytes=50-1000', 100)).toEqual({ start: 50, end: 99 });
    expect(parseRange(' bytes = 1 - 2 ', 100)).toEqual({ start: 1, end: 2 });
  });

  it('answers unsatisfiable past the end, and ignores what it does not serve', () => {
    expect(parseRange('bytes=100-', 100)).toBe('unsatisfiable');
    expect(parseRange('bytes=-0', 100)).toBe('unsatisfiable');
    for (const h of [undefined, '', 'bytes=', 'bytes=-', 'items=0-1', 'bytes=5-2', 'bytes=0-1,4-5', 'bytes=a-b']) {
      expect(parseRange(h, 100), String(h)).toBeNull();
    }
  });

  it('checks If-Range and If-None-Match against the strong ETag', () => {
    expect(ifRangeAllows(undefined, '"a"')).toBe(true);
    expect(ifRangeAllows('"a"', '"a"')).toBe(true);
    expect(ifRangeAllows('"b"', '"a"')).toBe(false);
    expect(ifRangeAllows('Wed, 21 Oct 2015 07:28:00 GMT', '"a"')).toBe(false);
    expect(headerNamesEtag('"x", "a"', '"a"')).toBe(true);
    expect(headerNamesEtag('W/"a"', '"a"')).toBe(true);
    expect(headerNamesEtag('*', '"a"')).toBe(true);
    expect(headerNamesEtag('"b"', '"a"')).toBe(false);
    expect(headerNamesEtag(undefined, '"a"')).toBe(false);
  });
});

describe('attachment names', () => {
  it('quotes ASCII names and adds filename* for the others', () => {
    expect(attachmentDisposition('docs/a b.pdf')).toBe('attachment; filename="docs/a b.pdf"');
    expect(attachmentDisposition('ä/ö.pdf')).toBe(
      `attachment; filename="_/_.pdf"; filename*=UTF-8''%C3%A4%2F%C3%B6.pdf`,
    );
    expect(attachmentDisposition(`x/it's "q" (1)*.txt`)).toBe(
      `attachment; filename="x/it's _q_ (1)*.txt"; filename*=UTF-8''x%2Fit%27s%20%22q%22%20%281%29%2A.txt`,
    );
  });
});

describe('sniffing', () => {
  it('names formats by their bytes, not their names', async () => {
    expect(await sniff(await image('png', 2, 2), 'x.txt')).toEqual({ kind: 'raster', mime: 'image/png', ext: 'png' });
    expect(await sniff(await image('jpeg', 2, 2), 'x')).toEqual({ kind: 'raster', mime: 'image/jpeg', ext: 'jpg' });
    expect(await sniff(await image('avif', 2, 2), 'x')).toMatchObject({ kind: 'raster', mime: 'image/avif' });
    expect(await sniff(await image('tiff', 2, 2), 'x')).toMatchObject({ kind: 'raster', mime: 'image/tiff' });
    expect(await sniff(pdf(), 'x.png')).toEqual({ kind: 'binary', mime: 'application/pdf', ext: 'pdf' });
    expect(await sniff(zip(), 'x')).toEqual({ kind: 'binary', mime: 'application/zip', ext: 'zip' });
    expect(await sniff(SVG_PLAIN, 'x')).toEqual({ kind: 'svg', mime: 'image/svg+xml', ext: 'svg' });
    expect(await sniff(HTML_PAGE, 'x')).toEqual({ kind: 'html', mime: 'text/html', ext: 'html' });
    expect(await sniff(Buffer.from('<?xml version="1.0"?><feed/>'), 'x')).toMatchObject({ kind: 'xml' });
    expect(await sniff(Buffer.from('<div>fragment</div>'), 'x')).toMatchObject({ kind: 'html' });
    expect(await sniff(Buffer.from('hello'), 'notes.md')).toEqual({ kind: 'text', mime: 'text/markdown', ext: null });
    expect(await sniff(Buffer.from('hello'), 'notes')).toEqual({ kind: 'text', mime: 'text/plain', ext: null });
    expect(await sniff(Buffer.from('a <script> in prose'), 'notes.txt')).toMatchObject({ kind: 'text' });
    expect(await sniff(Buffer.from([0, 159, 146, 150]), 'x')).toEqual({
      kind: 'binary',
      mime: 'application/octet-stream',
      ext: null,
    });
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('<html><body>x</body></html>', 'utf16le')]);
    expect(await sniff(utf16, 'x')).toMatchObject({ kind: 'html' });
  });

  it('refuses markup under a name of another type only', async () => {
    const html = await sniff(HTML_PAGE, 'x');
    expect(() => assertNotDisguised(html, 'photo.png')).toThrow(/HTML.*\.png/);
    expect(() => assertNotDisguised(html, 'page.HTML')).not.toThrow();
    expect(() => assertNotDisguised(html, 'page')).not.toThrow();
    expect(() => assertNotDisguised(html, 'notes.txt')).toThrow();
    const png = await sniff(await image('png', 2, 2), 'x');
    expect(() => assertNotDisguised(png, 'x.html')).not.toThrow();
  });

  it('takes the last extension, lower-cased', () => {
    expect(extensionOf('a.tar.GZ')).toBe('gz');
    expect(extensionOf('.hidden')).toBe('');
    expect(extensionOf('trailing.')).toBe('');
    expect(extensionOf('none')).toBe('');
  });
});
