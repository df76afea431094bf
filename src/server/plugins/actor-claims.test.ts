import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { basic, createTestApp, problemOf, statementsOf, type TestApp } from '../test/harness.js';

/**
 * Routes that prove their caller in their own statement (config.provesActor; ActorClaim in lib/context.ts): on
 * PostgreSQL, with the response cache off, a GET takes a credential or session this node checked moments ago on
 * trust and proves it in the statement that reads. Whatever the database, the answers must be those of reading
 * the user or session row first: credentials that no longer hold get 401 at once, never data or another error.
 */
let t: TestApp;
beforeEach(async () => {
  t = await createTestApp({ CMS_SEED: 'true', CMS_RESPONSE_CACHE: 'off' });
});
afterEach(async () => {
  await t.close();
});

const URLS = [
  '/cms/rest/pages/by-path/demo/articles/welcome',
  '/cms/rest/folders/by-path/demo/articles',
  '/cms/rest/assets/by-path/Assets/snippets/contact',
];

async function signIn(username: string, password: string) {
  const res = await t.request({
    method: 'POST',
    url: '/cms/rest/auth/login',
    headers: { authorization: '' },
    payload: { username, password },
  });
  expect(res.statusCode).toBe(200);
  return `folio_session=${res.cookies.find((c) => c.name === 'folio_session')!.value}`;
}

describe('GETs that prove their caller (response cache off)', () => {
  it('answer remembered callers in one statement on PostgreSQL, and refuse changed credentials at once', async () => {
    const viewer = await t.createUser('vi', 'Viewer');
    const cookie = await signIn('vi', 'vi-password');
    const get = (url: string, headers: Record<string, string>) =>
      t.request({ method: 'GET', url, headers: { authorization: '', ...headers } });
    const callers: Record<string, string>[] = [{ authorization: viewer }, { cookie }];
    const before = new Map<string, string>();
    for (const url of URLS) {
      for (const headers of callers) {
        // Twice: the first read stores what the second answers from.
        for (let i = 0; i < 2; i++) {
          const res = await get(url, headers);
          expect(res.statusCode, url).toBe(200);
          before.set(url, res.body);
        }
        if (process.env.TEST_DATABASE_URL) {
          const sent = await statementsOf(t, async () => expect((await get(url, headers)).body).toBe(before.get(url)));
          expect(sent, `${url} ${Object.keys(headers)[0]}`).toHaveLength(1);
          expect(sent[0]).toMatch(/ as proven/);
        }
      }
    }

    // A password change ends the session and the old Basic credential: 401 on every route, also for a path that
    // does not exist (a 404 is only said to those who may ask). (Five wrong passwords would lock the name out.)
    expect(
      (
        await t.request({
          method: 'PUT',
          url: '/cms/rest/users/vi',
          payload: { role: 'Viewer', password: 'changed-1' },
        })
      ).statusCode,
    ).toBe(200);
    const missing = [`${URLS[1]}/nothing-here`, '/cms/rest/assets/by-path/Assets/snippets/nothing'];
    for (const [url, headers] of [
      ...URLS.map((url) => [url, { authorization: viewer }] as const),
      ...[...URLS, ...missing].map((url) => [url, { cookie }] as const),
    ]) {
      const res = await get(url, headers);
      expect(res.statusCode, `${url} ${Object.keys(headers)[0]}`).toBe(401);
      expect(problemOf(res).code).toBe('UNAUTHENTICATED');
    }
    const renewed = basic('vi', 'changed-1');
    for (const url of URLS) expect((await get(url, { authorization: renewed })).body).toBe(before.get(url));
    // A write by someone else is read at once; a deleted user is refused at once.
    const page = URLS[0]!;
    const edit = await t.request({
      method: 'PUT',
      url: page,
      payload: { templateName: 'article', displayName: 'New' },
    });
    expect(edit.statusCode).toBe(200);
    for (let i = 0; i < 2; i++) expect((await get(page, { authorization: renewed })).json().displayName).toBe('New');
    expect((await t.request({ method: 'DELETE', url: '/cms/rest/users/vi' })).statusCode).toBe(200);
    expect((await get(page, { authorization: renewed })).statusCode).toBe(401);
  });

  it('answer a folder as the role the caller has now, not the one remembered', async () => {
    const editor = await t.createUser('ed', 'Editor');
    const folder = URLS[1]!;
    const read = async (authorization: string) =>
      (await t.request({ method: 'GET', url: folder, headers: { authorization } })).json() as { accessLevel: string };
    expect((await read(editor)).accessLevel).toBe('WRITE');
    expect((await read(editor)).accessLevel).toBe('WRITE');
    expect(
      (await t.request({ method: 'PUT', url: '/cms/rest/users/ed', payload: { role: 'Viewer' } })).statusCode,
    ).toBe(200);
    expect((await read(editor)).accessLevel).toBe('READ');
  });
});

