import type { LightMyRequestResponse } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { createTestApp, type TestApp } from '../test/harness.js';
import { ResponseCache } from './response-cache.js';

/**
 * The response cache of flagged GETs: hits are byte-identical to misses, and every kind of write is seen by the
 * next GET. Runs on SQLite and on PostgreSQL (TEST_DATABASE_URL).
 */
let t: TestApp;
afterEach(async () => {
  await t?.close();
});

const REGIONS = [
  { name: 'header', editable: false, widgets: [{ type: 'cmsTitle', asset: { fields: { heading_level: 'h1' } } }] },
  { name: 'main', editable: true },
];
const PAGE = '/cms/rest/pages/by-path/site/home';

async function ok(res: Promise<LightMyRequestResponse>, status = 200) {
  const r = await res;
  expect(r.statusCode, r.body).toBe(status);
  return r;
}

/** A template, a site using it, a page and a shared text asset. */
async function setUp(env: Record<string, string> = {}) {
  t = await createTestApp(env);
  await ok(t.request({ method: 'PUT', url: '/cms/rest/templates/basic', payload: { regions: REGIONS } }), 201);
  await ok(
    t.request({
      method: 'PUT',
      url: '/cms/rest/folders/by-path/site',
      payload: { siteName: 'site', sectionInfo: { templateName: 'basic' } },
    }),
    201,
  );
  await ok(t.request({ method: 'PUT', url: PAGE, payload: { templateName: 'basic', displayName: 'Home' } }), 201);
  await ok(
    t.request({
      method: 'PUT',
      url: '/cms/rest/assets/by-path/Assets/texts/note',
      payload: { type: 'cmsRawHtmlAsset', fields: { html: '<b>one</b>' } },
    }),
    201,
  );
}

const get = (url: string, headers: Record<string, string> = {}) => t.request({ method: 'GET', url, headers });
const stats = () => t.app.folio.responseCache!.stats;

/** GETs `url` twice (a miss that fills the cache, then a hit) and answers the second. */
async function warm(url: string, headers: Record<string, string> = {}) {
  await ok(get(url, headers));
  return ok(get(url, headers));
}

