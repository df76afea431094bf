import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Page, PagePutResponse } from '../../../shared/api/pages.js';
import { nextId } from '../../db/dialect.js';
import { SYSTEM_ACTOR } from '../../lib/context.js';
import { etagOf } from '../../lib/etag.js';
import { basic, createTestApp, problemOf, statementsOf, type TestApp } from '../../test/harness.js';
import { ensureAssetFolder, insertAssetRecord } from '../assets/asset-records.js';
import { treeRepository } from '../tree/tree.repository.js';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
  await createTemplate('basic');
  await createSite('site');
});
afterEach(async () => {
  await t.close();
});

// ── Factories ────────────────────────────────────────────────────────────────────────────────────────────

const db = () => t.app.folio.ctx.db;

/** header (template widget, not editable), main and sidebar (editable), footer (not editable, no widgets). */
const BASIC_REGIONS = [
  { name: 'header', editable: false, widgets: [{ type: 'cmsTitle', asset: { fields: { heading_level: 'h1' } } }] },
  { name: 'main', editable: true },
  { name: 'sidebar', editable: true },
  { name: 'footer', editable: false },
];

async function createTemplate(name: string, regions: unknown[] = BASIC_REGIONS) {
  const res = await t.request({ method: 'PUT', url: `/cms/rest/templates/${name}`, payload: { regions } });
  if (res.statusCode !== 201) throw new Error(`createTemplate: ${res.body}`);
}

/** Inserts a tree node directly (sites, folders and sections are another module's). */
async function insertNode(
  parentId: string,
  kind: 'site' | 'folder' | 'section',
  name: string,
  accessLevel: string | null = null,
) {
  const now = new Date().toISOString();
  const id = await nextId(db(), 'folder');
  await treeRepository.insert(db(), {
    id,
    parent_id: parentId,
    kind,
    name,
    sort_order: 0,
    access_level: accessLevel,
    workflow: null,
    display_title: kind === 'folder' ? null : name,
    target_window: kind === 'folder' ? null : '_self',
    nav_class: null,
    template_name: null,
    external_url: null,
    link_target_id: null,
    landing_page_id: null,
    created_at: now,
    updated_at: now,
  });
  return id;
}
const createSite = (name: string) => insertNode('0-0-1', 'site', name);
/** A folder (or section) at `path` (`site/a/b`), its parents existing. */
async function createFolder(path: string, kind: 'folder' | 'section' = 'folder', accessLevel: string | null = null) {
  const segments = path.split('/');
  const { chain } = await treeRepository.resolve(db(), segments.slice(0, -1));
  return insertNode(chain[chain.length - 1]!.id, kind, segments[segments.length - 1]!, accessLevel);
}

