import net from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness.js';

/**
 * GETs answered before Fastify (fast-reads.ts) must be indistinguishable from Fastify's answers: over real HTTP,
 * each is compared with the answer of `inject` (which always takes Fastify's way) — status, every header but the
 * connection's own, and the body, byte for byte. And every request it must not answer reaches Fastify untouched.
 * Both databases (TEST_DATABASE_URL): on PostgreSQL with the response cache off the read proves the caller itself.
 */
const PAGE = '/cms/rest/pages/by-path/demo/articles/welcome';
const FOLDER = '/cms/rest/folders/by-path/demo/articles';
const ASSET = '/cms/rest/assets/by-path/Assets/notes/memo';
/** Headers about the connection, which only a real socket has. */
const CONNECTION_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

let t: TestApp;
let base = '';
afterEach(async () => {
  await t.close();
});

async function start(env: Record<string, string>) {
  t = await createTestApp({ CMS_SEED: 'true', ...env });
  const made = await t.request({
    method: 'PUT',
    url: ASSET,
    payload: { type: 'cmsRichTextAsset', fields: { text: '<p>Memo</p>' } },
  });
  expect(made.statusCode, made.body).toBe(201);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
}

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** GET over HTTP, and whether fast-reads answered it. */
async function viaHttp(
  url: string,
  headers: Record<string, string>,
  method = 'GET',
): Promise<Answer & { fast: boolean }> {
  const before = t.app.folio.fastReads.served;
  const res = await fetch(base + url, { method, headers });
  const out: Record<string, string> = {};
  res.headers.forEach((v, k) => {
    if (!CONNECTION_HEADERS.has(k)) out[k] = v;
  });
  const body = await res.text();
  return { status: res.status, headers: out, body, fast: t.app.folio.fastReads.served > before };
}

/** The same request through Fastify's way (inject never reaches the server's request listener). */
async function viaFastify(url: string, headers: Record<string, string>, method = 'GET'): Promise<Answer> {
  const res = await t.app.inject({ method: method as 'GET', url, headers });
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(res.headers)) {
    if (!CONNECTION_HEADERS.has(k) && v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : String(v);
  }
  return { status: res.statusCode, headers: out, body: res.body };
}

/** Signs the admin in: the session cookie, and the session's CSRF token. */
async function signIn(): Promise<{ cookie: string; csrf: string }> {
  const res = await t.request({
    method: 'POST',
    url: '/cms/rest/auth/login',
    headers: { authorization: '' },
    payload: { username: 'admin', password: 'admin-password-for-tests' },
  });
  expect(res.statusCode, res.body).toBe(200);
  const cookie = [res.headers['set-cookie']].flat().find((c) => c?.startsWith('folio_session='));
  return { cookie: cookie!.split(';')[0]!, csrf: (res.json() as { csrfToken: string }).csrfToken };
}

/** Asserts the fast way answered and that Fastify's way answers the same. */
async function expectFastAndSame(url: string, headers: Record<string, string>) {
  // The first GETs may take Fastify's way: it remembers the caller and stores the item's doc with its path (a
  // commit, which on SQLite moves the generation the response cache stored the first answer under).
  await viaHttp(url, headers);
  await viaHttp(url, headers);
  const fast = await viaHttp(url, headers);
  expect(fast.fast, `${url} was not answered before Fastify`).toBe(true);
  const { fast: _, ...answer } = fast;
  expect(answer).toEqual(await viaFastify(url, headers));
  expect(answer.status).toBe(200);
  return answer;
}

/** Asserts Fastify's way answered, and answers what it sent. */
async function expectFastifys(url: string, headers: Record<string, string>, method = 'GET') {
  const got = await viaHttp(url, headers, method);
  expect(got.fast, `${method} ${url} was answered before Fastify`).toBe(false);
  return got;
}