describe('response cache', () => {
  it('answers a hit with the same status, bytes and headers as the miss, security headers included', async () => {
    await setUp();
    for (const url of [
      PAGE,
      '/cms/rest/folders/by-path/site',
      '/cms/rest/sites',
      '/cms/rest/templates',
      '/cms/rest/templates/basic',
      '/cms/rest/assets/by-path/Assets/texts/note',
      '/cms/rest/assets/list/Assets/texts?limit=5',
    ]) {
      const before = stats().entries;
      const miss = await ok(get(url));
      expect(stats().entries, url).toBe(before + 1);
      const hit = await ok(get(url));
      expect(stats().entries, url).toBe(before + 1);
      expect(hit.rawPayload.equals(miss.rawPayload), url).toBe(true);
      const { date: _d1, ...missHeaders } = miss.headers;
      const { date: _d2, ...hitHeaders } = hit.headers;
      expect(hitHeaders, url).toEqual(missHeaders);
      expect(hit.headers['cache-control']).toBe('no-store');
      expect(hit.headers['content-security-policy']).toBeTruthy();
      expect(hit.headers['x-content-type-options']).toBe('nosniff');
    }
    // HEAD is answered from the entry too, with no body.
    const head = await ok(t.request({ method: 'HEAD', url: PAGE }));
    expect(head.body).toBe('');
    expect(head.headers.etag).toBe((await get(PAGE)).headers.etag);
  });

  it('answers If-None-Match with 304 on a miss and on a hit, and 200 for another ETag', async () => {
    await setUp();
    const first = await ok(get(PAGE));
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"/);
    // The first conditional GET is a hit already; clear to check the miss path too.
    for (const clear of [true, false]) {
      if (clear) t.app.folio.responseCache!.clear();
      const res = await get(PAGE, { 'if-none-match': etag });
      expect(res.statusCode).toBe(304);
      expect(res.body).toBe('');
      expect(res.headers.etag).toBe(etag);
      expect(res.headers['cache-control']).toBe('no-store');
    }
    expect((await get(PAGE, { 'if-none-match': `W/${etag}, "other"` })).statusCode).toBe(304);
    expect((await get(PAGE, { 'if-none-match': '"other"' })).body).toBe(first.body);
  });

  it('shows every kind of write at the next GET', async () => {
    await setUp();
    const changes: [string, string, () => Promise<unknown>][] = [
      // What a GET shows, and a write that must change it.
      [
        PAGE,
        'page PUT',
        () => ok(t.request({ method: 'PUT', url: PAGE, payload: { templateName: 'basic', displayName: 'Changed' } })),
      ],
      [
        PAGE,
        'template change',
        () =>
          ok(
            t.request({
              method: 'PUT',
              url: '/cms/rest/templates/basic',
              payload: {
                regions: [
                  {
                    name: 'header',
                    editable: false,
                    widgets: [{ type: 'cmsTitle', asset: { fields: { heading_level: 'h2' } } }],
                  },
                  { name: 'main', editable: true },
                ],
              },
            }),
          ),
      ],
      [PAGE, 'workflow transition', () => ok(t.request({ method: 'POST', url: '/cms/rest/pages/submit-all/site' }))],
      [
        '/cms/rest/folders/by-path/site',
        'folder change',
        () =>
          ok(
            t.request({
              method: 'PUT',
              url: '/cms/rest/folders/by-path/site',
              payload: { sectionInfo: { displayTitle: 'Renamed site' } },
            }),
          ),
      ],
      [
        '/cms/rest/assets/by-path/Assets/texts/note',
        'asset metadata change',
        () =>
          ok(
            t.request({
              method: 'PUT',
              url: '/cms/rest/assets/by-path/Assets/texts/note',
              payload: { fields: { html: '<b>two</b>' } },
            }),
          ),
      ],
      [
        '/cms/rest/assets/list/Assets/texts',
        'asset created',
        () =>
          ok(
            t.request({
              method: 'PUT',
              url: '/cms/rest/assets/by-path/Assets/texts/second',
              payload: { type: 'cmsRawHtmlAsset', fields: { html: '<i>2</i>' } },
            }),
            201,
          ),
      ],
      [
        '/cms/rest/folders/by-path/site',
        'move',
        async () => {
          await ok(t.request({ method: 'PUT', url: '/cms/rest/folders/by-path/site/a', payload: {} }), 201);
          await warm('/cms/rest/folders/by-path/site');
          await ok(
            t.request({
              method: 'POST',
              url: '/cms/rest/folders/move',
              payload: { itemPath: 'site/home', targetFolderPath: 'site/a' },
            }),
          );
        },
      ],
      [
        '/cms/rest/pages/by-path/site/a/home',
        'delete',
        () => ok(t.request({ method: 'DELETE', url: '/cms/rest/pages/by-path/site/a/home' })),
      ],
      [
        '/cms/rest/templates',
        'template created',
        () => ok(t.request({ method: 'PUT', url: '/cms/rest/templates/other', payload: { regions: REGIONS } }), 201),
      ],
    ];
    for (const [url, what, write] of changes) {
      const before = await warm(url);
      await write();
      const after = await get(url);
      expect(after.body, what).not.toBe(before.body);
      // What the cache answers now is what the database holds: the same as with the cache emptied.
      t.app.folio.responseCache!.clear();
      const fresh = await get(url);
      expect(after.body, what).toBe(fresh.body);
      expect(after.statusCode, what).toBe(fresh.statusCode);
    }
    expect((await get(PAGE)).statusCode).toBe(404);
    expect((await get('/cms/rest/pages/by-path/site/a/home')).statusCode).toBe(404);
  });

  it('keys on the role: a Viewer never gets the answer cached for an Admin', async () => {
    await setUp();
    const viewer = await t.createUser('vera', 'Viewer');
    const otherViewer = await t.createUser('victor', 'Viewer');
    const url = '/cms/rest/folders/by-path/site';
    const asAdmin = await warm(url);
    expect(asAdmin.json().accessLevel).toBe('ADMIN');
    const asViewer = await ok(get(url, { authorization: viewer }));
    expect(asViewer.json().accessLevel).toBe('READ');
    expect((await ok(get(url, { authorization: viewer }))).json().accessLevel).toBe('READ');
    // Another user of the same role shares the entry: the answer depends on the role, not the name.
    const entries = stats().entries;
    expect((await ok(get(url, { authorization: otherViewer }))).body).toBe(asViewer.body);
    expect(stats().entries).toBe(entries);
    expect((await ok(get(url))).json().accessLevel).toBe('ADMIN');
  });

  it('refuses credentials that no longer hold, even for an answer it has cached', async () => {
    await setUp();
    const viewer = await t.createUser('vera', 'Viewer');
    await warm(PAGE, { authorization: viewer });
    await ok(t.request({ method: 'DELETE', url: '/cms/rest/users/vera' }));
    expect((await get(PAGE, { authorization: viewer })).statusCode).toBe(401);
    expect((await get(PAGE, { authorization: '' })).statusCode).toBe(401);
  });

  it('does not acknowledge a write whose generation bump failed', async () => {
    await setUp();
    const generation = t.app.folio.ctx.generation;
    const bump = generation.bump.bind(generation);
    let failures = 0;
    generation.bump = async () => {
      failures++;
      throw new Error('database gone');
    };
    try {
      // A create: written in a transaction, bumped after it.
      const res = await t.request({
        method: 'PUT',
        url: '/cms/rest/pages/by-path/site/another',
        payload: { templateName: 'basic', displayName: 'X' },
      });
      expect(res.statusCode).toBe(500);
      expect(failures).toBe(2);
    } finally {
      generation.bump = bump;
    }
  });

  it('a PUT of page fields bumps the generation in its own statement, never after it', async () => {
    await setUp();
    await warm(PAGE);
    const generation = t.app.folio.ctx.generation;
    const bump = generation.bump.bind(generation);
    let bumps = 0;
    generation.bump = async () => {
      bumps++;
      throw new Error('not expected: the statement bumped');
    };
    try {
      const before = await generation.read();
      await ok(t.request({ method: 'PUT', url: PAGE, payload: { templateName: 'basic', displayName: 'Y' } }));
      expect(bumps).toBe(0);
      expect(await generation.read()).not.toBe(before);
      // And the cached page is not answered again.
      expect((await ok(get(PAGE))).json().displayName).toBe('Y');
    } finally {
      generation.bump = bump;
    }
  });

  it('drops entries older than CMS_RESPONSE_CACHE_MAX_AGE_S', async () => {
    await setUp({ CMS_RESPONSE_CACHE_MAX_AGE_S: '30' });
    await warm(PAGE);
    const entries = stats().entries;
    t.advance(29_000);
    await ok(get(PAGE));
    expect(stats().entries).toBe(entries);
    t.advance(2_000);
    // Expired: the lookup drops it and the GET stores a fresh one.
    const bytes = stats().bytes;
    await ok(get(PAGE));
    expect(stats()).toEqual({ entries, bytes });
    const cache = t.app.folio.responseCache!;
    const key = `Admin\0${PAGE}`;
    const generation = await t.app.folio.ctx.generation.read();
    expect(cache.get(key, generation, t.app.folio.ctx.now())).toBeDefined();
    expect(cache.get(key, generation, t.app.folio.ctx.now() + 31_000)).toBeUndefined();
  });

  it('stays within CMS_RESPONSE_CACHE_MB, evicting the least recently used', async () => {
    // ~6 KiB: a handful of small answers.
    await setUp({ CMS_RESPONSE_CACHE_MB: String(6 / 1024) });
    const urls = ['/cms/rest/sites', '/cms/rest/templates', '/cms/rest/templates/basic', PAGE];
    for (const url of urls) await ok(get(url));
    for (let i = 0; i < 20; i++) await ok(get(`/cms/rest/folders/by-path/site?n=${i}`));
    expect(stats().bytes).toBeLessThanOrEqual(6 * 1024);
    expect(stats().entries).toBeGreaterThan(1);
    expect(stats().entries).toBeLessThan(24);
  });

  it('CMS_RESPONSE_CACHE=off stores nothing and still answers If-None-Match', async () => {
    await setUp({ CMS_RESPONSE_CACHE: 'off' });
    expect(t.app.folio.responseCache).toBeNull();
    const first = await ok(get(PAGE));
    await ok(t.request({ method: 'PUT', url: PAGE, payload: { templateName: 'basic', displayName: 'Changed' } }));
    expect((await ok(get(PAGE))).body).not.toBe(first.body);
    const etag = (await get(PAGE)).headers.etag as string;
    expect((await get(PAGE, { 'if-none-match': etag })).statusCode).toBe(304);
  });
});

