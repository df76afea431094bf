import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RevisionList } from '../../../shared/api/revisions.js';
import { createTestApp, problemOf, type TestApp } from '../../test/harness.js';
import { image, multipart, upload } from '../assets/assets.fixtures.js';
import { assetsRepository } from '../assets/assets.repository.js';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp({ CMS_SEED: 'true' });
});
afterEach(async () => {
  await t.close();
});

const PAGE = 'demo/articles/history';
const pageUrl = (path = PAGE) => `/cms/rest/pages/by-path/${path}`;
const assetUrl = (path: string) => `/cms/rest/assets/by-path/${path}`;

/** A rich text region holding `text` (and a linked shared asset when `shared` names one). */
function body(text: string, shared?: { name: string; folderPath: string; text: string }) {
  const widgets: object[] = [{ type: 'cmsRichText', scope: 'local', editable: true, asset: { fields: { text } } }];
  if (shared) {
    const { name, folderPath } = shared;
    widgets.push({ type: 'cmsRichText', scope: 'local', asset: { name, folderPath, fields: { text: shared.text } } });
  }
  return [{ name: 'body', widgets }];
}

async function ok<R extends { statusCode: number; body: string }>(res: Promise<R>, ...statuses: number[]) {
  const r = await res;
  expect(statuses.length ? statuses : [200, 201], r.body).toContain(r.statusCode);
  return r;
}
const put = (payload: object, headers: Record<string, string> = {}) =>
  ok(t.request({ method: 'PUT', url: pageUrl(), payload: { templateName: 'article', ...payload }, headers }));
const get = (url: string) => ok(t.request({ method: 'GET', url }));

async function list(kind: 'pages' | 'assets', path: string, query = ''): Promise<RevisionList> {
  const res = await get(`/cms/rest/${kind}/revisions/${path}${query}`);
  return RevisionList.strict().parse(JSON.parse(res.body));
}

/** What a GET of `url` answers now: body and ETag. */
async function snapshot(url: string) {
  const res = await get(url);
  return { body: res.body, etag: res.headers.etag as string };
}

/** Every revision i answers `?revision=i` byte for byte as `seen[i - 1]`, with the same ETag. */
async function expectRevisions(url: string, seen: { body: string; etag: string }[]) {
  for (const [i, then] of seen.entries()) {
    const res = await get(`${url}?revision=${i + 1}`);
    expect(res.body, `revision ${i + 1}`).toBe(then.body);
    expect(res.headers.etag, `revision ${i + 1}`).toBe(then.etag);
  }
}