describe.each([
  ['off', 'cache off'],
  ['on', 'cache on'],
])('GETs before Fastify (response cache %s)', (cache) => {
  const env = { CMS_RESPONSE_CACHE: cache };
  const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
  // PostgreSQL with the cache on: reading the generation costs a query, so every GET takes Fastify's way.
  const answersHere = !(onPostgres && cache === 'on');

  it.runIf(answersHere)(
    'answer pages, folders and asset metadata as Fastify does, with Basic credentials and with a session',
    async () => {
      await start(env);
      const auth = { authorization: adminBasic() };
      for (const url of [PAGE, FOLDER, ASSET]) await expectFastAndSame(url, auth);
      const cookie = { cookie: (await signIn()).cookie };
      for (const url of [PAGE, FOLDER, ASSET]) await expectFastAndSame(url, cookie);
    },
  );

  it.runIf(onPostgres && cache === 'off')(
    'send nothing but the read itself on PostgreSQL: the change generation, which costs a query, is not read',
    async () => {
      await start(env);
      const auth = { authorization: adminBasic() };
      const cookie = { cookie: (await signIn()).cookie };
      for (const url of [PAGE, FOLDER, ASSET]) {
        await expectFastAndSame(url, auth);
        await expectFastAndSame(url, cookie);
      }
      const read = vi.spyOn(t.app.folio.ctx.generation, 'read');
      for (const url of [PAGE, FOLDER, ASSET]) {
        expect((await viaHttp(url, auth)).fast).toBe(true);
        expect((await viaHttp(url, cookie)).fast).toBe(true);
      }
      expect(read).not.toHaveBeenCalled();
      read.mockRestore();
    },
  );

  it.runIf(answersHere)('answer many GETs at once each as it would be answered alone', async () => {
    // On PostgreSQL the reads asked for together share one statement (db/batched-statements.ts).
    await start(env);
    const auth = { authorization: adminBasic() };
    const cookie = { cookie: (await signIn()).cookie };
    const missing = '/cms/rest/pages/by-path/demo/articles/no-such-page';
    const alone = new Map<string, Answer>();
    for (const url of [PAGE, FOLDER, ASSET]) {
      alone.set(`b ${url}`, await expectFastAndSame(url, auth));
      alone.set(`c ${url}`, await expectFastAndSame(url, cookie));
    }
    alone.set('missing', await viaFastify(missing, auth));
    expect(alone.get('missing')!.status).toBe(404);

    const asked = Array.from({ length: 8 }, () => [
      ...[PAGE, FOLDER, ASSET].flatMap((url) => [`b ${url}`, `c ${url}`]),
      'missing',
    ]).flat();
    const served = t.app.folio.fastReads.served;
    const together = await Promise.all(
      asked.map((key) =>
        key === 'missing' ? viaHttp(missing, auth) : viaHttp(key.slice(2), key.startsWith('b ') ? auth : cookie),
      ),
    );
    together.forEach(({ fast: _, ...answer }, i) => expect(answer, asked[i]).toEqual(alone.get(asked[i]!)));
    // With the cache off each found item is answered here; with it on, a miss takes Fastify's way (checked above
    // to answer the same).
    if (cache === 'off') {
      expect(t.app.folio.fastReads.served - served).toBe(asked.filter((k) => k !== 'missing').length);
    }
  });

  it.runIf(answersHere && cache === 'off')('stay up for clients that left before their answer', async () => {
    // Answers are written together after the event loop's turn (answersTogether). Each request here arrives with
    // the end of its connection, so its answer is queued and then written into a connection already closed.
    await start(env);
    const auth = { authorization: adminBasic() };
    for (const url of [PAGE, FOLDER, ASSET]) await expectFastAndSame(url, auth);
    const { port } = t.app.server.address() as { port: number };
    const served = t.app.folio.fastReads.served;
    const received = await Promise.all(
      Array.from({ length: 30 }, (_, i) => {
        const url = [PAGE, FOLDER, ASSET][i % 3]!;
        return new Promise<number>((resolve) => {
          let bytes = 0;
          const socket = net.connect(port, '127.0.0.1', () => {
            socket.write(`GET ${url} HTTP/1.1\r\nhost: x\r\nauthorization: ${auth.authorization}\r\n\r\n`);
            socket.resetAndDestroy();
          });
          socket.on('data', (chunk: Buffer) => (bytes += chunk.length));
          socket.on('error', () => undefined);
          socket.on('close', () => resolve(bytes));
        });
      }),
    );
    expect(received).toEqual(received.map(() => 0));
    await vi.waitFor(() => expect(t.app.folio.fastReads.served - served).toBe(30));
    for (const url of [PAGE, FOLDER, ASSET]) await expectFastAndSame(url, auth);
  });

  it.runIf(answersHere)('never answer from before a write, a password change or a sign-out', async () => {
    await start(env);
    const auth = { authorization: adminBasic() };
    const first = await expectFastAndSame(PAGE, auth);
    const template = (JSON.parse(first.body) as { templateName: string }).templateName;
    const put = await t.request({
      method: 'PUT',
      url: PAGE,
      payload: { templateName: template, displayName: 'Changed since' },
    });
    expect(put.statusCode, put.body).toBe(200);
    const after = await viaHttp(PAGE, auth);
    expect(after.status).toBe(200);
    expect(JSON.parse(after.body)).toMatchObject({ displayName: 'Changed since' });
    expect(after.headers.etag).toBe(put.headers.etag);
    await expectFastAndSame(PAGE, auth);

    const session = await signIn();
    const cookie = { cookie: session.cookie };
    await expectFastAndSame(PAGE, cookie);
    const out = await t.request({
      method: 'POST',
      url: '/cms/rest/auth/logout',
      headers: { authorization: '', ...cookie, 'x-csrf-token': session.csrf },
    });
    expect(out.statusCode, out.body).toBe(200);
    expect((await expectFastifys(PAGE, cookie)).status).toBe(401);

    const changed = await t.request({
      method: 'PUT',
      url: '/cms/rest/users/admin',
      payload: { role: 'Admin', password: 'a-new-password-for-tests', currentPassword: 'admin-password-for-tests' },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect((await expectFastifys(PAGE, auth)).status).toBe(401);
  });

  it('leave every other request to Fastify, which answers it as before', async () => {
    await start(env);
    const auth = { authorization: adminBasic() };
    if (answersHere) await expectFastAndSame(PAGE, auth);
    const etag = (await viaFastify(PAGE, auth)).headers.etag!;
    const cases: [string, Record<string, string>, number, string?][] = [
      [PAGE, {}, 401],
      [PAGE, { authorization: basicOf('admin', 'wrong') }, 401],
      [PAGE, { cookie: 'folio_session=not-a-session' }, 401],
      ['/cms/rest/pages/by-path/demo/articles/no-such-page', auth, 404],
      ['/cms/rest/pages/by-path/', auth, 400],
      ['/cms/rest/pages/by-path/demo/%E0%A4%A', auth, 400],
      [`${PAGE}?x=1`, auth, 200],
      [PAGE, { ...auth, 'if-none-match': etag }, 304],
      [PAGE, auth, 200, 'HEAD'],
    ];
    for (const [url, headers, status, method] of cases) {
      const got = await expectFastifys(url, headers, method);
      expect(got.status, `${method ?? 'GET'} ${url}`).toBe(status);
      if (method !== 'HEAD') {
        const { fast: _, ...answer } = got;
        const fastify = await viaFastify(url, headers, method);
        // Problems carry the request's own instance id; compare the rest.
        expect(withoutInstance(answer)).toEqual(withoutInstance(fastify));
      }
    }
  });

  it('leave requests to Fastify while it logs them (LOG_LEVEL=info)', async () => {
    const lines: string[] = [];
    t = await createTestApp(
      { CMS_SEED: 'true', LOG_LEVEL: 'info', ...env },
      { logStream: { write: (line: string) => void lines.push(line) } },
    );
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
    const auth = { authorization: adminBasic() };
    const logged = () => lines.filter((l) => l.includes('incoming request') && l.includes(PAGE)).length;
    const before = logged();
    for (let i = 0; i < 3; i++) expect((await expectFastifys(PAGE, auth)).status).toBe(200);
    expect(logged() - before).toBe(3);
  });
});

function basicOf(user: string, password: string) {
  return `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
}
function adminBasic() {
  return basicOf('admin', 'admin-password-for-tests');
}
function withoutInstance(a: Answer): Answer {
  if (!a.headers['content-type']?.startsWith('application/problem+json')) return a;
  const body = JSON.parse(a.body) as Record<string, unknown>;
  delete body.instance;
  return { ...a, body: JSON.stringify(body) };
}
