import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SESSION_HINT_COOKIE } from '../../../shared/api/auth.js';
import { basic, createTestApp, problemOf, type TestApp } from '../../test/harness.js';
import { LOGIN_FAILURE_WINDOW_MS, MAX_LOGIN_FAILURES } from './auth.service.js';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});
afterEach(async () => {
  await t.close();
});

const NO_AUTH = { authorization: '' };
const URL = '/cms/rest/auth/password';

async function login(username: string, password: string) {
  const res = await t.request({
    method: 'POST',
    url: '/cms/rest/auth/login',
    headers: NO_AUTH,
    payload: { username, password },
  });
  const cookie = res.cookies.find((c) => c.name === 'folio_session');
  return {
    status: res.statusCode,
    headers: cookie ? { ...NO_AUTH, cookie: `folio_session=${cookie.value}` } : NO_AUTH,
    csrf: res.statusCode === 200 ? (res.json().csrfToken as string) : '',
  };
}

const me = (headers: Record<string, string>) => t.request({ method: 'GET', url: '/cms/rest/auth/me', headers });

describe('changing one’s own password', () => {
  it('rejects unauthenticated and an invalid body, changing nothing', async () => {
    await t.createUser('cora', 'Contributor');
    const anonymous = await t.request({
      method: 'POST',
      url: URL,
      headers: NO_AUTH,
      payload: { currentPassword: 'cora-password', newPassword: 'another-password' },
    });
    expect(anonymous.statusCode).toBe(401);
    const cora = basic('cora', 'cora-password');
    for (const [payload, paths] of [
      [{}, ['body.currentPassword', 'body.newPassword']],
      [{ currentPassword: 'cora-password', newPassword: 'short' }, ['body.newPassword']],
      [{ currentPassword: 'cora-password', newPassword: 'cora-password' }, ['body.newPassword']],
    ] as const) {
      const res = await t.request({ method: 'POST', url: URL, headers: { authorization: cora }, payload });
      expect(res.statusCode, res.body).toBe(400);
      expect(
        problemOf(res)
          .errors!.map((e) => e.path)
          .sort(),
      ).toEqual([...paths]);
    }
    expect((await me({ authorization: cora })).statusCode).toBe(200);
  });

  it('needs the current password: a wrong one is a 400 on that field (not a sign-out) and counts as a failure', async () => {
    await t.createUser('cora', 'Contributor');
    const session = await login('cora', 'cora-password');
    const headers = { ...session.headers, 'x-csrf-token': session.csrf };
    for (let i = 0; i < MAX_LOGIN_FAILURES; i++) {
      const res = await t.request({
        method: 'POST',
        url: URL,
        headers,
        payload: { currentPassword: `wrong-${i}`, newPassword: 'a-new-password' },
      });
      expect(res.statusCode, res.body).toBe(400);
      expect(problemOf(res).errors).toEqual([{ path: 'body.currentPassword', message: 'is wrong' }]);
    }
    // Guessing is rate limited like signing in.
    const locked = await t.request({
      method: 'POST',
      url: URL,
      headers,
      payload: { currentPassword: 'cora-password', newPassword: 'a-new-password' },
    });
    expect(locked.statusCode).toBe(429);
    // The session is still there, and after the lock-out the password is the same as before.
    expect((await me(session.headers)).statusCode).toBe(200);
    t.advance(LOGIN_FAILURE_WINDOW_MS + 1);
    expect((await me({ authorization: basic('cora', 'cora-password') })).statusCode).toBe(200);
  });

  it('changes it: the new one signs in, the old one no longer does, other sessions end and this one stays', async () => {
    await t.createUser('cora', 'Contributor');
    const here = await login('cora', 'cora-password');
    const elsewhere = await login('cora', 'cora-password');
    const res = await t.request({
      method: 'POST',
      url: URL,
      headers: { ...here.headers, 'x-csrf-token': here.csrf },
      payload: { currentPassword: 'cora-password', newPassword: 'a-new-password' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ message: 'Password changed' });

    expect((await me(here.headers)).statusCode).toBe(200);
    expect((await me(elsewhere.headers)).statusCode).toBe(401);
    expect((await login('cora', 'cora-password')).status).toBe(401);
    expect((await login('cora', 'a-new-password')).status).toBe(200);
    expect((await me({ authorization: basic('cora', 'a-new-password') })).statusCode).toBe(200);
  });

  it('works over HTTP Basic too, and the old credential stops working at once', async () => {
    await t.createUser('cora', 'Contributor');
    const old = basic('cora', 'cora-password');
    expect((await me({ authorization: old })).statusCode).toBe(200);
    const res = await t.request({
      method: 'POST',
      url: URL,
      headers: { authorization: old },
      payload: { currentPassword: 'cora-password', newPassword: 'a-new-password' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await me({ authorization: old })).statusCode).toBe(401);
  });
});

describe('the sign-in hint cookie', () => {
  it('is set readable (no secret) with the session at sign-in and cleared at sign-out', async () => {
    await t.createUser('cora', 'Contributor');
    const res = await t.request({
      method: 'POST',
      url: '/cms/rest/auth/login',
      headers: NO_AUTH,
      payload: { username: 'cora', password: 'cora-password' },
    });
    const hint = res.cookies.find((c) => c.name === SESSION_HINT_COOKIE)!;
    const session = res.cookies.find((c) => c.name === 'folio_session')!;
    expect(hint).toMatchObject({ value: '1', path: '/', sameSite: 'Lax' });
    expect(hint.httpOnly).toBeFalsy();
    expect(session.httpOnly).toBe(true);
    expect(hint.maxAge).toBe(session.maxAge);

    const out = await t.request({
      method: 'POST',
      url: '/cms/rest/auth/logout',
      headers: { ...NO_AUTH, cookie: `folio_session=${session.value}`, 'x-csrf-token': res.json().csrfToken },
    });
    expect(out.statusCode).toBe(200);
    const cleared = out.cookies.find((c) => c.name === SESSION_HINT_COOKIE)!;
    expect(cleared.value).toBe('');
    expect(new Date(cleared.expires!).getTime()).toBeLessThanOrEqual(Date.now());
  });
});