describe('ResponseCache (LRU)', () => {
  const entry = (generation: string, body: string, readAt = 0) => ({ generation, readAt, headers: {}, body });

  it('answers an entry only under its generation and within the max age', () => {
    const c = new ResponseCache({ maxBytes: 1e6, maxEntries: 10, maxAgeMs: 1000 });
    c.set('k', entry('1:1', 'x', 100));
    expect(c.get('k', '1:2', 100)).toBeUndefined();
    // A mismatch drops it.
    expect(c.get('k', '1:1', 100)).toBeUndefined();
    c.set('k', entry('1:1', 'x', 100));
    expect(c.get('k', '1:1', 1100)?.body).toBe('x');
    expect(c.get('k', '1:1', 1101)).toBeUndefined();
    expect(c.stats).toEqual({ entries: 0, bytes: 0 });
  });

  it('evicts the least recently used by count and by bytes, and never stores an oversized answer', () => {
    const body = 'b'.repeat(1000); // 1,258 bytes an entry with its key and overhead
    const byCount = new ResponseCache({ maxBytes: 1e6, maxEntries: 3, maxAgeMs: 1000 });
    for (const k of ['a', 'b', 'c']) byCount.set(k, entry('g', body));
    expect(byCount.get('a', 'g', 0)).toBeDefined(); // a is now the most recent
    byCount.set('d', entry('g', body));
    expect(byCount.get('b', 'g', 0)).toBeUndefined();
    expect(byCount.stats.entries).toBe(3);

    const byBytes = new ResponseCache({ maxBytes: 4 * 1400, maxEntries: 100, maxAgeMs: 1000 });
    for (const k of ['a', 'b', 'c', 'd']) byBytes.set(k, entry('g', body));
    expect(byBytes.get('a', 'g', 0)).toBeDefined();
    byBytes.set('e', entry('g', 'e'.repeat(1100)));
    expect(byBytes.stats.bytes).toBeLessThanOrEqual(4 * 1400);
    expect(byBytes.get('b', 'g', 0)).toBeUndefined();
    for (const k of ['a', 'c', 'd', 'e']) expect(byBytes.get(k, 'g', 0), k).toBeDefined();
    byBytes.set('huge', entry('g', 'h'.repeat(2000)));
    expect(byBytes.get('huge', 'g', 0)).toBeUndefined();
  });
});

describe('response cache configuration', () => {
  it('reads CMS_RESPONSE_CACHE, CMS_RESPONSE_CACHE_MB and CMS_RESPONSE_CACHE_MAX_AGE_S', () => {
    const defaults = loadConfig({});
    expect(defaults).toMatchObject({
      responseCache: true,
      responseCacheBytes: 64 * 1024 * 1024,
      responseCacheMaxAgeMs: 30_000,
    });
    const set = loadConfig({
      CMS_RESPONSE_CACHE: 'off',
      CMS_RESPONSE_CACHE_MB: '8',
      CMS_RESPONSE_CACHE_MAX_AGE_S: '5',
    });
    expect(set).toMatchObject({
      responseCache: false,
      responseCacheBytes: 8 * 1024 * 1024,
      responseCacheMaxAgeMs: 5000,
    });
    expect(() => loadConfig({ CMS_RESPONSE_CACHE: 'maybe' })).toThrow(/CMS_RESPONSE_CACHE/);
    expect(() => loadConfig({ CMS_RESPONSE_CACHE_MB: '0' })).toThrow(/CMS_RESPONSE_CACHE_MB/);
  });
});