/** A shared asset made directly (the asset endpoints are another module's). */
async function createSharedAsset(path: string, type: string, fields: Record<string, string>) {
  const segments = path.split('/');
  return db()
    .transaction()
    .execute(async (trx) => {
      const folders = await ensureAssetFolder(trx, segments.slice(0, -1), Date.now());
      return insertAssetRecord(trx, {
        folderId: folders[folders.length - 1]!.id,
        name: segments[segments.length - 1]!,
        type,
        fields,
        actor: SYSTEM_ACTOR,
        now: Date.now(),
        folder: segments.slice(0, -1),
      });
    });
}
async function assetFields(id: string) {
  const row = await db().selectFrom('assets').select(['fields', 'type']).where('node_id', '=', id).executeTakeFirst();
  return row ? { type: row.type, fields: JSON.parse(row.fields) } : undefined;
}
async function assetAt(path: string) {
  const { chain, found } = await treeRepository.resolve(db(), path.split('/'));
  return found === path.split('/').length ? chain[chain.length - 1] : undefined;
}
async function countRows(table: 'widgets' | 'assets' | 'nodes' | 'pages') {
  const r = await db()
    .selectFrom(table)
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

const url = (path: string) => `/cms/rest/pages/by-path/${path}`;
function putPage(path: string, payload: unknown, headers: Record<string, string> = {}) {
  return t.request({ method: 'PUT', url: url(path), payload: payload as object, headers });
}
const getPage = (path: string, headers: Record<string, string> = {}) =>
  t.request({ method: 'GET', url: url(path), headers });
const deletePage = (path: string, headers: Record<string, string> = {}) =>
  t.request({ method: 'DELETE', url: url(path), headers });

/** Creates a page and answers it. */
async function createPage(path: string, extra: object = {}) {
  const res = await putPage(path, { templateName: 'basic', ...extra });
  if (res.statusCode !== 201) throw new Error(`createPage ${path}: ${res.statusCode} ${res.body}`);
  return PagePutResponse.parse(res.json());
}
/** The page as GET answers it, checked against the contract. */
async function readPage(path: string) {
  const res = await getPage(path);
  expect(res.statusCode, res.body).toBe(200);
  return Page.parse(res.json());
}
/** A PUT that must succeed; answers the page. */
async function update(path: string, payload: object, headers: Record<string, string> = {}) {
  const res = await putPage(path, { templateName: 'basic', ...payload }, headers);
  expect(res.statusCode, res.body).toBe(200);
  return PagePutResponse.parse(res.json());
}
/** A PUT that must fail with `status`/`code` and change nothing. */
async function refused(
  path: string,
  payload: object,
  status: number,
  code: string,
  headers: Record<string, string> = {},
) {
  const before = await getPage(path);
  const res = await putPage(path, payload, headers);
  expect(res.statusCode, res.body).toBe(status);
  const problem = problemOf(res);
  expect(problem.code).toBe(code);
  const after = await getPage(path);
  expect(after.statusCode).toBe(before.statusCode);
  expect(after.body).toBe(before.body);
  return problem;
}

const rich = (text: string, extra: object = {}) => ({ type: 'cmsRichText', asset: { fields: { text } }, ...extra });
const region = (page: Pick<Page, 'body'>, name: string) => page.body.find((r) => r.name === name)!;
const texts = (page: Pick<Page, 'body'>, name: string) => region(page, name).widgets.map((w) => w.asset.fields.text);
const setState = async (path: string, state: string, auth?: string, comment?: string) =>
  putPage(path, { templateName: 'basic', workflow: { state, comment } }, auth ? { authorization: auth } : {});

// ── Tests ────────────────────────────────────────────────────────────────────────────────────────────────

describe('pages: authentication and validation', () => {
  it('rejects unauthenticated', async () => {
    await createPage('site/home');
    for (const [method, u] of [
      ['GET', url('site/home')],
      ['PUT', url('site/home')],
      ['DELETE', url('site/home')],
      ['GET', '/cms/rest/pages/transitions/site/home'],
      ['POST', '/cms/rest/pages/approve-all/site'],
    ] as const) {
      const res = await t.request({
        method,
        url: u,
        headers: { authorization: '' },
        payload: method === 'PUT' ? { templateName: 'basic' } : undefined,
      });
      expect(res.statusCode, `${method} ${u}`).toBe(401);
      expect(problemOf(res).code).toBe('UNAUTHENTICATED');
    }
    expect((await readPage('site/home')).workflow.state).toBe('Draft');
  });

  it('rejects an invalid body, naming the field, and creates nothing', async () => {
    const cases: [unknown, string][] = [
      [{}, 'body.templateName'],
      [{ displayName: 'x' }, 'body.templateName'],
      [{ templateName: 'basic', displayName: '' }, 'body.displayName'],
      [{ templateName: 'basic', seo: { hideSearch: 'yes' } }, 'body.seo.hideSearch'],
      [{ templateName: 'basic', seo: { tags: 'a,b' } }, 'body.seo.tags'],
      [{ templateName: 'basic', calendar: { startDate: '31/12/2026' } }, 'body.calendar.startDate'],
      [{ templateName: 'basic', calendar: { startDate: '2026-02-30' } }, 'body.calendar.startDate'],
      [{ templateName: 'basic', overridePostDate: 'yesterday' }, 'body.overridePostDate'],
      [{ templateName: 'basic', code: { footer: '<p>' } }, 'body.code'],
      [{ templateName: 'basic', workflow: { state: 'Published' } }, 'body.workflow.state'],
      [
        { templateName: 'basic', body: [{ name: 'main', widgets: [{ type: 'cmsNope' }] }] },
        'body.body.0.widgets.0.type',
      ],
      [{ templateName: 'basic', body: [{ name: 'main' }] }, 'body.body.0.widgets'],
      [
        {
          templateName: 'basic',
          body: [{ name: 'main', widgets: [{ type: 'cmsRichText', asset: { fields: { text: 5 } } }] }],
        },
        'body.body.0.widgets.0.asset.fields.text',
      ],
      [
        { templateName: 'basic', body: [{ name: 'main', widgets: [{ type: 'cmsRichText', asset: { name: 'x' } }] }] },
        'body.body.0.widgets.0.asset.folderPath',
      ],
      [
        {
          templateName: 'basic',
          body: [{ name: 'main', widgets: [{ type: 'cmsRichText', asset: { remove: true, fields: {} } }] }],
        },
        'body.body.0.widgets.0.asset.remove',
      ],
    ];
    for (const [payload, path] of cases) {
      const res = await putPage('site/home', payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(
        problemOf(res).errors?.map((e) => e.path),
        JSON.stringify(payload),
      ).toContain(path);
    }
    const wf = await putPage('site/home', { templateName: 'basic', workflow: { name: 'Other' } });
    expect(problemOf(wf).errors?.[0]?.path).toBe('body.workflow.name');
    const dates = await putPage('site/home', {
      templateName: 'basic',
      calendar: { startDate: '2026-05-02', endDate: '2026-05-01' },
    });
    expect(dates.statusCode).toBe(400);
    expect(problemOf(dates).errors?.[0]?.path).toBe('body.calendar.endDate');
    const json = await t.request({
      method: 'PUT',
      url: url('site/home'),
      headers: { 'content-type': 'application/json' },
      payload: '{"templateName": ',
    });
    expect(problemOf(json).code).toBe('INVALID_JSON');
    expect(problemOf(await getPage('site/home')).code).toBe('PAGE_NOT_FOUND');
    expect(await countRows('pages')).toBe(0);
  });
});

describe('pages: credentials that change between writes', () => {
  // On PostgreSQL a PUT takes a Basic credential this node verified in the last minute on trust and proves it in
  // the statement that writes (ActorClaim); everything must come out as if the user row were read first.
  it('a changed password, a lower role or a deleted user stops the next PUT, whatever it sends, and nothing changes', async () => {
    await createPage('site/home', { displayName: 'Start' });
    const editor = await t.createUser('ed', 'Editor');
    const put = (payload: Record<string, unknown>, authorization = editor) =>
      t.request({ method: 'PUT', url: url('site/home'), headers: { authorization }, payload });
    // Remembered: these PUTs of fields go the one-statement way.
    for (const n of [1, 2])
      expect((await put({ templateName: 'basic', displayName: `By ed ${n}` })).statusCode).toBe(200);

    // A lower role: refused as that role would be.
    expect(
      (await t.request({ method: 'PUT', url: '/cms/rest/users/ed', payload: { role: 'Viewer' } })).statusCode,
    ).toBe(200);
    const demoted = await put({ templateName: 'basic', displayName: 'As a viewer' });
    expect(demoted.statusCode).toBe(403);
    expect((await readPage('site/home')).displayName).toBe('By ed 2');

    // A changed password: 401 for a change, for a PUT that changes nothing, and before the body's own 400 or 412.
    expect(
      (await t.request({ method: 'PUT', url: '/cms/rest/users/ed', payload: { role: 'Editor' } })).statusCode,
    ).toBe(200);
    expect((await put({ templateName: 'basic', displayName: 'By ed 3' })).statusCode).toBe(200);
    expect(
      (
        await t.request({
          method: 'PUT',
          url: '/cms/rest/users/ed',
          payload: { role: 'Editor', password: 'new-one-123' },
        })
      ).statusCode,
    ).toBe(200);
    for (const payload of [
      { templateName: 'basic', displayName: 'After the change' },
      { templateName: 'basic', displayName: 'By ed 3' },
      { templateName: 'basic', displayName: '' },
    ]) {
      const res = await put(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(401);
      expect(problemOf(res).code).toBe('UNAUTHENTICATED');
    }
    const stale = await t.request({
      method: 'PUT',
      url: url('site/home'),
      headers: { authorization: editor, 'if-match': '"not-the-etag"' },
      payload: { templateName: 'basic', displayName: 'Stale' },
    });
    expect(stale.statusCode).toBe(401);
    expect((await readPage('site/home')).displayName).toBe('By ed 3');

    // The new password works at once; a deleted user is refused at once.
    const renewed = basic('ed', 'new-one-123');
    expect((await put({ templateName: 'basic', displayName: 'By ed 4' }, renewed)).statusCode).toBe(200);
    expect((await put({ templateName: 'basic', displayName: 'By ed 5' }, renewed)).statusCode).toBe(200);
    expect((await t.request({ method: 'DELETE', url: '/cms/rest/users/ed' })).statusCode).toBe(200);
    expect((await put({ templateName: 'basic', displayName: 'Gone' }, renewed)).statusCode).toBe(401);
    expect((await readPage('site/home')).displayName).toBe('By ed 5');
  });
});

describe('pages: sessions that change between writes', () => {
  it('a role change, sign-out elsewhere or a password change stops the next PUT with the session, and nothing changes', async () => {
    await createPage('site/home', { displayName: 'Start' });
    await t.createUser('ed', 'Editor');
    let s = { cookie: '', csrf: '' };
    /** Signs ed in and reads the page (so this node remembers the session: later writes go the one-statement way). */
    const signIn = async () => {
      const res = await t.request({
        method: 'POST',
        url: '/cms/rest/auth/login',
        headers: { authorization: '' },
        payload: { username: 'ed', password: 'ed-password' },
      });
      expect(res.statusCode).toBe(200);
      s = {
        cookie: `folio_session=${res.cookies.find((c) => c.name === 'folio_session')!.value}`,
        csrf: res.json().csrfToken as string,
      };
      expect((await getPage('site/home', { authorization: '', cookie: s.cookie })).statusCode).toBe(200);
    };
    const put = (displayName: string, csrf = s.csrf) =>
      t.request({
        method: 'PUT',
        url: url('site/home'),
        headers: { authorization: '', cookie: s.cookie, 'x-csrf-token': csrf },
        payload: { templateName: 'basic', displayName },
      });
    const setRole = async (role: string, password?: string) =>
      expect(
        (
          await t.request({
            method: 'PUT',
            url: '/cms/rest/users/ed',
            payload: { role, ...(password ? { password } : {}) },
          })
        ).statusCode,
      ).toBe(200);

    await signIn();
    for (const n of [1, 2]) expect((await put(`By ed ${n}`)).statusCode).toBe(200);
    expect((await put('Wrong token', 'x'.repeat(43))).statusCode).toBe(403);

    // A role change ends the session; signed in again as a Viewer, a PUT is refused as a Viewer's.
    await setRole('Viewer');
    expect((await put('After the role change')).statusCode).toBe(401);
    await signIn();
    expect((await put('As a viewer')).statusCode).toBe(403);
    await setRole('Editor');
    await signIn();
    expect((await put('By ed 3')).statusCode).toBe(200);

    // Signed out (with the same cookie, as another tab would): the next PUT is refused.
    const out = await t.request({
      method: 'POST',
      url: '/cms/rest/auth/logout',
      headers: { authorization: '', cookie: s.cookie, 'x-csrf-token': s.csrf },
    });
    expect(out.statusCode).toBeLessThan(300);
    expect((await put('After sign-out')).statusCode).toBe(401);

    await signIn();
    expect((await put('By ed 4')).statusCode).toBe(200);
    await setRole('Editor', 'new-one-123');
    const ended = await put('After the password change');
    expect(ended.statusCode).toBe(401);
    expect(problemOf(ended).code).toBe('UNAUTHENTICATED');
    expect((await readPage('site/home')).displayName).toBe('By ed 4');
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)('pages: round trips of a PUT of fields (PostgreSQL)', () => {
  it('with remembered Basic credentials or session, of a page this node wrote: one write that proves them and bumps the generation', async () => {
    await createPage('site/home');
    await getPage('site/home');
    const editor = await t.createUser('ed', 'Editor');
    const putAs = (headers: Record<string, string>, displayName: string) =>
      t.request({ method: 'PUT', url: url('site/home'), headers, payload: { templateName: 'basic', displayName } });
    expect((await putAs({ authorization: editor }, 'Once')).statusCode).toBe(200);
    const basicRun = await statementsOf(t, async () =>
      expect((await putAs({ authorization: editor }, 'Twice')).statusCode).toBe(200),
    );
    expect(basicRun).toHaveLength(1);
    expect(basicRun[0]).toMatch(
      /^with generation_bump as \(update change_generation_slots .* and \(?exists \(select 1 from users /,
    );

    const login = await t.request({
      method: 'POST',
      url: '/cms/rest/auth/login',
      headers: { authorization: '' },
      payload: { username: 'ed', password: 'ed-password' },
    });
    const cookie = `folio_session=${login.cookies.find((c) => c.name === 'folio_session')!.value}`;
    const session = { authorization: '', cookie, 'x-csrf-token': login.json().csrfToken as string };
    expect((await getPage('site/home', { authorization: '', cookie })).statusCode).toBe(200);
    const sessionRun = await statementsOf(t, async () =>
      expect((await putAs(session, 'By session')).statusCode).toBe(200),
    );
    expect(sessionRun).toHaveLength(1);
    expect(sessionRun[0]).toMatch(/ and \(?exists \(select 1 from sessions s join users u /);
    expect((await readPage('site/home')).displayName).toBe('By session');
  });
});

describe('pages: create and read', () => {
  it('creates a page from {templateName} alone, with every field of 2.1', async () => {
    const bob = await t.createUser('bob', 'Editor');
    const res = await putPage('site/home', { templateName: 'basic' }, { authorization: bob });
    expect(res.statusCode).toBe(201);
    const page = res.json();
    expect(page).toEqual({
      id: expect.stringMatching(/^\d+-\d+-\d+$/),
      name: 'home',
      siteName: 'site',
      folderPath: '',
      displayName: 'home',
      templateName: 'basic',
      summary: null,
      overridePostDate: null,
      workflow: { name: 'Default Workflow', state: 'Draft', checkedOut: false, checkedOutUser: '', rejection: null },
      seo: { browserTitle: '', hideSearch: false, tags: [], categories: [], metaDescription: '' },
      calendar: { startDate: null, endDate: null, calendars: null },
      code: {},
      body: [
        {
          name: 'header',
          type: 'TEMPLATE',
          editable: false,
          widgets: [
            { type: 'cmsTitle', scope: 'template', editable: false, asset: { fields: { heading_level: 'h1' } } },
          ],
        },
        { name: 'main', type: 'TEMPLATE', editable: true, widgets: [] },
        { name: 'sidebar', type: 'TEMPLATE', editable: true, widgets: [] },
        { name: 'footer', type: 'TEMPLATE', editable: false, widgets: [] },
      ],
    });
    const got = await getPage('site/home');
    expect(got.statusCode).toBe(200);
    expect(got.json()).toEqual(page);
    expect(got.headers['content-type']).toMatch(/^application\/json/);
    expect(got.headers.etag).toBe(etagOf(got.body));
    expect(res.headers.etag).toBe(got.headers.etag);
  });

  it('creates pages in folders and sections and accepts the wrapped body', async () => {
    await createFolder('site/news', 'section');
    await createFolder('site/news/2026');
    const res = await t.request({
      method: 'PUT',
      url: url('site/news/2026/launch'),
      payload: {
        Page: {
          templateName: 'basic',
          name: 'launch',
          siteName: 'site',
          folderPath: 'news/2026',
          displayName: 'Launch',
        },
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      name: 'launch',
      siteName: 'site',
      folderPath: 'news/2026',
      displayName: 'Launch',
    });
    expect((await readPage('site/news/2026/launch')).folderPath).toBe('news/2026');
    const unicode = await putPage(`site/news/${encodeURIComponent('Grüße — 2026')}`, { templateName: 'basic' });
    expect(unicode.statusCode).toBe(201);
    expect(unicode.json().name).toBe('Grüße — 2026');
  });

  it('refuses to create where it cannot, and nothing is created', async () => {
    await createFolder('site/docs');
    const nodes = await countRows('nodes');
    const cases: [string, object, number, string][] = [
      ['site/home', { templateName: 'nope' }, 404, 'TEMPLATE_NOT_FOUND'],
      ['site/home', { templateName: 'basic', id: '1-2-3' }, 409, 'ID_MISMATCH'],
      ['nosite/home', { templateName: 'basic' }, 404, 'SITE_NOT_FOUND'],
      ['site/missing/home', { templateName: 'basic' }, 404, 'FOLDER_NOT_FOUND'],
      ['site/docs/missing/deeper/home', { templateName: 'basic' }, 404, 'FOLDER_NOT_FOUND'],
      ['site', { templateName: 'basic' }, 400, 'INVALID_PARAMETER'],
      ['Assets/home', { templateName: 'basic' }, 400, 'INVALID_PARAMETER'],
      ['site/docs', { templateName: 'basic' }, 409, 'NAME_TAKEN'],
      ['site/home', { templateName: 'basic', name: 'other' }, 409, 'LOCATION_MISMATCH'],
      ['site/home', { templateName: 'basic', siteName: 'other' }, 409, 'LOCATION_MISMATCH'],
      ['site/home', { templateName: 'basic', folderPath: 'docs' }, 409, 'LOCATION_MISMATCH'],
      [`site/${encodeURIComponent(' padded')}`, { templateName: 'basic' }, 400, 'INVALID_PARAMETER'],
      [`site/${encodeURIComponent('bell\u0007')}`, { templateName: 'basic' }, 400, 'INVALID_PARAMETER'],
    ];
    for (const [path, payload, status, code] of cases) {
      const res = await putPage(path, payload);
      expect(res.statusCode, `${path} ${JSON.stringify(payload)}: ${res.body}`).toBe(status);
      expect(problemOf(res).code, path).toBe(code);
    }
    await createPage('site/home');
    const underPage = await putPage('site/home/child', { templateName: 'basic' });
    expect(problemOf(underPage).code).toBe('FOLDER_NOT_FOUND');
    expect(await countRows('nodes')).toBe(nodes + 1);
  });

  it('answers 404 for missing pages, sites and folders', async () => {
    await createFolder('site/docs');
    expect(problemOf(await getPage('site/nope')).code).toBe('PAGE_NOT_FOUND');
    expect(problemOf(await getPage('site/docs')).code).toBe('PAGE_NOT_FOUND');
    expect(problemOf(await getPage('nosite/home')).code).toBe('SITE_NOT_FOUND');
    expect(problemOf(await getPage('site/nofolder/home')).code).toBe('FOLDER_NOT_FOUND');
    expect(problemOf(await deletePage('site/nope')).code).toBe('PAGE_NOT_FOUND');
    expect((await t.request({ method: 'GET', url: '/cms/rest/pages/transitions/site/nope' })).statusCode).toBe(404);
  });

  it('lets exactly one of two concurrent creates of one path win', async () => {
    const [a, b] = await Promise.all([
      putPage('site/race', { templateName: 'basic', displayName: 'A' }),
      putPage('site/race', { templateName: 'basic', displayName: 'B' }),
    ]);
    const codes = [a.statusCode, b.statusCode].sort();
    // Serialised writers may see the page the other created, which turns the second PUT into an update.
    expect([
      [200, 201],
      [201, 409],
    ]).toContainEqual(codes);
    expect(await countRows('pages')).toBe(1);
  });
});

describe('pages: updates of page fields', () => {
  it('changes only the fields sent, each one alone', async () => {
    const { id } = await createPage('site/home');
    const steps: [object, (p: Page) => unknown, unknown][] = [
      [{ displayName: 'Home page' }, (p) => p.displayName, 'Home page'],
      [{ summary: 'About us' }, (p) => p.summary, 'About us'],
      [{ overridePostDate: '2020-01-31' }, (p) => p.overridePostDate, '2020-01-31'],
      [{ seo: { browserTitle: 'Welcome' } }, (p) => p.seo.browserTitle, 'Welcome'],
      [{ seo: { hideSearch: true } }, (p) => p.seo.hideSearch, true],
      [{ seo: { tags: ['a', 'b'] } }, (p) => p.seo.tags, ['a', 'b']],
      [{ seo: { categories: ['news'] } }, (p) => p.seo.categories, ['news']],
      [{ seo: { metaDescription: 'Our home' } }, (p) => p.seo.metaDescription, 'Our home'],
      [{ calendar: { startDate: '2026-03-01' } }, (p) => p.calendar.startDate, '2026-03-01'],
      [
        { calendar: { endDate: '2026-04-01T12:00:00.000+0000' } },
        (p) => p.calendar.endDate,
        '2026-04-01T12:00:00.000+0000',
      ],
      [{ calendar: { calendars: ['events'] } }, (p) => p.calendar.calendars, ['events']],
      [{ code: { head: '<meta name="x">' } }, (p) => p.code, { head: '<meta name="x">' }],
      [{ code: { afterStart: '<div>' } }, (p) => p.code, { head: '<meta name="x">', afterStart: '<div>' }],
      [{ code: { beforeClose: '<script></script>' } }, (p) => p.code.beforeClose, '<script></script>'],
      [{ code: { head: null } }, (p) => p.code, { afterStart: '<div>', beforeClose: '<script></script>' }],
      [{ summary: null }, (p) => p.summary, null],
      [{ overridePostDate: null }, (p) => p.overridePostDate, null],
      [{ calendar: { startDate: null } }, (p) => p.calendar.startDate, null],
    ];
    let previous = await readPage('site/home');
    for (const [payload, pick, expected] of steps) {
      const page = await update('site/home', payload);
      expect(pick(page), JSON.stringify(payload)).toEqual(expected);
      // Everything else stays as it was.
      const { droppedRegions: _d, ...rest } = page;
      const expectedPage = structuredClone(previous);
      const keys = Object.keys(payload) as (keyof Page)[];
      for (const k of keys) (expectedPage as Record<string, unknown>)[k] = rest[k];
      expect(rest, JSON.stringify(payload)).toEqual(expectedPage);
      previous = await readPage('site/home');
      expect(previous).toEqual(rest);
    }
    // Nested objects keep the members not sent.
    expect(previous.seo).toEqual({
      browserTitle: 'Welcome',
      hideSearch: true,
      tags: ['a', 'b'],
      categories: ['news'],
      metaDescription: 'Our home',
    });
    expect(previous.calendar).toEqual({
      startDate: null,
      endDate: '2026-04-01T12:00:00.000+0000',
      calendars: ['events'],
    });
    expect(previous.id).toBe(id);
  });

  it('requires templateName on update and refuses mismatching id, name, siteName and folderPath', async () => {
    await createFolder('site/docs');
    const { id } = await createPage('site/docs/guide', { displayName: 'Guide' });
    expect((await refused('site/docs/guide', { displayName: 'X' }, 400, 'INVALID_BODY')).errors?.[0]?.path).toBe(
      'body.templateName',
    );
    await refused(
      'site/docs/guide',
      { templateName: 'basic', id: '16777215-101-999999', displayName: 'X' },
      409,
      'ID_MISMATCH',
    );
    await refused(
      'site/docs/guide',
      { templateName: 'basic', name: 'manual', displayName: 'X' },
      409,
      'LOCATION_MISMATCH',
    );
    await refused(
      'site/docs/guide',
      { templateName: 'basic', siteName: 'other', displayName: 'X' },
      409,
      'LOCATION_MISMATCH',
    );
    await refused(
      'site/docs/guide',
      { templateName: 'basic', folderPath: '', displayName: 'X' },
      409,
      'LOCATION_MISMATCH',
    );
    // Matching values are fine.
    const ok = await update('site/docs/guide', {
      id,
      name: 'guide',
      siteName: 'site',
      folderPath: 'docs',
      displayName: 'Y',
    });
    expect(ok.displayName).toBe('Y');
  });

  it('accepts back exactly what GET answered', async () => {
    await createPage('site/home', { body: [{ name: 'main', widgets: [rich('<p>a</p>')] }] });
    const page = await readPage('site/home');
    const res = await putPage('site/home', page);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual(page);
  });
});

describe('pages: body regions and widgets', () => {
  it('stores widgets in order with stable ids, and merges regions', async () => {
    const created = await createPage('site/home', {
      body: [
        {
          name: 'main',
          type: 'PAGE',
          widgets: [
            rich('<p>one</p>'),
            rich('<p>two</p>'),
            { type: 'cmsSimpleText', asset: { fields: { text: 'three' } } },
          ],
        },
      ],
    });
    const main = region(created, 'main');
    expect(main).toMatchObject({ type: 'PAGE', editable: true });
    expect(main.widgets.map((w) => [w.type, w.scope, w.editable])).toEqual([
      ['cmsRichText', 'local', true],
      ['cmsRichText', 'local', true],
      ['cmsSimpleText', 'local', true],
    ]);
    expect(texts(created, 'main')).toEqual(['<p>one</p>', '<p>two</p>', 'three']);
    const ids = main.widgets.map((w) => w.id!);
    expect(new Set(ids).size).toBe(3);
    expect(region(created, 'sidebar')).toEqual({ name: 'sidebar', type: 'TEMPLATE', editable: true, widgets: [] });

    // Only the sidebar is sent: main keeps its widgets and their ids.
    const withSidebar = await update('site/home', {
      body: [{ name: 'sidebar', type: 'PAGE', widgets: [rich('<p>side</p>')] }],
    });
    expect(region(withSidebar, 'main').widgets.map((w) => w.id)).toEqual(ids);
    expect(texts(withSidebar, 'sidebar')).toEqual(['<p>side</p>']);

    // Reorder by id, edit one, drop one, add one.
    const reordered = await update('site/home', {
      body: [
        {
          name: 'main',
          type: 'PAGE',
          widgets: [
            { id: ids[2], type: 'cmsSimpleText' },
            { id: ids[0], type: 'cmsRichText', asset: { fields: { text: '<p>one, edited</p>' } } },
            rich('<p>new</p>'),
          ],
        },
      ],
    });
    const r = region(reordered, 'main').widgets;
    expect(r.map((w) => w.id).slice(0, 2)).toEqual([ids[2], ids[0]]);
    expect(ids).not.toContain(r[2]!.id);
    expect(texts(reordered, 'main')).toEqual(['three', '<p>one, edited</p>', '<p>new</p>']);
    const rows = await db().selectFrom('widgets').select('id').execute();
    expect(rows.map((x) => x.id)).not.toContain(ids[1]);
    expect(await readPage('site/home')).toEqual((({ droppedRegions: _d, ...p }) => p)(reordered));

    // A widget moves to another region and keeps its id; an emptied region shows as the template's again.
    const moved = await update('site/home', {
      body: [
        { name: 'main', type: 'PAGE', widgets: [] },
        {
          name: 'sidebar',
          type: 'PAGE',
          widgets: [...region(reordered, 'sidebar').widgets, { id: ids[0], type: 'cmsRichText' }],
        },
      ],
    });
    expect(region(moved, 'main')).toEqual({ name: 'main', type: 'TEMPLATE', editable: true, widgets: [] });
    expect(region(moved, 'sidebar').widgets.map((w) => w.id)[1]).toBe(ids[0]);
    expect(texts(moved, 'sidebar')).toEqual(['<p>side</p>', '<p>one, edited</p>']);
    expect(await countRows('widgets')).toBe(2);
  });

  it('merges the fields of an existing local widget and keeps its settings', async () => {
    const page = await createPage('site/home', {
      body: [
        {
          name: 'main',
          widgets: [
            {
              type: 'cmsEvent',
              editable: false,
              asset: { fields: { displaytitle: 'Fair', location: 'Hall', start_time: '2026-05-01 10:00:00.0' } },
            },
            { type: 'cmsNavon', asset: { fields: { layout: 'vertical', levels: '2' } } },
          ],
        },
      ],
    });
    const [event, nav] = region(page, 'main').widgets;
    expect(event!.editable).toBe(false);
    const next = await update('site/home', {
      body: [
        {
          name: 'main',
          widgets: [
            { id: event!.id, type: 'cmsEvent', asset: { fields: { location: 'Park', callout: null } } },
            { id: nav!.id, type: 'cmsNavon', editable: false, asset: { fields: { levels: null } } },
          ],
        },
      ],
    });
    const [e2, n2] = region(next, 'main').widgets;
    expect(e2).toMatchObject({
      editable: false,
      asset: { fields: { displaytitle: 'Fair', location: 'Park', start_time: '2026-05-01 10:00:00.0' } },
    });
    expect(e2!.asset.fields).not.toHaveProperty('callout');
    expect(n2).toMatchObject({ editable: false, asset: { fields: { layout: 'vertical' } } });
    expect(n2!.asset.fields).not.toHaveProperty('levels');
  });

  it('refuses bad regions and widgets, naming them, and changes nothing', async () => {
    const other = await createPage('site/other', { body: [{ name: 'main', widgets: [rich('<p>x</p>')] }] });
    const page = await createPage('site/home', { body: [{ name: 'main', widgets: [rich('<p>a</p>')] }] });
    const mine = region(page, 'main').widgets[0]!.id!;
    const foreign = region(other, 'main').widgets[0]!.id!;
    const bad = (body: unknown[]) => ({ templateName: 'basic', displayName: 'Changed', body });

    let p = await refused('site/home', bad([{ name: 'aside', widgets: [] }]), 400, 'INVALID_BODY');
    expect(p.detail).toContain('aside');
    expect(p.errors).toEqual([{ path: 'body.body.0.name', message: 'template "basic" has no region "aside"' }]);
    p = await refused(
      'site/home',
      bad([
        { name: 'main', widgets: [] },
        { name: 'footer', type: 'PAGE', widgets: [rich('x')] },
      ]),
      400,
      'INVALID_BODY',
    );
    expect(p.detail).toContain('footer');
    expect(p.errors?.[0]?.path).toBe('body.body.1.name');
    await refused('site/home', bad([{ name: 'header', widgets: [] }]), 400, 'INVALID_BODY');
    await refused('site/home', bad([{ name: 'header', type: 'TEMPLATE', widgets: [] }]), 400, 'INVALID_BODY');
    await refused(
      'site/home',
      bad([
        { name: 'main', widgets: [] },
        { name: 'main', widgets: [] },
      ]),
      400,
      'INVALID_BODY',
    );
    p = await refused(
      'site/home',
      bad([{ name: 'main', widgets: [{ id: foreign, type: 'cmsRichText' }] }]),
      400,
      'INVALID_BODY',
    );
    expect(p.errors?.[0]?.path).toBe('body.body.0.widgets.0.id');
    await refused(
      'site/home',
      bad([{ name: 'main', widgets: [{ id: 'nope', type: 'cmsRichText' }] }]),
      400,
      'INVALID_BODY',
    );
    await refused(
      'site/home',
      bad([
        {
          name: 'main',
          widgets: [
            { id: mine, type: 'cmsRichText' },
            { id: mine, type: 'cmsRichText' },
          ],
        },
      ]),
      400,
      'INVALID_BODY',
    );
    p = await refused(
      'site/home',
      bad([{ name: 'main', widgets: [{ id: mine, type: 'cmsSimpleText' }] }]),
      400,
      'INVALID_BODY',
    );
    expect(p.errors?.[0]?.path).toBe('body.body.0.widgets.0.type');
    p = await refused(
      'site/home',
      bad([{ name: 'main', widgets: [{ type: 'cmsRichText', scope: 'template' }] }]),
      400,
      'INVALID_BODY',
    );
    expect(p.errors?.[0]?.path).toBe('body.body.0.widgets.0.scope');
    p = await refused(
      'site/home',
      bad([
        {
          name: 'main',
          widgets: [rich('ok'), { type: 'cmsRichText', asset: { fields: { text: 'x', color: 'red' } } }],
        },
      ]),
      400,
      'INVALID_BODY',
    );
    expect(p.errors).toEqual([
      { path: 'body.body.0.widgets.1.asset.fields.color', message: 'is not a field of this type' },
    ]);
    p = await refused(
      'site/home',
      bad([
        {
          name: 'sidebar',
          widgets: [
            { type: 'cmsEvent', asset: { fields: { start_time: '2026-05-01' } } },
            { type: 'cmsNavon', asset: { fields: { levels: 'two' } } },
          ],
        },
      ]),
      400,
      'INVALID_BODY',
    );
    expect(p.errors?.map((e) => e.path)).toEqual([
      'body.body.0.widgets.0.asset.fields.start_time',
      'body.body.0.widgets.1.asset.fields.levels',
    ]);
    p = await refused(
      'site/home',
      bad([{ name: 'main', widgets: [{ type: 'cmsTitle', asset: { name: 't', folderPath: 'Assets' } }] }]),
      400,
      'INVALID_BODY',
    );
    expect(p.errors?.[0]?.path).toBe('body.body.0.widgets.0.asset');
    p = await refused(
      'site/home',
      bad([{ name: 'main', widgets: [{ type: 'cmsRichText', asset: { name: 't', folderPath: 'Library/x' } }] }]),
      400,
      'INVALID_BODY',
    );
    expect(p.errors?.[0]?.path).toBe('body.body.0.widgets.0.asset.folderPath');
    p = await refused(
      'site/home',
      bad([{ name: 'main', widgets: [{ type: 'cmsRichText', asset: { name: 'a/b', folderPath: 'Assets' } }] }]),
      400,
      'INVALID_BODY',
    );
    expect(p.errors?.[0]?.path).toBe('body.body.0.widgets.0.asset.name');
    expect(await countRows('widgets')).toBe(2);
  });

  it('accepts non-editable regions echoed back as the template shows them', async () => {
    const page = await createPage('site/home');
    const res = await putPage('site/home', { templateName: 'basic', body: page.body });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().body).toEqual(page.body);
  });

  it('keeps every widget type: local content validated against its asset type or local fields', async () => {
    const { WIDGET_TYPES } = await import('../../../shared/registry/index.js');
    const widgets = WIDGET_TYPES.map((w) => ({ type: w.type }));
    const page = await createPage('site/all', { body: [{ name: 'main', widgets }] });
    expect(region(page, 'main').widgets.map((w) => w.type)).toEqual(WIDGET_TYPES.map((w) => w.type));
    expect(region(page, 'main').widgets.every((w) => Object.keys(w.asset.fields).length === 0)).toBe(true);
    // Binary widgets hold metadata locally, never a file.
    const img = await update('site/all', {
      body: [
        {
          name: 'sidebar',
          widgets: [{ type: 'cmsImage', asset: { fields: { alttext: 'A cat', displaytitle: 'Cat' } } }],
        },
      ],
    });
    expect(region(img, 'sidebar').widgets[0]!.asset).toEqual({ fields: { alttext: 'A cat', displaytitle: 'Cat' } });
  });
});

describe('pages: shared assets', () => {
  it('converts local content into a new shared asset of the widget type, creating asset folders', async () => {
    const page = await createPage('site/home', { body: [{ name: 'main', widgets: [rich('<p>Intro</p>')] }] });
    const w = region(page, 'main').widgets[0]!;
    const converted = await update('site/home', {
      body: [
        {
          name: 'main',
          widgets: [{ id: w.id, type: 'cmsRichText', asset: { name: 'intro', folderPath: 'Assets/texts/home' } }],
        },
      ],
    });
    const cw = region(converted, 'main').widgets[0]!;
    expect(cw.id).toBe(w.id);
    expect(cw.asset).toEqual({ fields: { text: '<p>Intro</p>' }, name: 'intro', folderPath: 'Assets/texts/home' });
    const node = await assetAt('Assets/texts/home/intro');
    expect(node?.kind).toBe('asset');
    expect(await assetFields(node!.id)).toEqual({ type: 'cmsRichTextAsset', fields: { text: '<p>Intro</p>' } });
    const row = await db().selectFrom('widgets').selectAll().where('id', '=', w.id!).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ fields: null, shared_asset_id: node!.id });

    // A new widget converted in the same PUT with its own fields; the auto-list maps to cmsSimpleAutoList.
    const more = await update('site/home', {
      body: [
        {
          name: 'sidebar',
          widgets: [
            {
              type: 'cmsBlogIndex',
              asset: { name: 'blog', folderPath: 'Assets/lists', fields: { query: 'type=post', max_results: '5' } },
            },
          ],
        },
      ],
    });
    expect(region(more, 'sidebar').widgets[0]!.asset).toEqual({
      fields: { query: 'type=post', max_results: '5' },
      name: 'blog',
      folderPath: 'Assets/lists',
    });
    expect((await assetFields((await assetAt('Assets/lists/blog'))!.id))?.type).toBe('cmsSimpleAutoList');
  });

  it('refuses a conversion without the required fields and leaves everything as it was', async () => {
    await createPage('site/home', { body: [{ name: 'main', widgets: [rich('<p>keep</p>')] }] });
    const assets = await countRows('assets');
    const nodes = await countRows('nodes');
    const p = await refused(
      'site/home',
      {
        templateName: 'basic',
        displayName: 'Changed',
        body: [
          { name: 'main', widgets: [rich('<p>replaced</p>')] },
          {
            name: 'sidebar',
            widgets: [
              { type: 'cmsEvent', asset: { name: 'fair', folderPath: 'Assets/events', fields: { location: 'Hall' } } },
            ],
          },
        ],
      },
      400,
      'INVALID_BODY',
    );
    expect(p.errors?.map((e) => e.path).sort()).toEqual([
      'body.body.1.widgets.0.asset.fields.displaytitle',
      'body.body.1.widgets.0.asset.fields.start_time',
    ]);
    expect(await countRows('assets')).toBe(assets);
    expect(await countRows('nodes')).toBe(nodes);
    expect(await assetAt('Assets/events')).toBeUndefined();
  });

  it('links an existing shared asset, ignores the fields sent and shows its current fields', async () => {
    const id = await createSharedAsset('Assets/texts/about', 'cmsRichTextAsset', { text: '<p>About</p>' });
    const page = await createPage('site/home', {
      body: [
        {
          name: 'main',
          widgets: [
            {
              type: 'cmsRichText',
              asset: { name: 'about', folderPath: '/Assets/texts/', fields: { text: '<p>ignored</p>' } },
            },
          ],
        },
      ],
    });
    const w = region(page, 'main').widgets[0]!;
    expect(w.asset).toEqual({ fields: { text: '<p>About</p>' }, name: 'about', folderPath: 'Assets/texts' });
    expect((await assetFields(id))?.fields).toEqual({ text: '<p>About</p>' });

    // Read-only through the page: fields sent for the linked widget change nothing.
    const again = await update('site/home', {
      body: [
        { name: 'main', widgets: [{ id: w.id, type: 'cmsRichText', asset: { fields: { text: '<p>hacked</p>' } } }] },
      ],
    });
    expect(region(again, 'main').widgets[0]!.asset.fields).toEqual({ text: '<p>About</p>' });
    expect((await assetFields(id))?.fields).toEqual({ text: '<p>About</p>' });

    // Edited in the library, every page shows the new content (and the page's ETag changes with it).
    const etagBefore = (await getPage('site/home')).headers.etag;
    await createPage('site/second', {
      body: [
        { name: 'sidebar', widgets: [{ type: 'cmsRichText', asset: { name: 'about', folderPath: 'Assets/texts' } }] },
      ],
    });
    await db()
      .updateTable('assets')
      .set({ fields: JSON.stringify({ text: '<p>New</p>' }) })
      .where('node_id', '=', id)
      .execute();
    expect(region(await readPage('site/home'), 'main').widgets[0]!.asset.fields).toEqual({ text: '<p>New</p>' });
    expect(region(await readPage('site/second'), 'sidebar').widgets[0]!.asset.fields).toEqual({ text: '<p>New</p>' });
    expect((await getPage('site/home')).headers.etag).not.toBe(etagBefore);
  });

  it('links images uploaded to the library and refuses what does not fit', async () => {
    await createSharedAsset('Assets/images/cat.png', 'cmsImageAsset', {
      displaytitle: 'cat.png',
      filename: 'cat.png',
      alttext: 'A cat',
    });
    await createSharedAsset('Assets/texts/about', 'cmsRichTextAsset', { text: '<p>About</p>' });
    const page = await createPage('site/home', {
      body: [
        { name: 'main', widgets: [{ type: 'cmsImage', asset: { name: 'cat.png', folderPath: 'Assets/images' } }] },
      ],
    });
    expect(region(page, 'main').widgets[0]!.asset).toEqual({
      fields: { displaytitle: 'cat.png', filename: 'cat.png', alttext: 'A cat' },
      name: 'cat.png',
      folderPath: 'Assets/images',
    });
    const body = (asset: object, type = 'cmsImage') => ({
      templateName: 'basic',
      displayName: 'Changed',
      body: [{ name: 'sidebar', widgets: [{ type, asset }] }],
    });
    await refused('site/home', body({ name: 'about', folderPath: 'Assets/texts' }), 409, 'TYPE_MISMATCH');
    await refused(
      'site/home',
      body({ name: 'cat.png', folderPath: 'Assets/images' }, 'cmsRichText'),
      409,
      'TYPE_MISMATCH',
    );
    await refused(
      'site/home',
      body({ name: 'dog.png', folderPath: 'Assets/images', fields: { alttext: 'A dog' } }),
      404,
      'ASSET_NOT_FOUND',
    );
    await refused(
      'site/home',
      body({ name: 'images', folderPath: 'Assets' }, 'cmsRichText'),
      409,
      'ASSET_ALREADY_EXISTS',
    );
    await refused(
      'site/home',
      body({ name: 'x', folderPath: 'Assets/images/cat.png', fields: { text: 'x' } }, 'cmsRichText'),
      409,
      'NAME_TAKEN',
    );
    expect(await assetAt('Assets/images/dog.png')).toBeUndefined();
  });

  it('needs write access to the asset folder to create a shared asset there, not to link one', async () => {
    const eddie = await t.createUser('eddie', 'Editor');
    await createSharedAsset('Assets/locked/about', 'cmsRichTextAsset', { text: '<p>About</p>' });
    await db().updateTable('nodes').set({ access_level: 'READ' }).where('name', '=', 'locked').execute();
    await createPage('site/home');
    const headers = { authorization: eddie };
    await refused(
      'site/home',
      {
        templateName: 'basic',
        body: [
          {
            name: 'main',
            widgets: [
              {
                type: 'cmsRichText',
                asset: { name: 'new', folderPath: 'Assets/locked/deeper', fields: { text: 'x' } },
              },
            ],
          },
        ],
      },
      403,
      'NOT_AUTHORIZED',
      headers,
    );
    expect(await assetAt('Assets/locked/deeper')).toBeUndefined();
    const linked = await update(
      'site/home',
      {
        body: [
          { name: 'main', widgets: [{ type: 'cmsRichText', asset: { name: 'about', folderPath: 'Assets/locked' } }] },
        ],
      },
      headers,
    );
    expect(region(linked, 'main').widgets[0]!.asset.name).toBe('about');
  });

  it('detaches a shared asset and drops a local one with {remove: true}', async () => {
    const id = await createSharedAsset('Assets/texts/about', 'cmsRichTextAsset', { text: '<p>About</p>' });
    const page = await createPage('site/home', {
      body: [
        {
          name: 'main',
          widgets: [
            { type: 'cmsRichText', asset: { name: 'about', folderPath: 'Assets/texts' } },
            rich('<p>local</p>'),
          ],
        },
      ],
    });
    const [shared, local] = region(page, 'main').widgets;
    const after = await update('site/home', {
      body: [
        {
          name: 'main',
          widgets: [
            { id: shared!.id, type: 'cmsRichText', asset: { remove: true } },
            { id: local!.id, type: 'cmsRichText', asset: { remove: true } },
          ],
        },
      ],
    });
    expect(region(after, 'main').widgets).toEqual([
      { id: shared!.id, type: 'cmsRichText', scope: 'local', editable: true, asset: { fields: {} } },
      { id: local!.id, type: 'cmsRichText', scope: 'local', editable: true, asset: { fields: {} } },
    ]);
    expect((await assetFields(id))?.fields).toEqual({ text: '<p>About</p>' });
  });

  it('deletes a page for good (purge=true) with its local assets; shared assets stay', async () => {
    const id = await createSharedAsset('Assets/texts/about', 'cmsRichTextAsset', { text: '<p>About</p>' });
    await createPage('site/home', {
      body: [
        {
          name: 'main',
          widgets: [{ type: 'cmsRichText', asset: { name: 'about', folderPath: 'Assets/texts' } }, rich('<p>l</p>')],
        },
      ],
    });
    expect(await countRows('widgets')).toBe(2);
    // The trash's delete and restore: modules/trash/trash.test.ts.
    const res = await t.request({ method: 'DELETE', url: `${url('site/home')}?purge=true` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Deleted' });
    expect(problemOf(await getPage('site/home')).code).toBe('PAGE_NOT_FOUND');
    expect(await countRows('widgets')).toBe(0);
    expect(await countRows('pages')).toBe(0);
    expect((await assetFields(id))?.fields).toEqual({ text: '<p>About</p>' });
  });
});

describe('pages: template switch', () => {
  it('keeps the regions the new template also has, drops the rest and says which', async () => {
    await createTemplate('wide', [
      { name: 'banner', editable: false, widgets: [{ type: 'cmsRawHtml', asset: { fields: { html: '<hr>' } } }] },
      { name: 'main', editable: true },
      { name: 'extra', editable: true },
      { name: 'sidebar', editable: false },
    ]);
    const page = await createPage('site/home', {
      summary: 'kept',
      body: [
        { name: 'main', widgets: [rich('<p>main</p>')] },
        { name: 'sidebar', widgets: [rich('<p>side</p>')] },
      ],
    });
    const mainId = region(page, 'main').widgets[0]!.id;
    const res = await putPage('site/home', { templateName: 'wide' });
    expect(res.statusCode, res.body).toBe(200);
    const switched = PagePutResponse.parse(res.json());
    expect(switched.templateName).toBe('wide');
    expect(switched.droppedRegions).toEqual(['sidebar']);
    expect(switched.summary).toBe('kept');
    expect(switched.body.map((r) => `${r.name}:${r.type}:${r.editable}`)).toEqual([
      'banner:TEMPLATE:false',
      'main:PAGE:true',
      'extra:TEMPLATE:true',
      'sidebar:TEMPLATE:false',
    ]);
    expect(region(switched, 'main').widgets[0]!.id).toBe(mainId);
    expect(region(switched, 'banner').widgets).toEqual([
      { type: 'cmsRawHtml', scope: 'template', editable: false, asset: { fields: { html: '<hr>' } } },
    ]);
    const got = await getPage('site/home');
    expect(got.json()).not.toHaveProperty('droppedRegions');
    expect(got.json()).toEqual((({ droppedRegions: _d, ...p }) => p)(switched));
    expect(res.headers.etag).toBe(got.headers.etag);
    expect(await countRows('widgets')).toBe(1);

    // A later ordinary update does not mention droppedRegions.
    const plain = await putPage('site/home', { templateName: 'wide', displayName: 'x' });
    expect(plain.json()).not.toHaveProperty('droppedRegions');

    // Switching with new content for the new template's regions in the same PUT, and nothing dropped.
    const back = await putPage('site/home', {
      templateName: 'basic',
      body: [{ name: 'sidebar', widgets: [rich('<p>s</p>')] }],
    });
    expect(back.json().droppedRegions).toEqual([]);
    expect(texts(back.json(), 'main')).toEqual(['<p>main</p>']);
    expect(texts(back.json(), 'sidebar')).toEqual(['<p>s</p>']);
  });

  it('moves content to the regions the client maps it to, and names the regions whose content it deleted', async () => {
    await createTemplate('columns', [
      { name: 'main', editable: true },
      { name: 'aside', editable: true },
    ]);
    const page = await createPage('site/home', {
      body: [
        { name: 'main', widgets: [rich('<p>m1</p>'), rich('<p>m2</p>')] },
        { name: 'sidebar', widgets: [rich('<p>side</p>')] },
      ],
    });
    const ids = (name: string) => region(page, name).widgets.map((w) => ({ id: w.id, type: w.type }));
    // "main" goes to "aside", "sidebar" to "main": the same widgets, by id, in their new regions.
    const moved = await putPage('site/home', {
      templateName: 'columns',
      body: [
        { name: 'aside', widgets: ids('main') },
        { name: 'main', widgets: ids('sidebar') },
      ],
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().droppedRegions).toEqual([]);
    expect(texts(moved.json(), 'aside')).toEqual(['<p>m1</p>', '<p>m2</p>']);
    expect(texts(moved.json(), 'main')).toEqual(['<p>side</p>']);
    expect(region(moved.json(), 'aside').widgets.map((w) => w.id)).toEqual(ids('main').map((w) => w.id));

    // Back to "basic", dropping what "main" holds although "basic" has a "main": it counts as dropped.
    const back = await putPage('site/home', {
      templateName: 'basic',
      body: [
        { name: 'main', widgets: [] },
        { name: 'sidebar', widgets: region(moved.json(), 'aside').widgets.map((w) => ({ id: w.id, type: w.type })) },
      ],
    });
    expect(back.statusCode, back.body).toBe(200);
    expect(back.json().droppedRegions).toEqual(['main']);
    expect(texts(back.json(), 'sidebar')).toEqual(['<p>m1</p>', '<p>m2</p>']);
    expect(texts(back.json(), 'main')).toEqual([]);
    expect(await countRows('widgets')).toBe(2);
  });

  it('refuses an unknown template or regions the new template lacks, changing nothing', async () => {
    await createTemplate('narrow', [{ name: 'main', editable: true }]);
    await createPage('site/home', { body: [{ name: 'sidebar', widgets: [rich('<p>side</p>')] }] });
    await refused('site/home', { templateName: 'nope', displayName: 'X' }, 404, 'TEMPLATE_NOT_FOUND');
    await refused(
      'site/home',
      { templateName: 'narrow', body: [{ name: 'sidebar', widgets: [] }] },
      400,
      'INVALID_BODY',
    );
    expect(texts(await readPage('site/home'), 'sidebar')).toEqual(['<p>side</p>']);
  });
});

describe('pages: workflow', () => {
  it('walks every transition of the Default Workflow', async () => {
    await createPage('site/home');
    const walk: [string, string][] = [
      ['Review', 'Submit'],
      ['Draft', 'Reject'],
      ['Public', 'Approve from Draft'],
      ['Quick Edit', 'Edit'],
      ['Public', 'Approve from Quick Edit'],
      ['Archive', 'Archive from Public'],
      ['Public', 'Approve from Archive'],
      ['Quick Edit', 'Edit'],
      ['Archive', 'Archive from Quick Edit'],
      ['Draft', 'Resubmit from Archive'],
      ['Review', 'Submit'],
      ['Public', 'Approve from Review'],
      ['Quick Edit', 'Edit'],
      ['Draft', 'Resubmit from Quick Edit'],
      ['Archive', 'Approve then Archive (two steps)'],
      ['Archive', 'no move'],
    ];
    for (const [state, step] of walk) {
      const res = await setState(
        'site/home',
        state,
        undefined,
        step === 'Reject' ? 'Needs a better title.' : undefined,
      );
      expect(res.statusCode, `${step}: ${res.body}`).toBe(200);
      expect(res.json().workflow.state, step).toBe(state);
      expect((await readPage('site/home')).workflow.state).toBe(state);
    }
  });

  it('lets Contributors submit but not approve, naming the states they can reach', async () => {
    const carl = await t.createUser('carl', 'Contributor');
    const created = await putPage('site/home', { templateName: 'basic' }, { authorization: carl });
    expect(created.statusCode).toBe(201);
    const problem = await refused(
      'site/home',
      { templateName: 'basic', workflow: { state: 'Public' } },
      409,
      'INVALID_TRANSITION',
      {
        authorization: carl,
      },
    );
    expect(problem).toMatchObject({ currentState: 'Draft', allowedStates: ['Review'] });
    expect(problem.detail).toMatch(/Review/);
    const submitted = await setState('site/home', 'Review', carl);
    expect(submitted.json().workflow.state).toBe('Review');
    // Reject needs an Editor; from Review a Contributor reaches nothing.
    const reject = await refused(
      'site/home',
      { templateName: 'basic', workflow: { state: 'Draft' } },
      409,
      'INVALID_TRANSITION',
      {
        authorization: carl,
      },
    );
    expect(reject).toMatchObject({ allowedStates: [] });
    // Create with a state walks there too, if allowed.
    const direct = await putPage(
      'site/direct',
      { templateName: 'basic', workflow: { state: 'Public' } },
      { authorization: carl },
    );
    expect(direct.statusCode).toBe(409);
    expect(problemOf(await getPage('site/direct')).code).toBe('PAGE_NOT_FOUND');
    const editorMade = await putPage('site/direct', { templateName: 'basic', workflow: { state: 'Public' } });
    expect(editorMade.statusCode).toBe(201);
    expect(editorMade.json().workflow).toEqual({
      name: 'Default Workflow',
      state: 'Public',
      checkedOut: false,
      checkedOutUser: '',
      rejection: null,
    });
  });

  it('moves a Public page to Quick Edit when its content changes (check-out is a lease: not taken by a PUT)', async () => {
    const carl = await t.createUser('carl', 'Contributor');
    await createPage('site/home', { body: [{ name: 'main', widgets: [rich('<p>v1</p>')] }] });
    const published = (await setState('site/home', 'Public')).json();
    expect(published.workflow).toEqual({
      name: 'Default Workflow',
      state: 'Public',
      checkedOut: false,
      checkedOutUser: '',
      rejection: null,
    });

    // Sending back what is there is no edit.
    const same = await update('site/home', { displayName: published.displayName, body: published.body });
    expect(same.workflow.state).toBe('Public');

    const edited = await putPage('site/home', { templateName: 'basic', summary: 'changed' }, { authorization: carl });
    expect(edited.statusCode).toBe(200);
    expect(edited.json().workflow).toEqual({
      name: 'Default Workflow',
      state: 'Quick Edit',
      checkedOut: false,
      checkedOutUser: '',
      rejection: null,
    });

    // Editors edit and republish in one PUT.
    await setState('site/home', 'Public');
    const republished = await update('site/home', {
      body: [{ name: 'main', widgets: [rich('<p>v2</p>')] }],
      workflow: { state: 'Public' },
    });
    expect(republished.workflow.state).toBe('Public');
    expect(texts(republished, 'main')).toEqual(['<p>v2</p>']);
    // A Contributor cannot: the edit would leave Public and approving is not theirs; nothing changes.
    await refused(
      'site/home',
      { templateName: 'basic', summary: 'sneaky', workflow: { state: 'Public' } },
      409,
      'INVALID_TRANSITION',
      {
        authorization: carl,
      },
    );
  });

  it('refuses what a Contributor may not do from Public and Archive, naming the reachable states', async () => {
    const carl = await t.createUser('carl', 'Contributor');
    await createPage('site/home');
    await setState('site/home', 'Public');
    const archive = await refused(
      'site/home',
      { templateName: 'basic', workflow: { state: 'Archive' } },
      409,
      'INVALID_TRANSITION',
      {
        authorization: carl,
      },
    );
    expect(archive).toMatchObject({ currentState: 'Public', allowedStates: ['Quick Edit', 'Draft', 'Review'] });
    // Edit then Resubmit: two steps a Contributor may take.
    expect((await setState('site/home', 'Draft', carl)).json().workflow.state).toBe('Draft');
    await setState('site/home', 'Archive');
    const approve = await refused(
      'site/home',
      { templateName: 'basic', workflow: { state: 'Public' } },
      409,
      'INVALID_TRANSITION',
      {
        authorization: carl,
      },
    );
    expect(approve).toMatchObject({ currentState: 'Archive', allowedStates: ['Draft', 'Review'] });
  });

  it('checks pages in and out on request', async () => {
    await createPage('site/home');
    const checkedIn = await update('site/home', { workflow: { checkedOut: false, checkedOutUser: 'someone' } });
    expect(checkedIn.workflow).toMatchObject({ checkedOut: false, checkedOutUser: '' });
    const out = await update('site/home', { workflow: { checkedOut: true } });
    expect(out.workflow).toMatchObject({ checkedOut: true, checkedOutUser: 'admin' });
  });

  it('lists the transitions available to the caller now', async () => {
    const carl = await t.createUser('carl', 'Contributor');
    const vera = await t.createUser('vera', 'Viewer');
    await createPage('site/home');
    const tr = (auth?: string) =>
      t.request({
        method: 'GET',
        url: '/cms/rest/pages/transitions/site/home',
        headers: auth ? { authorization: auth } : {},
      });
    expect((await tr()).json()).toEqual({
      state: 'Draft',
      transitions: [
        { name: 'Submit', to: 'Review' },
        { name: 'Approve', to: 'Public' },
      ],
    });
    expect((await tr(carl)).json()).toEqual({ state: 'Draft', transitions: [{ name: 'Submit', to: 'Review' }] });
    expect((await tr(vera)).json()).toEqual({ state: 'Draft', transitions: [] });
    await setState('site/home', 'Public');
    expect((await tr()).json()).toEqual({
      state: 'Public',
      transitions: [
        { name: 'Edit', to: 'Quick Edit' },
        { name: 'Archive', to: 'Archive' },
      ],
    });
  });
});

describe('pages: access and concurrency', () => {
  it('lets Viewers read only, and folder access levels cap everyone but admins', async () => {
    const vera = await t.createUser('vera', 'Viewer');
    const eddie = await t.createUser('eddie', 'Editor');
    await createFolder('site/locked', 'folder', 'READ');
    await createFolder('site/locked/inner');
    await createPage('site/home');
    await createPage('site/locked/inner/page');

    expect((await getPage('site/home', { authorization: vera })).statusCode).toBe(200);
    await refused('site/home', { templateName: 'basic', displayName: 'V' }, 403, 'NOT_AUTHORIZED', {
      authorization: vera,
    });
    expect(problemOf(await putPage('site/new', { templateName: 'basic' }, { authorization: vera })).code).toBe(
      'NOT_AUTHORIZED',
    );
    expect((await deletePage('site/home', { authorization: vera })).statusCode).toBe(403);

    expect((await getPage('site/locked/inner/page', { authorization: eddie })).statusCode).toBe(200);
    await refused('site/locked/inner/page', { templateName: 'basic', displayName: 'E' }, 403, 'NOT_AUTHORIZED', {
      authorization: eddie,
    });
    expect((await putPage('site/locked/new', { templateName: 'basic' }, { authorization: eddie })).statusCode).toBe(
      403,
    );
    expect((await deletePage('site/locked/inner/page', { authorization: eddie })).statusCode).toBe(403);
    expect(await readPage('site/locked/inner/page')).toBeTruthy();
    expect((await update('site/locked/inner/page', { displayName: 'Admin' })).displayName).toBe('Admin');

    expect((await update('site/home', { displayName: 'Eddie' }, { authorization: eddie })).displayName).toBe('Eddie');
    expect((await deletePage('site/home', { authorization: eddie })).statusCode).toBe(200);
  });

  it('honours If-Match on PUT and DELETE', async () => {
    await createPage('site/home');
    const first = await getPage('site/home');
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[^"]+"$/);
    const ok = await putPage('site/home', { templateName: 'basic', displayName: 'One' }, { 'if-match': etag });
    expect(ok.statusCode).toBe(200);
    await refused('site/home', { templateName: 'basic', displayName: 'Two' }, 412, 'PRECONDITION_FAILED', {
      'if-match': etag,
    });
    const stale = await deletePage('site/home', { 'if-match': etag });
    expect(problemOf(stale).code).toBe('PRECONDITION_FAILED');
    expect((await readPage('site/home')).displayName).toBe('One');
    const onCreate = await putPage('site/fresh', { templateName: 'basic' }, { 'if-match': etag });
    expect(onCreate.statusCode).toBe(412);
    expect(problemOf(await getPage('site/fresh')).code).toBe('PAGE_NOT_FOUND');
    const current = (await getPage('site/home')).headers.etag as string;
    expect(current).toBe(ok.headers.etag);
    expect((await deletePage('site/home', { 'if-match': current })).statusCode).toBe(200);
  });

  it('lets exactly one of two PUTs with the same If-Match win', async () => {
    await createPage('site/home');
    const etag = (await getPage('site/home')).headers.etag as string;
    const results = await Promise.all(
      ['A', 'B'].map((n) => putPage('site/home', { templateName: 'basic', displayName: n }, { 'if-match': etag })),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 412]);
  });

  it('refuses to delete the landing page of a site or section', async () => {
    const sectionId = await createFolder('site/news', 'section');
    const page = await createPage('site/news/index');
    await db().updateTable('nodes').set({ landing_page_id: page.id }).where('id', '=', sectionId).execute();
    const res = await deletePage('site/news/index');
    expect(res.statusCode).toBe(409);
    expect(problemOf(res).code).toBe('CONFLICT');
    expect((await readPage('site/news/index')).id).toBe(page.id);
  });
});

describe('pages: bulk workflow operations', () => {
  async function states(paths: string[]) {
    const out: Record<string, string> = {};
    for (const p of paths) out[p] = (await readPage(p)).workflow.state;
    return out;
  }

  it('approves, submits and archives every page below a folder, skipping those it does not apply to', async () => {
    await createFolder('site/news', 'section');
    await createFolder('site/news/2026');
    await createFolder('site/other');
    const paths = [
      'site/news/a',
      'site/news/b',
      'site/news/2026/c',
      'site/news/2026/d',
      'site/news/2026/e',
      'site/other/x',
      'site/top',
    ];
    for (const p of paths) await createPage(p);
    await setState('site/news/b', 'Review');
    await setState('site/news/2026/d', 'Archive');
    await setState('site/news/2026/e', 'Public');

    const bulk = (op: string, path: string, auth?: string) =>
      t.request({ method: 'POST', url: `/cms/rest/pages/${op}/${path}`, headers: auth ? { authorization: auth } : {} });

    const submit = await bulk('submit-all', 'site/news');
    expect(submit.json()).toEqual({ message: 'Submitted 2 pages' });
    expect(await states(paths)).toEqual({
      'site/news/a': 'Review',
      'site/news/b': 'Review',
      'site/news/2026/c': 'Review',
      'site/news/2026/d': 'Archive',
      'site/news/2026/e': 'Public',
      'site/other/x': 'Draft',
      'site/top': 'Draft',
    });
    const approve = await bulk('approve-all', 'site/news');
    expect(approve.json()).toEqual({ message: 'Approved 3 pages' });
    expect((await states(paths))['site/news/2026/d']).toBe('Archive');
    expect((await readPage('site/news/a')).workflow).toMatchObject({ state: 'Public', checkedOut: false });
    const archive = await bulk('archive-all', 'site/news/2026');
    expect(archive.json()).toEqual({ message: 'Archived 2 pages' });
    expect(await states(paths)).toEqual({
      'site/news/a': 'Public',
      'site/news/b': 'Public',
      'site/news/2026/c': 'Archive',
      'site/news/2026/d': 'Archive',
      'site/news/2026/e': 'Archive',
      'site/other/x': 'Draft',
      'site/top': 'Draft',
    });
    expect((await bulk('approve-all', 'site/other')).json()).toEqual({ message: 'Approved 1 page' });
    expect((await bulk('approve-all', 'site')).json()).toEqual({ message: 'Approved 1 page' });
    expect((await bulk('approve-all', 'site')).json()).toEqual({ message: 'Approved 0 pages' });
  });

  it('refuses what the role may not do, missing folders, and skips read-only folders', async () => {
    const carl = await t.createUser('carl', 'Contributor');
    const eddie = await t.createUser('eddie', 'Editor');
    await createFolder('site/open');
    await createFolder('site/open/locked', 'folder', 'READ');
    await createPage('site/open/a');
    await createPage('site/open/locked/b');
    const bulk = (op: string, path: string, auth?: string) =>
      t.request({ method: 'POST', url: `/cms/rest/pages/${op}/${path}`, headers: auth ? { authorization: auth } : {} });

    const denied = await bulk('approve-all', 'site/open', carl);
    expect(denied.statusCode).toBe(403);
    expect(problemOf(denied).code).toBe('NOT_AUTHORIZED');
    expect(problemOf(await bulk('archive-all', 'site', carl)).code).toBe('NOT_AUTHORIZED');
    expect(problemOf(await bulk('approve-all', 'site/nope')).code).toBe('FOLDER_NOT_FOUND');
    expect(problemOf(await bulk('approve-all', 'nosite')).code).toBe('SITE_NOT_FOUND');
    expect(problemOf(await bulk('approve-all', 'site/open/a')).code).toBe('FOLDER_NOT_FOUND');
    expect((await bulk('approve-all', 'site/open/locked', eddie)).statusCode).toBe(403);
    expect(await states(['site/open/a', 'site/open/locked/b'])).toEqual({
      'site/open/a': 'Draft',
      'site/open/locked/b': 'Draft',
    });

    expect((await bulk('submit-all', 'site/open', carl)).json()).toEqual({ message: 'Submitted 1 page' });
    expect(await states(['site/open/a', 'site/open/locked/b'])).toEqual({
      'site/open/a': 'Review',
      'site/open/locked/b': 'Draft',
    });
    expect((await bulk('approve-all', 'site/open')).json()).toEqual({ message: 'Approved 2 pages' });
  });
});