describe('revisions', () => {
  it('rejects unauthenticated', async () => {
    await put({ displayName: 'History' });
    for (const url of [`/cms/rest/pages/revisions/${PAGE}`, `${pageUrl()}?revision=1`]) {
      const res = await t.request({ method: 'GET', url, headers: { authorization: '' } });
      expect(res.statusCode, url).toBe(401);
    }
    const res = await t.request({
      method: 'POST',
      url: `/cms/rest/pages/restore/${PAGE}`,
      payload: { revision: 1 },
      headers: { authorization: '' },
    });
    expect(res.statusCode).toBe(401);
  });

  it('rejects invalid input with a 4xx and changes nothing', async () => {
    await put({ displayName: 'History' });
    const bad: [string, string, object | undefined, number, string][] = [
      ['GET', `/cms/rest/pages/revisions/${PAGE}?cursor=nonsense`, undefined, 400, 'INVALID_PARAMETER'],
      ['GET', `/cms/rest/pages/revisions/${PAGE}?limit=0`, undefined, 400, 'INVALID_PARAMETER'],
      ['GET', `${pageUrl()}?revision=0`, undefined, 400, 'INVALID_PARAMETER'],
      ['GET', `${pageUrl()}?revision=abc`, undefined, 400, 'INVALID_PARAMETER'],
      ['GET', `${pageUrl()}?version=draft`, undefined, 400, 'INVALID_PARAMETER'],
      ['GET', `${pageUrl()}?revision=1&version=live`, undefined, 400, 'INVALID_PARAMETER'],
      ['GET', `${pageUrl()}?revision=9`, undefined, 404, 'REVISION_NOT_FOUND'],
      ['GET', `${pageUrl()}?version=live`, undefined, 404, 'NO_LIVE_REVISION'],
      ['GET', `/cms/rest/pages/revisions/demo/articles/none`, undefined, 404, 'PAGE_NOT_FOUND'],
      ['GET', `/cms/rest/assets/revisions/${PAGE}`, undefined, 404, 'ASSET_NOT_FOUND'],
      ['POST', `/cms/rest/pages/restore/${PAGE}`, { revision: 'one' }, 400, 'INVALID_BODY'],
      ['POST', `/cms/rest/pages/restore/${PAGE}`, {}, 400, 'INVALID_BODY'],
      ['POST', `/cms/rest/pages/restore/${PAGE}`, { revision: 7 }, 404, 'REVISION_NOT_FOUND'],
    ];
    for (const [method, url, payload, status, code] of bad) {
      const res = await t.request({ method: method as 'GET', url, ...(payload ? { payload } : {}) });
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(status);
      expect(problemOf(res).code, url).toBe(code);
    }
    const viewer = await t.createUser('vera', 'Viewer');
    const res = await t.request({
      method: 'POST',
      url: `/cms/rest/pages/restore/${PAGE}`,
      payload: { revision: 1 },
      headers: { authorization: viewer },
    });
    expect(res.statusCode).toBe(403);
    expect((await list('pages', PAGE)).items).toHaveLength(1);
  });

  it('records one revision per page write, each answering byte for byte what a GET answered then', async () => {
    const seen: { body: string; etag: string }[] = [];
    const wrote = async (what: string, write: () => Promise<unknown>) => {
      await write();
      seen.push(await snapshot(pageUrl()));
      const { items } = await list('pages', PAGE);
      expect(
        items.map((i) => i.revision),
        what,
      ).toEqual(seen.map((_, i) => seen.length - i));
    };
    await wrote('a create', () => put({ displayName: 'History', body: body('<p>one</p>') }));
    await wrote('a PUT of fields', () => put({ displayName: 'History 2' }));
    await wrote('a PUT of the body', () => put({ body: body('<p>two</p>') }));
    await wrote('an approval', () => put({ workflow: { state: 'Public' } }));
    await wrote('a Quick Edit', () => put({ summary: 'Edited while live' }));
    await wrote('a bulk approval', () => ok(t.request({ method: 'POST', url: '/cms/rest/pages/approve-all/demo' })));
    await expectRevisions(pageUrl(), seen);

    const { items } = await list('pages', PAGE);
    expect(items[0]).toMatchObject({ revision: 6, state: 'Public', live: true, savedBy: 'admin' });
    expect(items[1]).toMatchObject({ revision: 5, state: 'Quick Edit', live: false });
    // Paging: two at a time, newest first, to the end.
    const first = await list('pages', PAGE, '?limit=4');
    expect(first.items.map((i) => i.revision)).toEqual([6, 5, 4, 3]);
    const rest = await list('pages', PAGE, `?limit=4&cursor=${first.next}`);
    expect(rest.items.map((i) => i.revision)).toEqual([2, 1]);
    expect(rest.next).toBeNull();
  });

  it('keeps the live copy through a Quick Edit until the next approval; Archive ends it', async () => {
    await put({ displayName: 'History', body: body('<p>approved</p>') });
    await put({ workflow: { state: 'Public' } });
    const approved = await snapshot(pageUrl());
    const live = async () => get(`${pageUrl()}?version=live`);
    expect((await live()).body).toBe(approved.body);

    await put({ body: body('<p>work in progress</p>') });
    const editing = await snapshot(pageUrl());
    expect(JSON.parse(editing.body).workflow.state).toBe('Quick Edit');
    expect((await live()).body).toBe(approved.body);
    expect((await live()).headers.etag).toBe(approved.etag);

    await put({ workflow: { state: 'Public' } });
    const reapproved = await snapshot(pageUrl());
    expect((await live()).body).toBe(reapproved.body);
    expect((await list('pages', PAGE)).items.filter((i) => i.live).map((i) => i.revision)).toEqual([4]);

    await put({ workflow: { state: 'Archive' } });
    const gone = await t.request({ method: 'GET', url: `${pageUrl()}?version=live` });
    expect(gone.statusCode).toBe(404);
    expect(problemOf(gone).code).toBe('NO_LIVE_REVISION');
    expect((await list('pages', PAGE)).items.some((i) => i.live)).toBe(false);
  });

  it('restores a page revision as a new one (If-Match honoured) and names shared assets that are gone', async () => {
    const shared = { name: 'shared-note', folderPath: 'Assets/texts', text: '<p>shared</p>' };
    await put({ displayName: 'First', body: body('<p>first</p>', shared) });
    const first = JSON.parse((await snapshot(pageUrl())).body);
    await put({ displayName: 'Second', body: body('<p>second</p>') });
    const { etag } = await snapshot(pageUrl());

    const restore = (revision: number, ifMatch: string) =>
      t.request({
        method: 'POST',
        url: `/cms/rest/pages/restore/${PAGE}`,
        payload: { revision },
        headers: { 'if-match': ifMatch },
      });
    const stale = await restore(1, '"stale"');
    expect(stale.statusCode).toBe(412);
    expect((await list('pages', PAGE)).items).toHaveLength(2);

    const res = await restore(1, etag);
    expect(res.statusCode, res.body).toBe(200);
    const restored = JSON.parse(res.body);
    expect(restored.displayName).toBe('First');
    const strip = (p: { body: { widgets: { id?: string }[] }[] }) =>
      p.body.map((r) => r.widgets.map(({ id: _id, ...w }) => w));
    expect(strip(restored)).toEqual(strip(first));
    expect((await snapshot(pageUrl())).body).toBe(res.body);
    expect((await get(`${pageUrl()}?revision=3`)).body).toBe(res.body);
    expect((await list('pages', PAGE)).items.map((i) => i.revision)).toEqual([3, 2, 1]);

    // The shared asset revision 1 links is deleted (nothing links it now): restoring 1 is refused, naming it.
    await put({ body: body('<p>fourth</p>') });
    await ok(t.request({ method: 'DELETE', url: assetUrl('Assets/texts/shared-note') }));
    const now = await snapshot(pageUrl());
    const missing = await restore(1, now.etag);
    expect(missing.statusCode).toBe(409);
    expect(problemOf(missing).code).toBe('RESTORE_ASSETS_MISSING');
    expect(problemOf(missing).detail).toContain('Assets/texts/shared-note');
    expect((await snapshot(pageUrl())).body).toBe(now.body);
  });

  it('records one revision per asset write, keeps its files, and restores content and file', async () => {
    const path = 'Assets/history/logo.png';
    const original = await image('png', 40, 30);
    const seen: { body: string; etag: string }[] = [];
    const wrote = async (what: string, write: () => Promise<unknown>) => {
      await write();
      seen.push(await snapshot(assetUrl(path)));
      expect(
        (await list('assets', path)).items.map((i) => i.revision),
        what,
      ).toEqual(seen.map((_, i) => seen.length - i));
    };
    await wrote('an upload', () => upload(t, path, original));
    await wrote('a PUT of fields', () =>
      ok(t.request({ method: 'PUT', url: assetUrl(path), payload: { fields: { alttext: 'A logo' } } })),
    );
    const replacement = await image('jpeg', 64, 64);
    await wrote('a replace', () => {
      const form = multipart([{ name: 'file', filename: 'logo.png', content: replacement, contentType: 'image/jpeg' }]);
      return ok(
        t.request({
          method: 'PUT',
          url: `/cms/rest/assets/binary/${path}`,
          payload: form.payload,
          headers: form.headers,
        }),
      );
    });
    await wrote('a bulk approval', () =>
      ok(t.request({ method: 'POST', url: '/cms/rest/assets/approve-all/Assets/history' })),
    );
    await expectRevisions(assetUrl(path), seen);
    expect((await get(`${assetUrl(path)}?version=live`)).body).toBe(seen[3]!.body);

    // Every file a revision refers to is kept, and the orphan sweep counts it as in use.
    const db = t.app.folio.ctx.db;
    const keys = await db.selectFrom('revisions').select(['blob_key', 'thumb_blob_key']).execute();
    const inUse = await assetsRepository.blobKeysInUse(db);
    for (const k of keys.flatMap((r) => [r.blob_key, r.thumb_blob_key])) if (k) expect(inUse.has(k)).toBe(true);

    const res = await t.request({
      method: 'POST',
      url: `/cms/rest/assets/restore/${path}`,
      payload: { revision: 1 },
      headers: { 'if-match': seen[3]!.etag },
    });
    expect(res.statusCode, res.body).toBe(200);
    const meta = JSON.parse(res.body);
    expect(meta.fields.alttext ?? null).toBe(JSON.parse(seen[0]!.body).fields.alttext ?? null);
    expect(meta.image).toEqual(JSON.parse(seen[0]!.body).image);
    expect(meta.workflow.state).toBe('Quick Edit');
    const file = await t.request({ method: 'GET', url: `/cms/rest/assets/binary/${path}` });
    expect(file.rawPayload.equals(original)).toBe(true);
    expect((await get(`${assetUrl(path)}?revision=5`)).body).toBe(res.body);
    // The live copy is still the approved revision.
    expect((await get(`${assetUrl(path)}?version=live`)).body).toBe(seen[3]!.body);
  });
});