describe('PUTs that prove their caller', () => {
  it('write an asset this node wrote, for a remembered caller, in one statement, and refuse changed credentials', async () => {
    const asset = URLS[2]!;
    const editor = await t.createUser('ed', 'Editor');
    const put = (text: string, authorization = editor) =>
      t.request({ method: 'PUT', url: asset, headers: { authorization }, payload: { fields: { text } } });
    expect((await put('<p>One</p>')).statusCode).toBe(200);
    const sent = await statementsOf(t, async () => expect((await put('<p>Two</p>')).statusCode).toBe(200));
    // The asset as this node wrote it is written again at once: no read of the asset or of the caller.
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatch(
      process.env.TEST_DATABASE_URL
        ? /^with generation_bump as .* and \(exists \(select 1 from users /
        : /^update "assets" .* and \(exists \(select 1 from users /,
    );
    // A lower role is refused as that role; a changed password with 401 (also for a PUT that changes nothing).
    expect(
      (await t.request({ method: 'PUT', url: '/cms/rest/users/ed', payload: { role: 'Viewer' } })).statusCode,
    ).toBe(200);
    expect((await put('<p>As a viewer</p>')).statusCode).toBe(403);
    expect(
      (
        await t.request({
          method: 'PUT',
          url: '/cms/rest/users/ed',
          payload: { role: 'Editor', password: 'changed-2' },
        })
      ).statusCode,
    ).toBe(200);
    for (const text of ['<p>Three</p>', '<p>Two</p>']) expect((await put(text)).statusCode).toBe(401);
    const now = await t.request({ method: 'GET', url: asset });
    expect(now.json().fields.text).toBe('<p>Two</p>');
    expect((await put('<p>Four</p>', basic('ed', 'changed-2'))).statusCode).toBe(200);
  });
  it('write a folder’s own fields for a remembered caller, proven in the write, and refuse changed credentials', async () => {
    const section = '/cms/rest/folders/by-path/demo/about';
    const editor = await t.createUser('ed', 'Editor');
    const put = (displayTitle: string, authorization = editor) =>
      t.request({
        method: 'PUT',
        url: section,
        headers: { authorization },
        payload: { sectionInfo: { displayTitle } },
      });
    expect((await put('One')).statusCode).toBe(200);
    let res: Awaited<ReturnType<typeof put>> | undefined;
    const sent = await statementsOf(t, async () => (res = await put('Two')));
    expect(res!.statusCode).toBe(200);
    // The section as this node wrote it is written again at once: no read of it or of the caller.
    expect(sent).toHaveLength(1);
    expect(sent.at(-1)).toMatch(
      process.env.TEST_DATABASE_URL
        ? /^with generation_bump as .*update "nodes" set .* and \(exists \(select 1 from users /
        : /^update "nodes" set .* and \(exists \(select 1 from users /,
    );
    // The editor's GET (accessLevel is the caller's).
    expect((await t.request({ method: 'GET', url: section, headers: { authorization: editor } })).body).toBe(res!.body);
    expect(
      (await t.request({ method: 'PUT', url: '/cms/rest/users/ed', payload: { role: 'Viewer' } })).statusCode,
    ).toBe(200);
    expect((await put('As a viewer')).statusCode).toBe(403);
    expect(
      (
        await t.request({
          method: 'PUT',
          url: '/cms/rest/users/ed',
          payload: { role: 'Editor', password: 'changed-3' },
        })
      ).statusCode,
    ).toBe(200);
    // 401 for a write, and for a PUT that would change nothing.
    for (const title of ['Three', 'Two']) expect((await put(title)).statusCode).toBe(401);
    expect((await t.request({ method: 'GET', url: section })).json().sectionInfo.displayTitle).toBe('Two');
    expect((await put('Four', basic('ed', 'changed-3'))).statusCode).toBe(200);
  });
});
