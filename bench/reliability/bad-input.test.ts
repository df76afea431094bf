/**
 * Bad input: thousands of generated requests against every route of the OpenAPI document — malformed and
 * truncated JSON, wrong types, huge strings, deep nesting, Unicode and control characters in paths, `..` and
 * encoded traversal, wrong methods, missing and wrong content types, truncated multipart, broken headers.
 * Any 5xx, or a server that stops answering, fails; the database passes its integrity check afterwards.
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordResult } from './results.js';
import {
  call,
  createTemplate,
  httpBytes,
  multipart,
  ok,
  openDataDir,
  rawRequest,
  report,
  startHarness,
  tally,
  upload,
  type Harness,
} from './support.js';

interface Probe {
  family: string;
  method: string;
  path: string | Buffer;
  headers?: Record<string, string>;
  body?: Buffer | string;
}

/** The fixtures each route's valid path points at. */
const VALID_TAIL: [RegExp, string][] = [
  [/\/pages\/by-path\/|\/pages\/transitions\//, 'rel/docs/page1'],
  [/\/pages\/[a-z-]+-all\//, 'rel/docs'],
  [/\/assets\/(by-path|binary|usage|transitions)\//, 'Assets/rel/logo.png'],
  [/\/assets\/(list|[a-z-]+-all)\//, 'Assets/rel'],
  [/\/folders\/by-path\//, 'rel/docs'],
];

const PATH_TAILS: (string | Buffer)[] = [
  '..',
  '../..',
  'rel/../../etc/passwd',
  '%2e%2e',
  '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
  '..%2f..%2f..%2fetc%2fpasswd',
  '%252e%252e%252f',
  '..%5c..%5cwindows',
  'rel/%2e/docs',
  'a%00b',
  '%00',
  '%0d%0aSet-Cookie:%20x=1',
  '%C0%AE%C0%AE/%C0%AF',
  '%E0%A4%A',
  '%',
  '%zz',
  '%ff%fe%fd',
  'x'.repeat(3000),
  'a/'.repeat(400),
  'caf%C3%A9/%F0%9F%92%A9',
  '%E2%80%AE%E2%80%8Bhidden',
  'cafe%CC%81',
  '%EF%BF%BF%EF%BB%BF',
  'CON/aux/nul',
  'a\\b\\..\\c',
  '.',
  './rel',
  '~root',
  '//rel//docs//',
  'rel/docs/page1/extra/deeper',
  'Assets/../rel',
  'rel/docs/page1?x=%00&y=%ZZ&__proto__[a]=1',
  'rel/docs/page1#fragment',
  Buffer.from('rel/d\u00e9j\u00e0', 'latin1'), // raw 8-bit bytes in the request line
  Buffer.from('rel/\xf0\x9f\x92\xa9', 'latin1'), // raw UTF-8 bytes
  Buffer.from('rel/a\x01b', 'latin1'), // raw control character
  Buffer.from('rel/a\tb', 'latin1'),
  Buffer.from('rel/a b', 'latin1'),
  Buffer.from('rel/a\x7fb', 'latin1'),
];

const METHODS = ['GET', 'HEAD', 'PUT', 'POST', 'DELETE', 'PATCH', 'OPTIONS', 'TRACE', 'PROPFIND', 'FOO'];

const deep = (n: number) => '{"a":'.repeat(n) + '1' + '}'.repeat(n);
const MALFORMED_JSON = [
  '{',
  '}',
  '{"templateName":',
  '{"templateName":"rel-article"',
  '{"templateName":"rel-article",}',
  "{'templateName':'rel-article'}",
  '{"templateName":"rel-\u0000article"}',
  'nul',
  'null',
  'true',
  '42',
  '"string"',
  '[]',
  '[1,2,',
  '{"a":NaN}',
  '{"a":Infinity}',
  '{"a":1e99999}',
  '{"a":-0}',
  '{"a":"\\ud800"}',
  '{"a":"\\u00"}',
  '\ufeff{"templateName":"rel-article"}',
  '{"__proto__":{"polluted":true},"templateName":"rel-article"}',
  '{"constructor":{"prototype":{"polluted":true}},"templateName":"rel-article"}',
  '{"templateName":"rel-article","templateName":"other"}',
  deep(64),
  deep(5000),
  '['.repeat(100_000) + ']'.repeat(100_000),
  `{"s":"${'x'.repeat(1_000_000)}"}`,
  '{"a":' + '['.repeat(3000) + ']'.repeat(3000) + '}',
];

/** Values of the wrong type (or an abusive size) for a body field. */
const WRONG_VALUES: unknown[] = [
  null,
  42,
  -1,
  1.5e308,
  true,
  'x',
  '',
  'x'.repeat(300_000),
  '\u0000\u0001\u001f\u007f',
  '<script>alert(1)</script>',
  '\ud83d\udca9'.repeat(1000),
  [],
  [null],
  ['x'.repeat(10_000)],
  {},
  { nested: { deeper: { deepest: [1, { a: null }] } } },
  JSON.parse(deep(200)),
];

const CONTENT_TYPES = [
  undefined,
  'text/plain',
  'application/xml',
  'application/json; charset=utf-16',
  'application/json; charset=latin1',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
  'multipart/form-data; boundary=',
  'json/application',
  'application/json, text/html',
  'application/merge-patch+json',
];

describe('bad input against every route', () => {
  let h: Harness;
  const answers: { family: string; method: string; status: number | null; path: string }[] = [];

  beforeAll(async () => {
    h = await startHarness();
    await createTemplate(h.url);
    const section = {
      sectionInfo: { displayTitle: 'Reliability', templateName: 'rel-article', targetWindow: '_self', navClass: '' },
    };
    ok(await call(h.url, 'PUT', '/cms/rest/folders/by-path/rel', { siteName: 'rel', ...section }), 'site');
    ok(await call(h.url, 'PUT', '/cms/rest/folders/by-path/rel/docs', {}), 'folder');
    ok(
      await call(h.url, 'PUT', '/cms/rest/pages/by-path/rel/docs/page1', {
        templateName: 'rel-article',
        body: [
          {
            name: 'body',
            type: 'PAGE',
            editable: true,
            widgets: [
              { type: 'cmsRichText', scope: 'local', editable: true, asset: { fields: { text: '<p>Hi</p>' } } },
            ],
          },
        ],
      }),
      'page',
    );
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#123456' } })
      .png()
      .toBuffer();
    ok(await upload(h.url, 'Assets/rel/logo.png', { name: 'logo.png', type: 'image/png', data: png }), 'upload');
    ok(
      await call(h.url, 'PUT', '/cms/rest/assets/by-path/Assets/rel/note', {
        type: 'cmsSimpleTextAsset',
        fields: { text: 'Note' },
      }),
      'note',
    );
    ok(
      await call(h.url, 'PUT', '/cms/rest/users/fuzz-target', { role: 'Viewer', password: 'fuzz-target-password' }),
      'user',
    );
  });

  afterAll(async () => {
    await h?.close();
  });

  it('answers every generated bad request with a 4xx (or a closed connection for broken HTTP), never a 5xx', async () => {
    const doc = (await call(h.url, 'GET', '/cms/rest/openapi.json')).json<{
      paths: Record<
        string,
        Record<
          string,
          { requestBody?: { content?: Record<string, { schema?: { properties?: Record<string, unknown> } }> } }
        >
      >;
    }>();
    const routes = Object.entries(doc.paths).flatMap(([p, ops]) =>
      Object.entries(ops).map(([method, op]) => ({ path: p, method: method.toUpperCase(), op })),
    );
    expect(routes.length).toBeGreaterThan(20);

    const validPath = (p: string) => {
      const tail = VALID_TAIL.find(([re]) => re.test(p))?.[1] ?? 'rel';
      return p.replace('{path}', tail).replace('{name}', p.includes('/users/') ? 'fuzz-target' : 'rel-article');
    };
    const withTail = (p: string, tail: string | Buffer): string | Buffer => {
      const prefix = p.replace(/\{\*\}|\{name\}/, '');
      if (prefix === p) return Buffer.concat([Buffer.from(`${p}/`), Buffer.isBuffer(tail) ? tail : Buffer.from(tail)]);
      return Buffer.concat([Buffer.from(prefix), Buffer.isBuffer(tail) ? tail : Buffer.from(tail)]);
    };
    const admin = { authorization: h.auth.Admin! };
    const garbageIfMatch = { 'if-match': '"not-the-etag"' };
    const probes: Probe[] = [];

    const paths = [...new Set(routes.map((r) => r.path))];
    for (const p of paths) {
      // Paths: every tail with every method (DELETE and writes get a stale If-Match, so nothing is removed).
      for (const tail of PATH_TAILS) {
        for (const method of METHODS) {
          probes.push({
            family: 'path × method',
            method,
            path: withTail(p, tail),
            headers: { ...admin, ...garbageIfMatch },
          });
        }
      }
      // Wrong methods on the valid path.
      for (const method of ['PATCH', 'OPTIONS', 'TRACE', 'FOO', 'CONNECT']) {
        probes.push({ family: 'wrong method', method, path: validPath(p), headers: admin });
      }
    }

    for (const r of routes) {
      const path = validPath(r.path);
      const isWrite = r.method === 'PUT' || r.method === 'POST';
      if (r.method === 'DELETE') {
        for (const v of ['"x"', 'W/"x"', '"x", "y"', '', '"' + 'x'.repeat(10_000) + '"']) {
          probes.push({ family: 'if-match', method: 'DELETE', path, headers: { ...admin, 'if-match': v } });
        }
        probes.push({
          family: 'query',
          method: 'DELETE',
          path: `${path}?includeSubFolders=maybe&force=%00`,
          headers: { ...admin, ...garbageIfMatch },
        });
        continue;
      }
      if (!isWrite) {
        for (const q of [
          '?limit=-1',
          '?limit=abc',
          '?limit=1e9',
          '?limit=0',
          '?cursor=garbage',
          `?cursor=${Buffer.from('{"s":1}').toString('base64url')}`,
          `?cursor=${'A'.repeat(5000)}`,
          '?sort=evil&order=sideways',
          '?recursive=maybe',
          `?q=${'%25'.repeat(500)}`,
          '?q=%00%ff',
          '?type=cmsNope&state=Gone',
          '?kind=page,nope',
          '?limit=1&limit=2',
          '?__proto__[x]=1',
        ]) {
          probes.push({ family: 'query', method: 'GET', path: `${path}${q}`, headers: admin });
        }
        for (const range of [
          'bytes=abc',
          'bytes=5-1',
          'bytes=-0',
          'bytes=0-1,2-3,4-5',
          `bytes=${'9'.repeat(40)}-`,
          'items=0-1',
        ]) {
          probes.push({
            family: 'range',
            method: 'GET',
            path,
            headers: { ...admin, range: range, 'if-range': '"zz"' },
          });
        }
        continue;
      }
      const isMultipart = r.path.includes('/assets/binary/');
      if (!isMultipart) {
        for (const body of MALFORMED_JSON) {
          probes.push({
            family: 'malformed json',
            method: r.method,
            path,
            headers: { ...admin, 'content-type': 'application/json', ...garbageIfMatch },
            body,
          });
        }
        const valid = JSON.stringify({
          templateName: 'rel-article',
          displayName: 'Truncated',
          fields: { text: 'x' },
          role: 'Viewer',
        });
        for (let cut = 1; cut < valid.length; cut += 7) {
          probes.push({
            family: 'truncated json',
            method: r.method,
            path,
            headers: { ...admin, 'content-type': 'application/json', ...garbageIfMatch },
            body: valid.slice(0, cut),
          });
        }
        const props = Object.keys(r.op.requestBody?.content?.['application/json']?.schema?.properties ?? {});
        for (const prop of props.length ? props : ['templateName', 'fields', 'role']) {
          for (const v of WRONG_VALUES) {
            probes.push({
              family: 'wrong types',
              method: r.method,
              path,
              headers: { ...admin, 'content-type': 'application/json', ...garbageIfMatch },
              body: JSON.stringify({ [prop]: v }),
            });
          }
        }
        for (const ct of CONTENT_TYPES) {
          probes.push({
            family: 'content type',
            method: r.method,
            path,
            headers: { ...admin, ...(ct ? { 'content-type': ct } : {}), ...garbageIfMatch },
            body: '{"templateName":"rel-article"}',
          });
        }
        probes.push({
          family: 'oversize',
          method: r.method,
          path,
          headers: { ...admin, 'content-type': 'application/json' },
          body: `{"s":"${'x'.repeat(6 * 1024 * 1024)}"}`,
        });
      } else {
        const file = { name: 'x.bin', type: 'application/octet-stream', data: Buffer.from('hello world') };
        const good = multipart({ path: 'Assets/rel/fuzz.bin' }, file, 'BOUNDARY');
        for (let cut = 10; cut < good.body.length; cut += 9) {
          probes.push({
            family: 'truncated multipart',
            method: 'POST',
            path: '/cms/rest/assets/binary/Assets/rel/trunc.bin',
            headers: { ...admin, 'content-type': good.contentType },
            body: good.body.subarray(0, cut),
          });
        }
        const variants: [string, Buffer][] = [
          ['multipart/form-data', good.body],
          ['multipart/form-data; boundary=OTHER', good.body],
          ['multipart/form-data; boundary=BOUNDARY', Buffer.from('--BOUNDARY\r\n\r\n--BOUNDARY--')],
          ['multipart/form-data; boundary=BOUNDARY', Buffer.alloc(0)],
          ['multipart/form-data; boundary=BOUNDARY', multipart({}, { ...file, field: 'notfile' }, 'BOUNDARY').body],
          ['multipart/form-data; boundary=BOUNDARY', multipart({ path: 'x'.repeat(20_000) }, file, 'BOUNDARY').body],
          ['multipart/form-data; boundary=BOUNDARY', multipart({ assetType: 'image' }, file, 'BOUNDARY').body],
          ['multipart/form-data; boundary=BOUNDARY', multipart({ assetType: 'nope' }, file, 'BOUNDARY').body],
          ['multipart/form-data; boundary=BOUNDARY', multipart({ path: '../../etc/passwd' }, file, 'BOUNDARY').body],
          [
            'multipart/form-data; boundary=BOUNDARY',
            Buffer.concat([
              multipart({}, file, 'BOUNDARY').body.subarray(0, -20),
              multipart({}, file, 'BOUNDARY').body,
            ]),
          ],
          [
            'multipart/form-data; boundary=BOUNDARY',
            multipart(Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`f${i}`, 'v'])), file, 'BOUNDARY').body,
          ],
          ['application/json', Buffer.from('{"file":"x"}')],
          ['text/plain', Buffer.from('hello')],
          ['application/octet-stream', Buffer.from('hello')],
        ];
        for (const [ct, body] of variants) {
          for (const target of ['Assets/rel/fuzz.bin', 'Assets/rel/logo.png', 'Assets', 'rel/docs/x.bin']) {
            probes.push({
              family: 'multipart',
              method: 'POST',
              path: `/cms/rest/assets/binary/${target}`,
              headers: { ...admin, 'content-type': ct },
              body,
            });
          }
        }
      }
    }

    // Broken credentials and headers on one route of each kind (not the admin's name: its sign-in rate limit).
    const someRoutes = paths.map(validPath);
    const headerSets: Record<string, string>[] = [
      { authorization: 'Basic !!!' },
      { authorization: `Basic ${Buffer.from('nocolon').toString('base64')}` },
      { authorization: `Basic ${Buffer.from('fuzzer:wrong').toString('base64')}` },
      { authorization: 'Bearer abc.def.ghi' },
      { authorization: `Basic ${'A'.repeat(8000)}` },
      { cookie: 'folio_session=garbage' },
      { cookie: `folio_session=${'x'.repeat(4000)}; folio_session=y` },
      { authorization: h.auth.Viewer!, 'x-csrf-token': 'garbage' },
      { authorization: h.auth.Admin!, 'content-length': '5', 'transfer-encoding': 'chunked' },
      { authorization: h.auth.Admin!, 'x-forwarded-for': '127.0.0.1, evil', 'x-http-method-override': 'DELETE' },
      { authorization: h.auth.Admin!, host: 'evil.example' },
      { authorization: h.auth.Admin!, accept: 'text/html', 'accept-encoding': 'gzip;q=abc' },
      { authorization: h.auth.Admin!, 'x-huge': 'x'.repeat(20_000) },
    ];
    for (const path of someRoutes) {
      for (const headers of headerSets) {
        for (const method of ['GET', 'PUT', 'POST', 'DELETE']) {
          probes.push({
            family: 'headers',
            method,
            path,
            headers: { 'if-match': '"stale"', ...headers },
            body: method === 'PUT' || method === 'POST' ? '{}' : undefined,
          });
        }
      }
    }

    expect(probes.length).toBeGreaterThanOrEqual(5000);
    report(`bad input: ${probes.length} requests over ${routes.length} routes (${paths.length} paths)`);

    // A few connections at a time; every 500 requests the server must still say it is healthy.
    const started = Date.now();
    let next = 0;
    const worker = async () => {
      while (next < probes.length) {
        const p = probes[next++]!;
        const res = await rawRequest(
          h.port,
          httpBytes({ method: p.method, path: p.path, headers: p.headers, body: p.body, port: h.port }),
          {
            timeoutMs: 15_000,
          },
        );
        answers.push({
          family: p.family,
          method: p.method,
          status: res.status ?? (res.timedOut ? -1 : 0),
          path: (Buffer.isBuffer(p.path) ? p.path.toString('latin1') : p.path).slice(0, 160),
        });
        if (answers.length % 500 === 0) {
          const health = await call(h.url, 'GET', '/healthz', undefined, { auth: null });
          expect(health.status, `healthz after ${answers.length} requests`).toBe(200);
        }
      }
    };
    await Promise.all(Array.from({ length: 6 }, worker));
    const seconds = (Date.now() - started) / 1000;

    const byStatus = tally(answers.map((a) => (a.status === 0 ? 'closed' : a.status === -1 ? 'timeout' : a.status!)));
    const byFamily = Object.fromEntries(
      [...new Set(answers.map((a) => a.family))].map((f) => [
        f,
        tally(answers.filter((a) => a.family === f).map((a) => a.status ?? 0)),
      ]),
    );
    report(`bad input: ${answers.length} answers in ${seconds.toFixed(0)} s — by status ${JSON.stringify(byStatus)}`);
    const fiveXx = answers.filter((a) => a.status! >= 500);
    const timeouts = answers.filter((a) => a.status === -1);
    // Writes that were accepted (some probes are valid requests in disguise): listed for review.
    const acceptedWrites = answers
      .filter((a) => a.status! >= 200 && a.status! < 300 && !['GET', 'HEAD', 'OPTIONS'].includes(a.method))
      .filter((a) => !a.path.startsWith('/cms/rest/auth/logout'))
      .map((a) => `${a.family}: ${a.method} ${a.path} → ${a.status}`);
    report(`bad input: writes accepted (valid requests among the probes): ${JSON.stringify(tally(acceptedWrites))}`);
    recordResult('badInput', {
      requests: answers.length,
      routes: routes.length,
      seconds,
      byStatus,
      byFamily,
      fiveXx: fiveXx.slice(0, 50),
      acceptedWrites: tally(acceptedWrites),
    });

    expect(fiveXx.map((a) => `${a.method} ${a.path} → ${a.status}`)).toEqual([]);
    expect(timeouts.map((a) => `${a.method} ${a.path}`)).toEqual([]);
    expect(h.server.child.exitCode).toBeNull();
    expect((await call(h.url, 'GET', '/healthz', undefined, { auth: null })).status).toBe(200);
    // The fixtures are still there and whole.
    expect((await call(h.url, 'GET', '/cms/rest/pages/by-path/rel/docs/page1')).status).toBe(200);
    expect((await call(h.url, 'GET', '/cms/rest/assets/binary/Assets/rel/logo.png')).status).toBe(200);
  });

  it('leaves a database that passes its integrity check', async () => {
    await h.server.stop();
    const db = openDataDir(h.dataDir);
    try {
      const check = await db.integrityCheck();
      expect(check.problems).toEqual([]);
      expect(check.ok).toBe(true);
    } finally {
      await db.close();
    }
  });
});
