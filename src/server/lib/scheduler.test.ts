import { afterEach, describe, expect, it, vi } from 'vitest';
import { ChildSummary } from '../../shared/api/folders.js';
import { Page } from '../../shared/api/pages.js';
import { createTestApp, problemOf, type TestApp } from '../test/harness.js';
import { TrashedMessage } from '../../shared/api/trash.js';
import { SCHEDULE_BATCH, SCHEDULER_ACTOR } from './scheduler.js';

/**
 * Scheduled publishing over the real server (SQLite; PostgreSQL with TEST_DATABASE_URL): `workflow.publishAt` and
 * `unpublishAt` set by PUT and shown by GET, the scheduler's moves (once, on two nodes, after a restart), clearing.
 * The scheduler's own timer is set to an hour unless a test is about the timer: runs are started with `runNow`.
 */
const HOUR = { CMS_SEED: 'true', CMS_SCHEDULE_SECONDS: '3600' };
const PAGES = '/cms/rest/pages/by-path/demo';
const open: TestApp[] = [];
afterEach(async () => {
  for (const t of open.splice(0).reverse()) await t.close();
});
async function start(env: Record<string, string> = HOUR, data?: TestApp['data']) {
  const t = await createTestApp(env, {}, data);
  open.push(t);
  return t;
}

const put = (t: TestApp, name: string, body: object, headers: Record<string, string> = {}) =>
  t.request({ method: 'PUT', url: `${PAGES}/${name}`, payload: { templateName: 'article', ...body }, headers });
async function read(t: TestApp, name: string) {
  const res = await t.request({ method: 'GET', url: `${PAGES}/${name}` });
  expect(res.statusCode, res.body).toBe(200);
  return { page: Page.parse(res.json()), etag: res.headers.etag };
}
const ago = (t: TestApp, ms: number) => new Date(t.app.folio.ctx.now() - ms).toISOString();