describe('revision retention (CMS_REVISIONS_KEEP)', () => {
  it('prunes the oldest beyond the number kept, never the live one', async () => {
    await t.close();
    t = await createTestApp({ CMS_SEED: 'true', CMS_REVISIONS_KEEP: '2' });
    await put({ displayName: 'One' });
    await put({ workflow: { state: 'Public' } });
    for (const name of ['Three', 'Four', 'Five']) await put({ displayName: name });
    const { items } = await list('pages', PAGE);
    expect(items.map((i) => [i.revision, i.live])).toEqual([
      [5, false],
      [4, false],
      [2, true],
    ]);
    const pruned = await t.request({ method: 'GET', url: `${pageUrl()}?revision=1` });
    expect(pruned.statusCode).toBe(404);
  });
});

describe('revisions of scheduled publishing', () => {
  it('record publishAt and unpublishAt as GET shows them, set by PUT, ended by a bulk move and the scheduler', async () => {
    await t.close();
    t = await createTestApp({ CMS_SEED: 'true', CMS_SCHEDULE_SECONDS: '3600' });
    const ago = (ms: number) => new Date(t.app.folio.ctx.now() - ms).toISOString();
    const workflowOf = (json: string) => (JSON.parse(json) as { workflow: Record<string, unknown> }).workflow;

    // A page: created with a schedule, made due, published by the scheduler.
    const pages: { body: string; etag: string }[] = [];
    await put({
      displayName: 'History',
      workflow: { publishAt: '2031-03-01T08:00:00Z', unpublishAt: '2031-04-01T08:00:00Z' },
    });
    pages.push(await snapshot(pageUrl()));
    const due = ago(1000);
    await put({ workflow: { publishAt: due } });
    pages.push(await snapshot(pageUrl()));
    expect(await t.app.folio.scheduler.runNow()).toBe(1);
    pages.push(await snapshot(pageUrl()));
    expect(workflowOf(pages[0]!.body)).toMatchObject({
      state: 'Draft',
      publishAt: '2031-03-01T08:00:00.000Z',
      unpublishAt: '2031-04-01T08:00:00.000Z',
    });
    expect(workflowOf(pages[1]!.body)).toMatchObject({ state: 'Draft', publishAt: due });
    expect(workflowOf(pages[2]!.body)).toMatchObject({ state: 'Public', unpublishAt: '2031-04-01T08:00:00.000Z' });
    expect(workflowOf(pages[2]!.body).publishAt).toBeUndefined();
    expect((await list('pages', PAGE)).items.map((i) => i.revision)).toEqual([3, 2, 1]);
    await expectRevisions(pageUrl(), pages);

    // An asset: scheduled by PUT, its publishing ended by a bulk approval, archived by the scheduler.
    const path = 'Assets/history/logo.png';
    const assets: { body: string; etag: string }[] = [];
    await upload(t, path, await image('png', 20, 20));
    assets.push(await snapshot(assetUrl(path)));
    const schedule = { publishAt: '2031-03-01T08:00:00Z', unpublishAt: '2031-04-01T08:00:00Z' };
    await ok(t.request({ method: 'PUT', url: assetUrl(path), payload: { workflow: schedule } }));
    assets.push(await snapshot(assetUrl(path)));
    await ok(t.request({ method: 'POST', url: '/cms/rest/assets/approve-all/Assets/history' }));
    assets.push(await snapshot(assetUrl(path)));
    const end = ago(10);
    await ok(t.request({ method: 'PUT', url: assetUrl(path), payload: { workflow: { unpublishAt: end } } }));
    assets.push(await snapshot(assetUrl(path)));
    expect(await t.app.folio.scheduler.runNow()).toBe(1);
    assets.push(await snapshot(assetUrl(path)));
    expect(workflowOf(assets[1]!.body)).toMatchObject({
      publishAt: '2031-03-01T08:00:00.000Z',
      unpublishAt: '2031-04-01T08:00:00.000Z',
    });
    expect(workflowOf(assets[2]!.body)).toMatchObject({ state: 'Public', unpublishAt: '2031-04-01T08:00:00.000Z' });
    expect(workflowOf(assets[2]!.body).publishAt).toBeUndefined();
    expect(workflowOf(assets[3]!.body)).toMatchObject({ state: 'Public', unpublishAt: end });
    expect(workflowOf(assets[4]!.body).state).toBe('Archive');
    expect(workflowOf(assets[4]!.body).unpublishAt).toBeUndefined();
    expect((await list('assets', path)).items.map((i) => i.revision)).toEqual([5, 4, 3, 2, 1]);
    await expectRevisions(assetUrl(path), assets);
  });
});
