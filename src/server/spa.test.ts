import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompressDir } from '../../scripts/precompress.js';
import { createTestApp, type TestApp } from './test/harness.js';

/** The built SPA as the server sends it: hashed files cached for good, text precompressed by the build. */
describe('serving the SPA', () => {
  let t: TestApp;
  let webDir: string;
  const script = `export const greeting = ${JSON.stringify('hello '.repeat(2000))};\n`;
  const html = `<!doctype html><html><head><title>Folio</title></head><body>${'<div></div>'.repeat(200)}</body></html>`;

  beforeAll(async () => {
    webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-web-'));
    fs.mkdirSync(path.join(webDir, 'assets'));
    fs.writeFileSync(path.join(webDir, 'index.html'), html);
    fs.writeFileSync(path.join(webDir, 'assets', 'app-abc123.js'), script);
    fs.writeFileSync(path.join(webDir, 'assets', 'tiny-abc123.js'), 'export {};\n');
    expect(precompressDir(webDir)).toBe(2);
    t = await createTestApp({ CMS_WEB_DIR: webDir });
  });
  afterAll(async () => {
    await t?.close();
    fs.rmSync(webDir, { recursive: true, force: true });
  });

  const get = (url: string, acceptEncoding?: string) =>
    t.request({
      method: 'GET',
      url,
      headers: { authorization: '', ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}) },
    });

  it('sends the brotli file to browsers that accept br, gzip to those that accept only gzip', async () => {
    const br = await get('/assets/app-abc123.js', 'gzip, deflate, br');
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(String(br.headers.vary)).toMatch(/accept-encoding/i);
    expect(String(br.headers['content-type'])).toMatch(/javascript/);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.rawPayload.length).toBeLessThan(script.length / 10);
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(script);

    const gz = await get('/assets/app-abc123.js', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.rawPayload).toString()).toBe(script);
  });

  it('sends the file as it is without Accept-Encoding, and small files uncompressed', async () => {
    const plain = await get('/assets/app-abc123.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
    const tiny = await get('/assets/tiny-abc123.js', 'br');
    expect(tiny.headers['content-encoding']).toBeUndefined();
    expect(tiny.body).toBe('export {};\n');
  });

  it('answers a deep link with index.html (compressed too, never cached for good)', async () => {
    const res = await get('/explorer/demo/articles', 'br');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['content-encoding']).toBe('br');
    expect(zlib.brotliDecompressSync(res.rawPayload).toString()).toBe(html);
  });
});