describe('scheduled publishing: PUT and GET', { timeout: 90_000 }, () => {
  it('sets, shows in UTC, lists on the folder screen and clears publishAt and unpublishAt', async () => {
    const t = await start();
    expect((await put(t, 'later', {})).statusCode).toBe(201);
    const res = await put(t, 'later', {
      workflow: { publishAt: '2031-03-01T10:00:00+02:00', unpublishAt: '2031-04-01T08:00:00Z' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const { page } = await read(t, 'later');
    expect(page.workflow).toMatchObject({
      state: 'Draft',
      publishAt: '2031-03-01T08:00:00.000Z',
      unpublishAt: '2031-04-01T08:00:00.000Z',
    });
    const children = await t.request({ method: 'GET', url: '/cms/rest/folders/children/by-path/demo' });
    const row = (children.json().items as ChildSummary[]).find((c) => c.name === 'later');
    expect(row).toMatchObject({ publishAt: '2031-03-01T08:00:00.000Z', unpublishAt: '2031-04-01T08:00:00.000Z' });

    expect((await put(t, 'later', { workflow: { publishAt: null } })).statusCode).toBe(200);
    const cleared = (await read(t, 'later')).page.workflow;
    expect(cleared.publishAt).toBeUndefined();
    expect(cleared.unpublishAt).toBe('2031-04-01T08:00:00.000Z');
    // Setting the schedule of a Public page is not an edit: it stays Public.
    expect((await put(t, 'later', { workflow: { state: 'Public' } })).statusCode).toBe(200);
    expect((await put(t, 'later', { workflow: { unpublishAt: '2031-05-01T00:00:00Z' } })).statusCode).toBe(200);
    expect((await read(t, 'later')).page.workflow.state).toBe('Public');
  });

  it('refuses junk, an unpublishAt before publishAt and a Contributor, changing nothing', async () => {
    const t = await start();
    expect((await put(t, 'bad', { workflow: { publishAt: '2031-03-01T10:00:00Z' } })).statusCode).toBe(201);
    const before = await read(t, 'bad');
    for (const workflow of [
      { publishAt: 'next tuesday' },
      { publishAt: '2031-03-01T10:00:00' },
      { publishAt: 17 },
      { unpublishAt: '2031-13-01T00:00:00Z' },
    ]) {
      const res = await put(t, 'bad', { workflow });
      expect(res.statusCode, JSON.stringify(workflow)).toBe(400);
      expect(problemOf(res).errors?.[0]?.path).toMatch(/publishAt$/);
    }
    for (const workflow of [
      { unpublishAt: '2031-03-01T09:00:00Z' },
      { publishAt: '2031-05-01T00:00:00Z', unpublishAt: '2031-05-01T00:00:00Z' },
    ]) {
      const res = await put(t, 'bad', { workflow });
      expect(res.statusCode).toBe(400);
      expect(problemOf(res).errors?.[0]?.path).toBe('workflow.unpublishAt');
    }
    const contributor = await t.createUser('carla', 'Contributor');
    const refused = await put(t, 'bad', { workflow: { publishAt: null } }, { authorization: contributor });
    expect(refused.statusCode).toBe(403);
    expect((await read(t, 'bad')).etag).toBe(before.etag);
    // A Contributor's edit that sends the schedule back unchanged is fine.
    const same = await put(t, 'bad', { summary: 'x', workflow: before.page.workflow }, { authorization: contributor });
    expect(same.statusCode, same.body).toBe(200);
  });
});

describe('scheduled publishing: the scheduler', { timeout: 90_000 }, () => {
  it('approves at publishAt and archives at unpublishAt, once, as the scheduler', async () => {
    const t = await start();
    expect((await put(t, 'soon', { workflow: { publishAt: ago(t, 1000) } })).statusCode).toBe(201);
    expect(await t.app.folio.scheduler.runNow()).toBe(1);
    const published = (await read(t, 'soon')).page;
    expect(published.workflow.state).toBe('Public');
    expect(published.workflow.publishAt).toBeUndefined();
    expect(await t.app.folio.scheduler.runNow()).toBe(0);
    const children = await t.request({ method: 'GET', url: '/cms/rest/folders/children/by-path/demo' });
    const row = (children.json().items as ChildSummary[]).find((c) => c.name === 'soon');
    expect(row?.lastModifiedBy).toBe(SCHEDULER_ACTOR.username);

    // Someone edits it (Quick Edit, holding the lease): the scheduled archival still happens.
    const editor = await t.createUser('eddie', 'Editor');
    const lease = await t.request({
      method: 'POST',
      url: '/cms/rest/leases/page/demo/soon',
      payload: { mode: 'edit' },
      headers: { authorization: editor },
    });
    expect(lease.statusCode, lease.body).toBe(200);
    expect((await put(t, 'soon', { summary: 'edited' }, { authorization: editor })).statusCode).toBe(200);
    expect((await read(t, 'soon')).page.workflow.state).toBe('Quick Edit');
    expect((await put(t, 'soon', { workflow: { unpublishAt: ago(t, 10) } })).statusCode).toBe(409);
    const byEditor = await put(t, 'soon', { workflow: { unpublishAt: ago(t, 10) } }, { authorization: editor });
    expect(byEditor.statusCode, byEditor.body).toBe(200);
    expect(await t.app.folio.scheduler.runNow()).toBe(1);
    const archived = (await read(t, 'soon')).page.workflow;
    expect(archived.state).toBe('Archive');
    expect(archived.unpublishAt).toBeUndefined();
  });

  it('does nothing once a schedule is cleared, and only clears an unpublishAt of a page never published', async () => {
    const t = await start();
    expect((await put(t, 'off', { workflow: { publishAt: ago(t, 1000) } })).statusCode).toBe(201);
    expect((await put(t, 'off', { workflow: { publishAt: null } })).statusCode).toBe(200);
    expect(await t.app.folio.scheduler.runNow()).toBe(0);
    expect((await read(t, 'off')).page.workflow.state).toBe('Draft');
    expect((await put(t, 'off', { workflow: { unpublishAt: ago(t, 1000) } })).statusCode).toBe(200);
    expect(await t.app.folio.scheduler.runNow()).toBe(1);
    const after = (await read(t, 'off')).page.workflow;
    expect(after.state).toBe('Draft');
    expect(after.unpublishAt).toBeUndefined();
  });

  it('approves a scheduled asset', async () => {
    const t = await start();
    const url = '/cms/rest/assets/by-path/Assets/x/list';
    const when = ago(t, 1000);
    const created = await t.request({
      method: 'PUT',
      url,
      payload: {
        type: 'cmsSimpleAutoList',
        fields: { query: 'type:page', max_results: '10' },
        workflow: { publishAt: when },
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().workflow.publishAt).toBe(when);
    expect(await t.app.folio.scheduler.runNow()).toBe(1);
    const asset = (await t.request({ method: 'GET', url })).json();
    expect(asset.workflow.state).toBe('Public');
    expect(asset.workflow.publishAt).toBeUndefined();
  });

  it('leaves items in the trash out of its batches, and acts on a restored one', async () => {
    const t = await start();
    const trashIdOf = async (url: string) => {
      const res = await t.request({ method: 'DELETE', url });
      expect(res.statusCode, res.body).toBe(200);
      return TrashedMessage.parse(res.json()).trashId!;
    };
    // More trashed items due than a batch holds, all due before the live one: in a folder (deep in the trash)
    // and one deleted on its own (right below the trash root).
    const box = await t.request({ method: 'PUT', url: '/cms/rest/folders/by-path/demo/box', payload: {} });
    expect(box.statusCode, box.body).toBe(201);
    for (let i = 0; i < SCHEDULE_BATCH; i++) {
      const res = await put(t, `box/p${i}`, { workflow: { publishAt: ago(t, 60_000 - i) } });
      expect(res.statusCode, res.body).toBe(201);
    }
    const binnedAt = ago(t, 50_000);
    expect((await put(t, 'binned', { workflow: { publishAt: binnedAt } })).statusCode).toBe(201);
    expect((await put(t, 'live', { workflow: { publishAt: ago(t, 1000) } })).statusCode).toBe(201);
    await trashIdOf('/cms/rest/folders/by-path/demo/box?includeSubFolders=true');
    const binned = await trashIdOf(`${PAGES}/binned`);

    expect(await t.app.folio.scheduler.runNow()).toBe(1);
    expect((await read(t, 'live')).page.workflow.state).toBe('Public');
    expect(await t.app.folio.scheduler.runNow()).toBe(0);

    // Restored, it keeps its time and is published at the next run.
    const restored = await t.request({ method: 'POST', url: '/cms/rest/trash/restore', payload: { id: binned } });
    expect(restored.statusCode, restored.body).toBe(200);
    expect((await read(t, 'binned')).page.workflow).toMatchObject({ state: 'Draft', publishAt: binnedAt });
    expect(await t.app.folio.scheduler.runNow()).toBe(1);
    const after = (await read(t, 'binned')).page.workflow;
    expect(after.state).toBe('Public');
    expect(after.publishAt).toBeUndefined();
  });

  it('acts on its own timer', async () => {
    const t = await start({ CMS_SEED: 'true', CMS_SCHEDULE_SECONDS: '0.2' });
    expect((await put(t, 'timer', { workflow: { publishAt: ago(t, 1) } })).statusCode).toBe(201);
    await vi.waitFor(async () => expect((await read(t, 'timer')).page.workflow.state).toBe('Public'), {
      timeout: 20_000,
      interval: 100,
    });
  });

  it('acts at once on start when the time passed while no node ran', async () => {
    const first = await start();
    expect((await put(first, 'missed', { workflow: { publishAt: ago(first, 1000) } })).statusCode).toBe(201);
    open.splice(open.indexOf(first), 1);
    await first.close({ keepData: true });
    const second = await start(HOUR, first.data);
    await second.app.folio.scheduler.settled();
    expect((await read(second, 'missed')).page.workflow.state).toBe('Public');
  });

  it.runIf(process.env.TEST_DATABASE_URL)('moves each item once with two nodes on one database', async () => {
    const a = await start();
    const b = await start(HOUR, a.data);
    open.splice(open.indexOf(b), 1);
    const names = Array.from({ length: 12 }, (_, i) => `race-${i}`);
    for (const name of names) {
      expect((await put(a, name, { workflow: { publishAt: ago(a, 1000) } })).statusCode).toBe(201);
    }
    const [byA, byB] = await Promise.all([a.app.folio.scheduler.runNow(), b.app.folio.scheduler.runNow()]);
    expect(byA + byB).toBe(names.length);
    for (const name of names) expect((await read(b, name)).page.workflow.state).toBe('Public');
    const moves = await a.app.folio.ctx.db
      .selectFrom('changes')
      .select(['item_id'])
      .where('actor', '=', SCHEDULER_ACTOR.username)
      .execute();
    expect(moves.length).toBe(names.length);
    expect(new Set(moves.map((m) => m.item_id)).size).toBe(names.length);
    await b.close({ keepData: true });
  });
});
