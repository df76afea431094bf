import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ADMIN, ADMIN_PASSWORD, basic, createTestApp, problemOf, type TestApp } from '../../test/harness.js';
import { LOGIN_FAILURE_WINDOW_MS, MAX_LOGIN_FAILURES } from '../auth/password-check.js';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});
afterEach(async () => {
  await t.close();
});

const list = async () =>
  (await t.request({ method: 'GET', url: '/cms/rest/users' })).json() as { username: string; role: string }[];

describe('user management', () => {
  it('rejects unauthenticated calls', async () => {
    for (const [method, url] of [
      ['GET', '/cms/rest/users'],
      ['PUT', '/cms/rest/users/x'],
      ['DELETE', '/cms/rest/users/x'],
    ] as const) {
      const res = await t.request({
        method,
        url,
        headers: { authorization: '' },
        payload: method === 'PUT' ? { role: 'Viewer' } : undefined,
      });
      expect(res.statusCode).toBe(401);
    }
  });

  it('rejects an invalid body and a bad user name', async () => {
    const res = await t.request({
      method: 'PUT',
      url: '/cms/rest/users/ann',
      payload: { role: 'Viewer', password: 'short' },
    });
    expect(res.statusCode).toBe(400);
    expect(problemOf(res).errors![0]!.path).toBe('body.password');
    const badName = await t.request({
      method: 'PUT',
      url: '/cms/rest/users/a%20b',
      payload: { role: 'Viewer', password: 'long-enough' },
    });
    expect(badName.statusCode).toBe(400);
    expect(problemOf(badName).code).toBe('INVALID_PARAMETER');
    const noPassword = await t.request({ method: 'PUT', url: '/cms/rest/users/ann', payload: { role: 'Viewer' } });
    expect(noPassword.statusCode).toBe(400);
    expect(problemOf(noPassword).errors![0]!.path).toBe('body.password');
    expect(await list()).toHaveLength(1);
  });

  it('creates, lists, changes the role, resets the password and deletes', async () => {
    const created = await t.request({
      method: 'PUT',
      url: '/cms/rest/users/ann',
      payload: { role: 'Contributor', password: 'ann-password' },
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ username: 'ann', role: 'Contributor' });
    expect(created.json()).not.toHaveProperty('password_hash');
    expect((await list()).map((u) => u.username)).toEqual(['admin', 'ann']);

    const annAuth = basic('ann', 'ann-password');
    expect(
      (await t.request({ method: 'GET', url: '/cms/rest/auth/me', headers: { authorization: annAuth } })).json().role,
    ).toBe('Contributor');

    const promoted = await t.request({ method: 'PUT', url: '/cms/rest/users/ann', payload: { role: 'Editor' } });
    expect(promoted.statusCode).toBe(200);
    expect(
      (await t.request({ method: 'GET', url: '/cms/rest/auth/me', headers: { authorization: annAuth } })).json().role,
    ).toBe('Editor');

    await t.request({
      method: 'PUT',
      url: '/cms/rest/users/ann',
      payload: { role: 'Editor', password: 'new-ann-password' },
    });
    expect(
      (await t.request({ method: 'GET', url: '/cms/rest/auth/me', headers: { authorization: annAuth } })).statusCode,
    ).toBe(401);

    const del = await t.request({ method: 'DELETE', url: '/cms/rest/users/ann' });
    expect(del.statusCode).toBe(200);
    expect(del.json()).toEqual({ message: 'Deleted' });
    expect((await list()).map((u) => u.username)).toEqual(['admin']);
    const again = await t.request({ method: 'DELETE', url: '/cms/rest/users/ann' });
    expect(again.statusCode).toBe(404);
    expect(problemOf(again).code).toBe('USER_NOT_FOUND');
  });

  it('ends the sessions of a user whose password changes', async () => {
    await t.createUser('bea', 'Editor');
    const login = await t.request({
      method: 'POST',
      url: '/cms/rest/auth/login',
      headers: { authorization: '' },
      payload: { username: 'bea', password: 'bea-password' },
    });
    const cookie = `folio_session=${login.cookies[0]!.value}`;
    expect(
      (await t.request({ method: 'GET', url: '/cms/rest/auth/me', headers: { authorization: '', cookie } })).statusCode,
    ).toBe(200);
    await t.request({
      method: 'PUT',
      url: '/cms/rest/users/bea',
      payload: { role: 'Editor', password: 'changed-password' },
    });
    expect(
      (await t.request({ method: 'GET', url: '/cms/rest/auth/me', headers: { authorization: '', cookie } })).statusCode,
    ).toBe(401);
  });

  it("asks for the current password to change one's own, as POST /auth/password does; not another user's", async () => {
    await t.createUser('cal', 'Editor');
    const own = (body: Record<string, string>) =>
      t.request({ method: 'PUT', url: '/cms/rest/users/admin', payload: { role: 'Admin', ...body } });
    const signsIn = async (password: string) =>
      (
        await t.request({
          method: 'GET',
          url: '/cms/rest/auth/me',
          headers: { authorization: basic('admin', password) },
        })
      ).statusCode === 200;

    const missing = await own({ password: 'taken-over-password' });
    expect(missing.statusCode).toBe(400);
    expect(problemOf(missing)).toMatchObject({
      code: 'INVALID_BODY',
      errors: [{ path: 'body.currentPassword', message: 'is required to change your own password' }],
    });
    const wrong = await own({ password: 'taken-over-password', currentPassword: 'not-the-password' });
    expect(wrong.statusCode).toBe(400);
    expect(problemOf(wrong).errors).toEqual([{ path: 'body.currentPassword', message: 'is wrong' }]);

    // Wrong current passwords count toward the sign-in rate limit, as for POST /auth/password.
    for (let i = 2; i <= MAX_LOGIN_FAILURES; i++) {
      expect((await own({ password: 'taken-over-password', currentPassword: `wrong-${i}` })).statusCode).toBe(400);
    }
    const limited = await own({ password: 'taken-over-password', currentPassword: ADMIN_PASSWORD });
    expect(limited.statusCode).toBe(429);
    expect(problemOf(limited).code).toBe('TOO_MANY_ATTEMPTS');
    t.advance(LOGIN_FAILURE_WINDOW_MS + 1);
    expect(await signsIn('taken-over-password')).toBe(false);
    expect(await signsIn(ADMIN_PASSWORD)).toBe(true);

    // A role-only PUT of one's own account needs no password.
    expect((await own({})).statusCode).toBe(200);
    const changed = await own({ password: 'my-new-password', currentPassword: ADMIN_PASSWORD });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(await signsIn(ADMIN_PASSWORD)).toBe(false);
    expect(await signsIn('my-new-password')).toBe(true);

    // An admin resets another user's password without knowing it.
    const reset = await t.request({
      method: 'PUT',
      url: '/cms/rest/users/cal',
      headers: { authorization: basic('admin', 'my-new-password') },
      payload: { role: 'Editor', password: 'cal-new-password' },
    });
    expect(reset.statusCode, reset.body).toBe(200);
  });

  it('forbids non-admins with 403 and changes nothing', async () => {
    for (const role of ['Viewer', 'Contributor', 'Editor'] as const) {
      const auth = await t.createUser(`u${role.toLowerCase()}`, role);
      const get = await t.request({ method: 'GET', url: '/cms/rest/users', headers: { authorization: auth } });
      expect(get.statusCode).toBe(403);
      expect(problemOf(get).code).toBe('NOT_AUTHORIZED');
      const put = await t.request({
        method: 'PUT',
        url: '/cms/rest/users/admin',
        headers: { authorization: auth },
        payload: { role: 'Viewer', password: 'takeover-pass' },
      });
      expect(put.statusCode).toBe(403);
      const del = await t.request({ method: 'DELETE', url: '/cms/rest/users/admin', headers: { authorization: auth } });
      expect(del.statusCode).toBe(403);
    }
    expect(
      (await t.request({ method: 'GET', url: '/cms/rest/auth/me', headers: { authorization: ADMIN } })).json().role,
    ).toBe('Admin');
  });

  it('keeps at least one admin and refuses deleting yourself', async () => {
    const demote = await t.request({ method: 'PUT', url: '/cms/rest/users/admin', payload: { role: 'Editor' } });
    expect(demote.statusCode).toBe(409);
    const self = await t.request({ method: 'DELETE', url: '/cms/rest/users/admin' });
    expect(self.statusCode).toBe(409);
    expect((await list())[0]!.role).toBe('Admin');
  });

  it('gives each user a strong ETag and refuses a stale If-Match on PUT and DELETE, changing nothing', async () => {
    const created = await t.request({
      method: 'PUT',
      url: '/cms/rest/users/ann',
      payload: { role: 'Viewer', password: 'ann-password' },
    });
    expect(created.statusCode).toBe(201);
    const v1 = created.headers.etag as string;
    expect(v1).toMatch(/^"[\w-]+"$/);
    const get = await t.request({ method: 'GET', url: '/cms/rest/users/ann' });
    expect(get.statusCode).toBe(200);
    expect(get.headers.etag).toBe(v1);
    expect(get.json()).toEqual(created.json());
    expect(problemOf(await t.request({ method: 'GET', url: '/cms/rest/users/nobody' })).code).toBe('USER_NOT_FOUND');

    // Another admin changes the role: the first one's ETag is now stale.
    t.advance(1000);
    const promoted = await t.request({
      method: 'PUT',
      url: '/cms/rest/users/ann',
      headers: { 'if-match': v1 },
      payload: { role: 'Editor' },
    });
    expect(promoted.statusCode).toBe(200);
    const v2 = promoted.headers.etag as string;
    expect(v2).not.toBe(v1);

    const stalePut = await t.request({
      method: 'PUT',
      url: '/cms/rest/users/ann',
      headers: { 'if-match': v1 },
      payload: { role: 'Viewer' },
    });
    expect(stalePut.statusCode).toBe(412);
    expect(problemOf(stalePut).status).toBe(412);
    const staleDelete = await t.request({ method: 'DELETE', url: '/cms/rest/users/ann', headers: { 'if-match': v1 } });
    expect(staleDelete.statusCode).toBe(412);
    const after = await t.request({ method: 'GET', url: '/cms/rest/users/ann' });
    expect(after.json().role).toBe('Editor');
    expect(after.headers.etag).toBe(v2);

    // If-Match on a user that does not exist never matches, not even `*`: nothing is created.
    const ghost = await t.request({
      method: 'PUT',
      url: '/cms/rest/users/ghost',
      headers: { 'if-match': '*' },
      payload: { role: 'Viewer', password: 'ghost-password' },
    });
    expect(ghost.statusCode).toBe(412);
    expect((await list()).map((u) => u.username)).not.toContain('ghost');

    const deleted = await t.request({ method: 'DELETE', url: '/cms/rest/users/ann', headers: { 'if-match': v2 } });
    expect(deleted.statusCode).toBe(200);
    expect((await list()).map((u) => u.username)).toEqual(['admin']);
  });

  it('shows a single user to admins only', async () => {
    const viewer = await t.createUser('vera', 'Viewer');
    const res = await t.request({ method: 'GET', url: '/cms/rest/users/vera', headers: { authorization: viewer } });
    expect(res.statusCode).toBe(403);
    const anon = await t.request({ method: 'GET', url: '/cms/rest/users/vera', headers: { authorization: '' } });
    expect(anon.statusCode).toBe(401);
  });
});
