import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { loadConfig } from '../../config.js';
import { ADMIN_PASSWORD, basic, createTestApp, problemOf, type TestApp } from '../../test/harness.js';
import { MAX_LOGIN_FAILURES } from './auth.service.js';
import { eventsRepository } from '../events/events.repository.js';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp({ CMS_SESSION_IDLE_MINUTES: '30', CMS_SESSION_ABSOLUTE_HOURS: '8' });
});
afterEach(async () => {
  await t.close();
});

const NO_AUTH = { authorization: '' };

async function login(username = 'admin', password = ADMIN_PASSWORD) {
  const res = await t.request({
    method: 'POST',
    url: '/cms/rest/auth/login',
    headers: NO_AUTH,
    payload: { username, password },
  });
  const cookie = res.cookies.find((c) => c.name === 'folio_session');
  return {
    res,
    cookie: cookie ? `folio_session=${cookie.value}` : '',
    csrf: res.statusCode === 200 ? (res.json().csrfToken as string) : '',
  };
}

describe('authentication', () => {
  it('rejects unauthenticated API calls with 401 problem JSON and a Basic challenge', async () => {
    for (const url of ['/cms/rest/auth/me', '/cms/rest/users', '/cms/rest/openapi.json', '/cms/rest/no/such/route']) {
      const res = await t.request({ method: 'GET', url, headers: NO_AUTH });
      expect(res.statusCode, url).toBe(401);
      expect(problemOf(res).code).toBe('UNAUTHENTICATED');
      expect(res.headers['www-authenticate']).toMatch(/^Basic /);
    }
  });

  it('does not send a Basic challenge to the SPA', async () => {
    const res = await t.request({
      method: 'GET',
      url: '/cms/rest/auth/me',
      headers: { ...NO_AUTH, 'x-requested-with': 'XMLHttpRequest' },
    });
    expect(res.statusCode).toBe(401);
    expect(res.headers['www-authenticate']).toBeUndefined();
  });

  it('accepts HTTP Basic and rejects a wrong password', async () => {
    const ok = await t.request({ method: 'GET', url: '/cms/rest/auth/me' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({
      username: 'admin',
      role: 'Admin',
      limits: { maxUploadBytes: 256 * 1024 * 1024 },
      eventsAfter: await eventsRepository.lastId(t.app.folio.ctx.db),
    });
    const bad = await t.request({
      method: 'GET',
      url: '/cms/rest/auth/me',
      headers: { authorization: basic('admin', 'nope') },
    });
    expect(bad.statusCode).toBe(401);
    expect(problemOf(bad).code).toBe('UNAUTHENTICATED');
    const malformed = await t.request({
      method: 'GET',
      url: '/cms/rest/auth/me',
      headers: { authorization: 'Bearer x' },
    });
    expect(malformed.statusCode).toBe(401);
  });

  it('answers the upload limit the server enforces, so clients can check files before sending them', async () => {
    const small = await createTestApp({ CMS_MAX_UPLOAD_BYTES: '1000' });
    try {
      const me = await small.request({ method: 'GET', url: '/cms/rest/auth/me' });
      expect(me.json()).toMatchObject({ limits: { maxUploadBytes: 1000 } });
    } finally {
      await small.close();
    }
  });

  it('stops remembering a Basic credential once the password changes', async () => {
    const bob = await t.createUser('bob', 'Editor');
    expect(
      (await t.request({ method: 'GET', url: '/cms/rest/auth/me', headers: { authorization: bob } })).statusCode,
    ).toBe(200);
    await t.request({
      method: 'PUT',
      url: '/cms/rest/users/bob',
      payload: { role: 'Editor', password: 'another-password' },
    });
    expect(
      (await t.request({ method: 'GET', url: '/cms/rest/auth/me', headers: { authorization: bob } })).statusCode,
    ).toBe(401);
    const fresh = basic('bob', 'another-password');
    expect(
      (await t.request({ method: 'GET', url: '/cms/rest/auth/me', headers: { authorization: fresh } })).statusCode,
    ).toBe(200);
  });

  it('signs in with a session cookie, answers /me, and signs out on the server', async () => {
    const { res, cookie, csrf } = await login();
    expect(res.statusCode).toBe(200);
    const set = res.cookies.find((c) => c.name === 'folio_session')!;
    expect(set.httpOnly).toBe(true);
    expect(set.sameSite).toBe('Lax');
    expect(Buffer.from(set.value, 'base64url').length).toBeGreaterThanOrEqual(16);
    expect(csrf.length).toBeGreaterThan(20);

    const me = await t.request({ method: 'GET', url: '/cms/rest/auth/me', headers: { ...NO_AUTH, cookie } });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ username: 'admin', role: 'Admin', csrfToken: csrf });
    expect(res.json()).toMatchObject({ limits: { maxUploadBytes: t.config.maxUploadBytes } });

    const out = await t.request({
      method: 'POST',
      url: '/cms/rest/auth/logout',
      headers: { ...NO_AUTH, cookie, 'x-csrf-token': csrf },
    });
    expect(out.statusCode).toBe(200);
    const after = await t.request({ method: 'GET', url: '/cms/rest/auth/me', headers: { ...NO_AUTH, cookie } });
    expect(after.statusCode).toBe(401);
  });

  it('a session the node remembers follows every change: a role change, the user’s deletion, the idle limit', async () => {
    await t.createUser('carol', 'Editor');
    const signIn = async () => {
      const { cookie } = await login('carol', 'carol-password');
      return () => t.request({ method: 'GET', url: '/cms/rest/auth/me', headers: { ...NO_AUTH, cookie } });
    };
    let me = await signIn();
    // Read twice: the second answer comes from the remembered session.
    expect((await me()).json()).toMatchObject({ username: 'carol', role: 'Editor' });
    expect((await me()).json()).toMatchObject({ username: 'carol', role: 'Editor' });
    // A role change ends the user's sessions, remembered or not.
    const demote = await t.request({ method: 'PUT', url: '/cms/rest/users/carol', payload: { role: 'Viewer' } });
    expect(demote.statusCode).toBe(200);
    expect((await me()).statusCode).toBe(401);

    // Idle: alive just inside the limit (each read within 30 s of the last touch trusts the memory)...
    me = await signIn();
    expect((await me()).json()).toMatchObject({ username: 'carol', role: 'Viewer' });
    t.advance(29 * 60_000);
    expect((await me()).statusCode).toBe(200);
    expect((await me()).statusCode).toBe(200);
    // ...and ended past it, though this node remembered it a moment ago.
    t.advance(30 * 60_000 + 1);
    expect((await me()).statusCode).toBe(401);

    me = await signIn();
    expect((await me()).statusCode).toBe(200);
    expect((await me()).statusCode).toBe(200);
    expect((await t.request({ method: 'DELETE', url: '/cms/rest/users/carol' })).statusCode).toBe(200);
    expect((await me()).statusCode).toBe(401);
  });

  it('refuses a wrong password at login with 401 and no cookie', async () => {
    const { res, cookie } = await login('admin', 'wrong');
    expect(res.statusCode).toBe(401);
    expect(problemOf(res).code).toBe('UNAUTHENTICATED');
    expect(cookie).toBe('');
    const unknown = await login('nobody', 'wrong');
    expect(unknown.res.statusCode).toBe(401);
  });

  it('rate-limits repeated failures per username and address with 429', async () => {
    for (let i = 0; i < MAX_LOGIN_FAILURES; i++) expect((await login('admin', 'wrong')).res.statusCode).toBe(401);
    const locked = await login('admin', ADMIN_PASSWORD);
    expect(locked.res.statusCode).toBe(429);
    expect(problemOf(locked.res).code).toBe('TOO_MANY_ATTEMPTS');
    // Basic auth counts against the same limit.
    const viaBasic = await t.request({ method: 'GET', url: '/cms/rest/auth/me' });
    expect(viaBasic.statusCode).toBe(429);
    // Another username is not locked.
    await t.createUser('carol', 'Viewer').catch(() => undefined);
    t.advance(16 * 60_000);
    expect((await login('admin', ADMIN_PASSWORD)).res.statusCode).toBe(200);
  });

  it('counts concurrent failures exactly (one atomic upsert), without an error', async () => {
    const tries = await Promise.all(Array.from({ length: 2 * MAX_LOGIN_FAILURES + 2 }, () => login('admin', 'wrong')));
    // Every try is refused cleanly (401, or 429 once the lock is recorded); none collides into a 5xx.
    for (const { res } of tries) expect([401, 429]).toContain(res.statusCode);
    expect((await login('admin', ADMIN_PASSWORD)).res.statusCode).toBe(429);
  });

  it('starts counting afresh when the earlier failures are older than the window', async () => {
    for (let i = 0; i < MAX_LOGIN_FAILURES - 1; i++) expect((await login('admin', 'wrong')).res.statusCode).toBe(401);
    t.advance(16 * 60_000);
    for (let i = 0; i < MAX_LOGIN_FAILURES - 1; i++) expect((await login('admin', 'wrong')).res.statusCode).toBe(401);
    expect((await login('admin', ADMIN_PASSWORD)).res.statusCode).toBe(200);
  });

  it('ends a session after 30 idle minutes', async () => {
    const { cookie } = await login();
    t.advance(29 * 60_000);
    expect(
      (await t.request({ method: 'GET', url: '/cms/rest/auth/me', headers: { ...NO_AUTH, cookie } })).statusCode,
    ).toBe(200);
    t.advance(31 * 60_000);
    const res = await t.request({ method: 'GET', url: '/cms/rest/auth/me', headers: { ...NO_AUTH, cookie } });
    expect(res.statusCode).toBe(401);
    expect(problemOf(res).detail).toMatch(/session has ended/);
  });

  it('ends a session after 8 hours even when active', async () => {
    const { cookie } = await login();
    for (let h = 0; h < 8; h++) {
      t.advance(20 * 60_000);
      await t.request({ method: 'GET', url: '/cms/rest/auth/me', headers: { ...NO_AUTH, cookie } });
      t.advance(20 * 60_000);
      await t.request({ method: 'GET', url: '/cms/rest/auth/me', headers: { ...NO_AUTH, cookie } });
      t.advance(20 * 60_000);
      await t.request({ method: 'GET', url: '/cms/rest/auth/me', headers: { ...NO_AUTH, cookie } });
    }
    t.advance(60_000);
    expect(
      (await t.request({ method: 'GET', url: '/cms/rest/auth/me', headers: { ...NO_AUTH, cookie } })).statusCode,
    ).toBe(401);
  });

  it('requires the CSRF token for unsafe methods on a cookie session', async () => {
    const { cookie, csrf } = await login();
    const body = { role: 'Viewer', password: 'viewer-password' };
    const without = await t.request({
      method: 'PUT',
      url: '/cms/rest/users/vic',
      headers: { ...NO_AUTH, cookie },
      payload: body,
    });
    expect(without.statusCode).toBe(403);
    expect(problemOf(without).code).toBe('CSRF_TOKEN_INVALID');
    const wrong = await t.request({
      method: 'PUT',
      url: '/cms/rest/users/vic',
      headers: { ...NO_AUTH, cookie, 'x-csrf-token': csrf.slice(1) + 'x' },
      payload: body,
    });
    expect(wrong.statusCode).toBe(403);
    expect((await t.request({ method: 'GET', url: '/cms/rest/users' })).json()).toHaveLength(1);
    const right = await t.request({
      method: 'PUT',
      url: '/cms/rest/users/vic',
      headers: { ...NO_AUTH, cookie, 'x-csrf-token': csrf },
      payload: body,
    });
    expect(right.statusCode).toBe(201);
  });

  it('refuses a cross-origin sign-in', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/cms/rest/auth/login',
      headers: { ...NO_AUTH, origin: 'https://evil.example', host: 'localhost:8080' },
      payload: { username: 'admin', password: ADMIN_PASSWORD },
    });
    expect(res.statusCode).toBe(403);
  });

  it('never logs passwords, cookies or authorization headers, and tags every request line with its id', async () => {
    const lines: string[] = [];
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'folio-log-'));
    const app = await buildApp(
      loadConfig({ CMS_DATA_DIR: dir, CMS_ADMIN_PASSWORD: ADMIN_PASSWORD, CMS_SEED: 'false', LOG_LEVEL: 'info' }),
      { logStream: { write: (s: string) => lines.push(s) } },
    );
    const res = await app.inject({
      method: 'POST',
      url: '/cms/rest/auth/login',
      payload: { username: 'admin', password: ADMIN_PASSWORD },
    });
    const sid = res.cookies[0]!.value;
    await app.inject({
      method: 'GET',
      url: '/cms/rest/auth/me',
      headers: { cookie: `folio_session=${sid}`, authorization: basic('admin', ADMIN_PASSWORD) },
    });
    await app.close();
    await fs.rm(dir, { recursive: true, force: true });
    const all = lines.join('\n');
    const requestLines = lines.map((l) => JSON.parse(l)).filter((l) => l.req || l.res);
    // One line a request, once answered: what was asked, the status and the time it took.
    expect(requestLines.map((l) => [l.msg, l.req.method, l.req.url, l.res.statusCode])).toEqual([
      ['request completed', 'POST', '/cms/rest/auth/login', 200],
      ['request completed', 'GET', '/cms/rest/auth/me', 200],
    ]);
    for (const l of requestLines) {
      expect(l.reqId).toMatch(/^[0-9a-f-]{36}$/);
      expect(l.responseTime).toBeGreaterThan(0);
    }
    expect(all).not.toContain(ADMIN_PASSWORD);
    expect(all).not.toContain(sid);
    expect(all).not.toContain(Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64'));
  });
});
