import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ApiError, basicAuthorization, createClient, isProblemDetails } from './client.js';
import { ProblemDetails } from './errors.js';

interface Call {
  url: string;
  method: string;
  headers: Headers;
  body: RequestInit['body'];
}

/** A fetch answering every call with `reply`, recording what was sent. */
function fakeFetch(reply: (call: Call) => Response | Promise<Response>) {
  const calls: Call[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const call = {
      url: String(input),
      method: init.method ?? 'GET',
      headers: new Headers(init.headers),
      body: init.body,
    };
    calls.push(call);
    return reply(call);
  });
  return { fetch: fetch as unknown as typeof globalThis.fetch, calls };
}

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

const problem = (status: number, code: string, detail: string, extra: object = {}) =>
  new Response(JSON.stringify({ type: `https://folio.dev/problems/x`, title: 'T', status, detail, code, ...extra }), {
    status,
    headers: { 'content-type': 'application/problem+json' },
  });

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe('createClient', () => {
  it('validates responses with the shared schema and returns the parsed value', async () => {
    const { fetch, calls } = fakeFetch(() => json([{ id: '1-2-3', name: 'demo', displayTitle: 'Demo', href: '/h' }]));
    const client = createClient({ fetch, baseUrl: 'http://cms.test/' });
    expect(await client.sites.list()).toEqual([{ id: '1-2-3', name: 'demo', displayTitle: 'Demo', href: '/h' }]);
    expect(calls[0].url).toBe('http://cms.test/cms/rest/sites');
    expect(calls[0].headers.get('x-requested-with')).toBe('XMLHttpRequest');
  });

  it('turns problem JSON into one ApiError with status, code, detail, title and field errors', async () => {
    const errors = [{ path: 'body.password', message: 'must be at least 8 characters' }];
    const { fetch } = fakeFetch(() => problem(400, 'INVALID_BODY', 'The request body is invalid.', { errors }));
    const error = await failure(createClient({ fetch }).users.put('bob', { role: 'Viewer', password: 'x' }));
    expect(error).toMatchObject({
      status: 400,
      code: 'INVALID_BODY',
      title: 'T',
      detail: 'The request body is invalid.',
    });
    expect(error.errors).toEqual(errors);
    expect(error.fieldError('body.password')).toBe('must be at least 8 characters');
    expect(error.message).toBe('The request body is invalid.');
  });

  it('keeps extra problem members (e.g. retryAfter of a 429)', async () => {
    const { fetch } = fakeFetch(() => problem(429, 'TOO_MANY_ATTEMPTS', 'Wait.', { retryAfter: 90 }));
    const error = await failure(createClient({ fetch }).auth.login({ username: 'a', password: 'b' }));
    expect(error.status).toBe(429);
    expect(error.problem?.retryAfter).toBe(90);
  });

  it('describes a non-JSON failure (a proxy page) by its status', async () => {
    const { fetch } = fakeFetch(
      () => new Response('<html>Bad gateway</html>', { status: 502, statusText: 'Bad Gateway' }),
    );
    const error = await failure(createClient({ fetch }).sites.list());
    expect(error).toMatchObject({ status: 502, code: 'INTERNAL_ERROR', title: 'Bad Gateway' });
    expect(error.detail).toMatch(/not reachable/);
    const notFound = await failure(
      createClient({ fetch: fakeFetch(() => new Response('', { status: 404 })).fetch }).sites.list(),
    );
    expect(notFound).toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });

  it('reports a network failure as status 0 NETWORK_ERROR and an abort as ABORTED', async () => {
    const down = fakeFetch(() => Promise.reject(new TypeError('fetch failed')));
    const error = await failure(createClient({ fetch: down.fetch }).auth.me());
    expect(error).toMatchObject({ status: 0, code: 'NETWORK_ERROR' });
    expect(error.cause).toBeInstanceOf(TypeError);

    const aborted = fakeFetch(() => Promise.reject(new DOMException('The operation was aborted.', 'AbortError')));
    expect(await failure(createClient({ fetch: aborted.fetch }).auth.me())).toMatchObject({
      status: 0,
      code: 'ABORTED',
    });
  });

  it('refuses a 2xx answer that breaks the contract (INVALID_RESPONSE) or is not JSON', async () => {
    const wrong = fakeFetch(() => json({ username: 'admin', role: 'Superuser' }));
    const error = await failure(createClient({ fetch: wrong.fetch }).auth.me());
    expect(error).toMatchObject({ status: 200, code: 'INVALID_RESPONSE' });
    expect(error.detail).toContain('role');

    const html = fakeFetch(() => new Response('<html></html>', { status: 200 }));
    expect(await failure(createClient({ fetch: html.fetch }).sites.list())).toMatchObject({ code: 'INVALID_RESPONSE' });
  });

  it('sends the CSRF token on unsafe methods only', async () => {
    const { fetch, calls } = fakeFetch((call) => (call.method === 'DELETE' ? json({ message: 'Deleted' }) : json([])));
    const client = createClient({ fetch, getCsrfToken: () => 'tok' });
    await client.users.list();
    await client.users.remove('bob');
    expect(calls[0].headers.has('x-csrf-token')).toBe(false);
    expect(calls[1].headers.get('x-csrf-token')).toBe('tok');
    expect(calls[1].url).toBe('/cms/rest/users/bob');
  });

  it('calls onUnauthorized on a 401, except for a failed sign-in', async () => {
    const onUnauthorized = vi.fn();
    const { fetch } = fakeFetch(() => problem(401, 'UNAUTHENTICATED', 'No.'));
    const client = createClient({ fetch, onUnauthorized });
    await failure(client.auth.login({ username: 'a', password: 'b' }));
    expect(onUnauthorized).not.toHaveBeenCalled();
    const error = await failure(client.sites.list());
    expect(onUnauthorized).toHaveBeenCalledWith(error);
  });

  it('authenticates with HTTP Basic (UTF-8) when given credentials', async () => {
    const { fetch, calls } = fakeFetch(() => json({ username: 'jörg', role: 'Editor' }));
    await createClient({ fetch, basicAuth: { username: 'jörg', password: 'pässword' } }).auth.me();
    expect(calls[0].headers.get('authorization')).toBe(basicAuthorization({ username: 'jörg', password: 'pässword' }));
    const decoded = new TextDecoder().decode(
      Uint8Array.from(atob(calls[0].headers.get('authorization')!.slice(6)), (c) => c.charCodeAt(0)),
    );
    expect(decoded).toBe('jörg:pässword');
  });

  it('generic request: query, JSON body, If-Match, ETag, and FormData sent as is', async () => {
    const { fetch, calls } = fakeFetch(() => json({ ok: true }, 200, { etag: '"abc"' }));
    const client = createClient({ fetch });
    const res = await client.requestWithEtag('PUT', '/cms/rest/pages/by-path/demo/home', {
      body: { templateName: 'basic' },
      ifMatch: '"old"',
      query: { a: 'x y', skip: undefined },
      schema: z.object({ ok: z.boolean() }),
    });
    expect(res).toEqual({ data: { ok: true }, etag: '"abc"' });
    expect(calls[0].url).toBe('/cms/rest/pages/by-path/demo/home?a=x+y');
    expect(calls[0].headers.get('if-match')).toBe('"old"');
    expect(calls[0].headers.get('content-type')).toBe('application/json');
    expect(calls[0].body).toBe('{"templateName":"basic"}');

    const form = new FormData();
    form.set('file', new Blob(['x']), 'x.txt');
    await client.request('POST', '/upload', { body: form });
    expect(calls[1].body).toBe(form);
    expect(calls[1].headers.has('content-type')).toBe(false);
  });

  it('search repeats kind and state in the query and checks the answer against the contract', async () => {
    const hit = {
      kind: 'page',
      path: 'demo/about',
      title: 'About',
      type: 'basic',
      state: 'Draft',
      modified: null,
      snippet: 'the <mark>gallery</mark>',
    };
    const { fetch, calls } = fakeFetch(() => json({ items: [hit], next: null, capped: false }));
    const client = createClient({ fetch });
    const res = await client.search({ q: 'galle', kind: ['page', 'asset'], state: ['Draft'], site: 'demo', limit: 5 });
    expect(res).toEqual({ items: [hit], next: null, capped: false });
    const url = new URL(calls[0].url, 'http://x');
    expect(url.pathname).toBe('/cms/rest/search');
    expect(url.searchParams.getAll('kind')).toEqual(['page', 'asset']);
    expect(url.searchParams.getAll('state')).toEqual(['Draft']);
    expect(url.searchParams.get('q')).toBe('galle');
    expect(url.searchParams.get('limit')).toBe('5');
    expect(url.searchParams.has('cursor')).toBe(false);

    const broken = fakeFetch(() => json({ items: [{ ...hit, kind: 'widget' }], next: null, capped: false }));
    const err = await failure(createClient({ fetch: broken.fetch }).search({ q: 'x' }));
    expect(err.code).toBe('INVALID_RESPONSE');
  });

  it('history: the revision list paged by cursor, a version by query, a restore with If-Match', async () => {
    const item = { revision: 2, savedAt: '2026-11-29T05:00:00.000Z', savedBy: 'admin', state: 'Draft', live: false };
    const { fetch, calls } = fakeFetch((call) =>
      call.url.includes('/revisions/') ? json({ items: [item], next: null }) : problem(412, 'PRECONDITION_FAILED', 'x'),
    );
    const client = createClient({ fetch });
    expect(await client.pages.revisions(['demo', 'a b'], { cursor: 'c1' })).toEqual({ items: [item], next: null });
    expect(calls[0].url).toBe('/cms/rest/pages/revisions/demo/a%20b?cursor=c1');
    await client.assets.revisions(['Assets', 'logo.png']);
    expect(calls[1].url).toBe('/cms/rest/assets/revisions/Assets/logo.png');

    expect((await failure(client.pages.restore(['demo', 'a'], 1, '"e1"'))).status).toBe(412);
    expect(calls[2]).toMatchObject({ url: '/cms/rest/pages/restore/demo/a', method: 'POST', body: '{"revision":1}' });
    expect(calls[2].headers.get('if-match')).toBe('"e1"');
    await failure(client.assets.restore(['Assets', 'x'], 3));
    expect(calls[3].url).toBe('/cms/rest/assets/restore/Assets/x');

    await failure(client.pages.version(['demo', 'a'], { revision: 4 }));
    await failure(client.assets.version(['Assets', 'x'], { version: 'live' }));
    expect(calls.slice(4).map((c) => c.url)).toEqual([
      '/cms/rest/pages/by-path/demo/a?revision=4',
      '/cms/rest/assets/by-path/Assets/x?version=live',
    ]);
  });

  it('reads text and binary bodies when asked, and sends a Blob as it is', async () => {
    const { fetch, calls } = fakeFetch(() => new Response(new Uint8Array([1, 2, 3]), { status: 200 }));
    const client = createClient({ fetch });
    const blob = await client.request<Blob>('GET', '/cms/rest/assets/binary/Assets/a.png', { responseType: 'blob' });
    expect([...new Uint8Array(await blob.arrayBuffer())]).toEqual([1, 2, 3]);

    const upload = new Blob(['raw'], { type: 'text/plain' });
    await client.request('PUT', '/raw', { body: upload, responseType: 'text' });
    expect(calls[1].body).toBe(upload);
    expect(calls[1].headers.has('content-type')).toBe(false);
  });

  it('answers undefined for an empty 204', async () => {
    const { fetch } = fakeFetch(() => new Response(null, { status: 204 }));
    expect(await createClient({ fetch }).request('DELETE', '/x')).toBeUndefined();
  });

  it('tells problem documents apart without zod exactly as the ProblemDetails schema does', () => {
    const base = { type: 'https://folio.dev/problems/not-found', title: 'Not found', status: 404, detail: 'Gone.' };
    const samples: unknown[] = [
      { ...base, code: 'NOT_FOUND' },
      { ...base, code: 'NOT_FOUND', errors: [{ path: 'body.x', message: 'bad' }], retryAfter: 3 },
      { ...base, code: 'NO_SUCH_CODE' },
      { ...base, code: 'NOT_FOUND', status: 404.5 },
      { ...base, code: 'NOT_FOUND', status: '404' },
      { ...base, code: 'NOT_FOUND', errors: [{ path: 'body.x' }] },
      { ...base, code: 'NOT_FOUND', errors: 'x' },
      { title: 'T', status: 400, detail: 'D', code: 'INVALID_BODY' },
      [base],
      null,
      'text',
      undefined,
    ];
    for (const sample of samples) expect(isProblemDetails(sample)).toBe(ProblemDetails.safeParse(sample).success);
  });

  it('loads the response schemas on the first call and still refuses an answer that breaks the contract', async () => {
    const { fetch } = fakeFetch(() => json([{ username: 'a', role: 'Nobody', createdAt: 'x', updatedAt: 'y' }]));
    const error = await failure(createClient({ fetch }).users.list());
    expect(error.code).toBe('INVALID_RESPONSE');
  });
});
