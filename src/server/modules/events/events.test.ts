import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ResetEvent } from '../../../shared/api/events.js';
import { eventsRepository } from './events.repository.js';
import { ADMIN, createTestApp, problemOf, type TestApp } from '../../test/harness.js';
import { readSse } from '../../test/sse.js';
import { upload } from '../assets/assets.fixtures.js';
import { createTemplate, createSite, createFolder, putFolder } from '../folders/folders.fixtures.js';

let t: TestApp;
let base: string;
beforeEach(async () => {
  t = await createTestApp();
  await createTemplate(t, 'basic');
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterEach(async () => {
  await t.close();
});

/** An open event stream of the test app, as admin unless `headers` say otherwise. */
async function openStream(headers: Record<string, string> = {}) {
  const controller = new AbortController();
  const res = await fetch(`${base}/cms/rest/events`, {
    headers: { authorization: ADMIN, ...headers },
    signal: controller.signal,
  });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
  return readSse(res, controller, () => t.app.folio.events.poll());
}

const pageUrl = (path: string) => `/cms/rest/pages/by-path/${path}`;

describe('GET /cms/rest/events', () => {
  it('rejects unauthenticated', async () => {
    const res = await t.request({ method: 'GET', url: '/cms/rest/events', headers: { authorization: '' } });
    expect(res.statusCode).toBe(401);
    expect(problemOf(res).code).toBeDefined();
  });

  it('sends an event for every kind of write, with who and the new ETag', async () => {
    const s = await openStream();
    const editor = await t.createUser('erin', 'Editor');

    await createSite(t, 'site');
    expect(await s.change((e) => e.kind === 'site')).toMatchObject({ path: 'site', deleted: false, by: 'admin' });
    await createFolder(t, 'site/news');
    const folder = await s.change((e) => e.kind === 'folder' && e.path === 'site/news');
    expect(folder.by).toBe('admin');

    // A page created, then its fields edited by another user (the guarded one-statement way).
    const created = await t.request({ method: 'PUT', url: pageUrl('site/news/a'), payload: { templateName: 'basic' } });
    expect(created.statusCode).toBe(201);
    const pageCreated = await s.change((e) => e.kind === 'page' && e.path === 'site/news/a');
    expect(pageCreated.by).toBe('admin');
    await t.request({ method: 'GET', url: pageUrl('site/news/a') });
    const edited = await t.request({
      method: 'PUT',
      url: pageUrl('site/news/a'),
      payload: { templateName: 'basic', displayName: 'A title' },
      headers: { authorization: editor },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    const pageEdited = await s.change((e) => e.kind === 'page' && e.by === 'erin');
    expect(pageEdited.path).toBe('site/news/a');
    expect(pageEdited.itemId).toBe(pageCreated.itemId);
    if (pageEdited.etag !== null) expect(pageEdited.etag).toBe(edited.headers.etag);
    const afterEdit = await t.request({ method: 'GET', url: pageUrl('site/news/a') });
    expect(afterEdit.headers.etag).toBe(edited.headers.etag);

    // Rename and move: the event names where the item is now.
    const renamed = await t.request({
      method: 'POST',
      url: '/cms/rest/folders/rename',
      payload: { path: 'site/news/a', newName: 'b' },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    await s.change((e) => e.kind === 'page' && e.path === 'site/news/b');
    await createFolder(t, 'site/archive');
    const moved = await t.request({
      method: 'POST',
      url: '/cms/rest/folders/move',
      payload: { itemPath: 'site/news/b', targetFolderPath: 'site/archive' },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    await s.change((e) => e.kind === 'page' && e.path === 'site/archive/b');

    // Delete: the path it had, and who.
    const deleted = await t.request({ method: 'DELETE', url: pageUrl('site/archive/b') });
    expect(deleted.statusCode).toBe(200);
    expect(await s.change((e) => e.deleted && e.kind === 'page')).toMatchObject({
      path: 'site/archive/b',
      itemId: pageCreated.itemId,
      etag: null,
      by: 'admin',
    });

    // Assets: an upload, a metadata edit, a delete.
    const up = await upload(t, 'Assets/docs/readme.txt', Buffer.from('hello'), { contentType: 'text/plain' });
    expect(up.statusCode, up.body).toBe(201);
    const uploaded = await s.change((e) => e.kind === 'asset' && e.path === 'Assets/docs/readme.txt');
    expect(uploaded.by).toBe('admin');
    const meta = await t.request({
      method: 'PUT',
      url: '/cms/rest/assets/by-path/Assets/docs/readme.txt',
      payload: { fields: { displaytitle: 'Read me' } },
      headers: { authorization: editor },
    });
    expect(meta.statusCode, meta.body).toBe(200);
    await s.change((e) => e.kind === 'asset' && e.by === 'erin' && e.itemId === uploaded.itemId);
    expect(
      (await t.request({ method: 'DELETE', url: '/cms/rest/assets/by-path/Assets/docs/readme.txt' })).statusCode,
    ).toBe(200);
    await s.change((e) => e.kind === 'asset' && e.deleted && e.path === 'Assets/docs/readme.txt');

    // Templates: a create and a delete.
    const tpl = await t.request({
      method: 'PUT',
      url: '/cms/rest/templates/wide',
      payload: { regions: [{ name: 'main', editable: true }] },
    });
    expect(tpl.statusCode, tpl.body).toBe(201);
    await s.change((e) => e.kind === 'template' && e.path === 'wide' && !e.deleted && e.by === 'admin');
    expect((await t.request({ method: 'DELETE', url: '/cms/rest/templates/wide' })).statusCode).toBe(200);
    await s.change((e) => e.kind === 'template' && e.deleted && e.itemId === 'wide');

    // A folder deleted with what is inside it: one event for the folder.
    expect((await putFolder(t, 'site/archive', undefined)).statusCode).toBeLessThan(300);
    const del = await t.request({ method: 'DELETE', url: '/cms/rest/folders/by-path/site/news' });
    expect(del.statusCode, del.body).toBe(200);
    await s.change((e) => e.kind === 'folder' && e.deleted && e.path === 'site/news');

    // Reads write nothing to the log.
    const before = s.frames.length;
    await t.request({ method: 'GET', url: '/cms/rest/folders/by-path/site' });
    await t.app.folio.events.poll();
    expect(s.frames.slice(before).filter((f) => f.event === 'change')).toEqual([]);
    s.close();
  });

  it('sends lease changes with the new holder: taken, taken over, released, swept', async () => {
    await createSite(t, 'site');
    await t.request({ method: 'PUT', url: pageUrl('site/a'), payload: { templateName: 'basic' } });
    const erin = await t.createUser('erin', 'Editor');
    const s = await openStream();
    const lease = '/cms/rest/leases/page/site/a';
    const beat = (authorization: string, takeover = false) =>
      t.request({ method: 'POST', url: lease, payload: { takeover }, headers: { authorization } });
    expect((await beat(ADMIN)).statusCode).toBe(200);
    const taken = await s.change((e) => e.lease !== undefined);
    expect(taken).toMatchObject({ kind: 'page', path: 'site/a', by: 'admin', lease: { holder: 'admin' } });
    expect((await beat(erin, true)).statusCode).toBe(200);
    const over = await s.change((e) => e.id > taken.id && e.lease !== undefined);
    expect(over).toMatchObject({ path: 'site/a', itemId: taken.itemId, by: 'erin', lease: { holder: 'erin' } });
    expect((await t.request({ method: 'DELETE', url: lease, headers: { authorization: erin } })).statusCode).toBe(200);
    const ended = await s.change((e) => e.id > over.id && e.lease !== undefined);
    expect(ended).toMatchObject({ path: 'site/a', by: 'erin', lease: { holder: null }, deleted: false });
    expect((await beat(ADMIN)).statusCode).toBe(200);
    t.advance(10 * 60_000);
    expect(await t.app.sweepLeases()).toBe(1);
    const swept = await s.change((e) => e.id > ended.id && e.lease?.holder === null && e.by === 'admin');
    expect(swept).toMatchObject({ path: 'site/a', by: 'admin', lease: { holder: null } });
    // A content change carries no lease.
    await t.request({ method: 'PUT', url: pageUrl('site/a'), payload: { templateName: 'basic', displayName: 'A' } });
    expect(await s.change((e) => e.id > swept.id)).not.toHaveProperty('lease');
    s.close();
  });

  it('resumes after Last-Event-ID with the events missed, in order', async () => {
    const s = await openStream();
    await createSite(t, 'site');
    const first = await s.change((e) => e.kind === 'site');
    s.close();
    await createFolder(t, 'site/one');
    await createFolder(t, 'site/two');
    const again = await openStream({ 'last-event-id': String(first.id) });
    const one = await again.change((e) => e.path === 'site/one');
    const two = await again.change((e) => e.path === 'site/two');
    expect(one.id).toBeGreaterThan(first.id);
    expect(two.id).toBeGreaterThan(one.id);
    const changes = again.frames.filter((f) => f.event === 'change').map((f) => Number(f.id));
    expect(changes).toEqual([...changes].sort((a, b) => a - b));
    expect(again.frames.some((f) => f.event === 'reset')).toBe(false);
    again.close();
  });

  it('starts a first stream after `eventsAfter` of /auth/me with ?after=, so nothing read since is missed', async () => {
    await createSite(t, 'site');
    const me = await t.request({ method: 'GET', url: '/cms/rest/auth/me' });
    const { eventsAfter } = me.json() as { eventsAfter: number };
    expect(eventsAfter).toBe(await eventsRepository.lastId(t.app.folio.ctx.db));
    // Someone saves between the tab's first reads and its stream's connection.
    await createFolder(t, 'site/between');
    const controller = new AbortController();
    const res = await fetch(`${base}/cms/rest/events?after=${eventsAfter}`, {
      headers: { authorization: ADMIN },
      signal: controller.signal,
    });
    expect(res.status).toBe(200);
    const s = readSse(res, controller, () => t.app.folio.events.poll());
    const between = await s.change((e) => e.path === 'site/between');
    expect(between.id).toBeGreaterThan(eventsAfter);
    s.close();
    // A Last-Event-ID (a reconnect) wins over the URL's start.
    const again = new AbortController();
    const resumedRes = await fetch(`${base}/cms/rest/events?after=0`, {
      headers: { authorization: ADMIN, 'last-event-id': String(between.id) },
      signal: again.signal,
    });
    const resumed = readSse(resumedRes, again, () => t.app.folio.events.poll());
    await createFolder(t, 'site/later');
    await resumed.change((e) => e.path === 'site/later');
    const ids = resumed.frames.filter((f) => f.event === 'change').map((f) => Number(f.id));
    expect(ids.every((id) => id > between.id)).toBe(true);
    resumed.close();
    const bad = await t.request({ method: 'GET', url: '/cms/rest/events?after=soon' });
    expect(bad.statusCode).toBe(400);
  });

  it('resumes from an id another node sent before this one has read that far: no reset, nothing twice', async () => {
    const s = await openStream();
    await createSite(t, 'site');
    await s.change((e) => e.kind === 'site');
    // This node stops reading the log (as a node behind another), while writes go on.
    let held = true;
    const after = eventsRepository.after.bind(eventsRepository);
    const spy = vi
      .spyOn(eventsRepository, 'after')
      .mockImplementation((db, from, limit) =>
        held ? Promise.resolve({ found: [], ids: [], lastId: from }) : after(db, from, limit),
      );
    try {
      await createFolder(t, 'site/one');
      await createFolder(t, 'site/two');
      const seenElsewhere = await eventsRepository.lastId(t.app.folio.ctx.db);
      // The client saw `site/two` on another node and reconnects here.
      const again = await openStream({ 'last-event-id': String(seenElsewhere) });
      held = false;
      await createFolder(t, 'site/three');
      await again.change((e) => e.path === 'site/three');
      await s.change((e) => e.path === 'site/three');
      const ids = again.frames.filter((f) => f.event === 'change').map((f) => Number(f.id));
      expect(again.frames.some((f) => f.event === 'reset')).toBe(false);
      expect(ids.every((id) => id > seenElsewhere)).toBe(true);
      expect(new Set(ids).size).toBe(ids.length);
      // The stream that was open all along gets everything once.
      const all = s.frames.filter((f) => f.event === 'change').map((f) => JSON.parse(f.data) as { path: string });
      expect(all.filter((e) => e.path === 'site/one')).toHaveLength(1);
      again.close();
    } finally {
      spy.mockRestore();
    }
    s.close();
  });

  it('ends a stream that was still opening when the node shut down', async () => {
    const hub = t.app.folio.events;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const lastId = eventsRepository.lastId.bind(eventsRepository);
    const spy = vi.spyOn(eventsRepository, 'lastId').mockImplementation(async (db) => {
      await gate;
      return lastId(db);
    });
    try {
      let ended = false;
      const frames: string[] = [];
      const opening = hub.open(
        {
          actor: { username: 'admin', role: 'Admin' } as never,
          write: (f) => frames.push(f),
          end: () => (ended = true),
        },
        undefined,
      );
      const closing = hub.close();
      release();
      await Promise.all([opening, closing]);
      // Left open, it would hold the server's close forever.
      expect(ended).toBe(true);
      expect(hub.size).toBe(0);
    } finally {
      spy.mockRestore();
    }
  });

  it('tells a client to refetch when its Last-Event-ID is beyond anything this log gave', async () => {
    await createSite(t, 'site');
    const newest = await eventsRepository.lastId(t.app.folio.ctx.db);
    const s = await openStream({ 'last-event-id': String(newest + 1000) });
    const reset = await s.next((f) => f.event === 'reset');
    expect(ResetEvent.parse(JSON.parse(reset.data)).lastId).toBe(newest);
    await createFolder(t, 'site/after');
    await s.change((e) => e.path === 'site/after');
    s.close();
  });

  it('tells a client to refetch when the log no longer reaches back to its Last-Event-ID', async () => {
    const s = await openStream();
    await createSite(t, 'site');
    const first = await s.change((e) => e.kind === 'site');
    s.close();
    await createFolder(t, 'site/one');
    // Everything written so far is pruned (as after the retention time).
    await eventsRepository.prune(t.app.folio.ctx.db, new Date(Date.now() + 60_000).toISOString(), 0);
    await createFolder(t, 'site/two');
    const again = await openStream({ 'last-event-id': String(first.id) });
    const reset = await again.next((f) => f.event === 'reset');
    expect(ResetEvent.parse(JSON.parse(reset.data)).lastId).toBeGreaterThan(first.id);
    expect(again.frames.some((f) => f.event === 'change' && JSON.parse(f.data).path === 'site/one')).toBe(false);
    // Live events follow the reset.
    await createFolder(t, 'site/three');
    await again.change((e) => e.path === 'site/three');
    again.close();
  });

  it('starts a new stream at the end of the log, and moves past runs of changes of items that are gone', async () => {
    const first = await openStream();
    await createSite(t, 'one');
    await first.change((e) => e.path === 'one');
    first.close();
    while (t.app.folio.events.size) await new Promise((r) => setTimeout(r, 20));
    // Written while nobody listened: a stream opened later (without Last-Event-ID) does not get it.
    await createSite(t, 'quiet');

    const s = await openStream();
    // More changes than one read of the log takes, all of a node that no longer exists (their delete came later).
    const at = new Date().toISOString();
    const ghost = { kind: 'page', item_id: 'gone', path: null, etag: null, deleted: 0, actor: 'admin', at };
    await t.app.folio.ctx.db
      .insertInto('changes')
      .values(Array.from({ length: 1200 }, () => ghost))
      .execute();
    await createSite(t, 'after');
    await s.change((e) => e.path === 'after');
    const paths = s.frames
      .filter((f) => f.event === 'change')
      .map((f) => (JSON.parse(f.data) as { path: string }).path);
    // The new site (and its landing page) only: nothing from before the stream, nothing of the gone node.
    expect(paths.filter((p) => p !== 'after' && !p.startsWith('after/'))).toEqual([]);
    s.close();
  });

  it('ends open streams when the app closes', async () => {
    const s = await openStream();
    expect(t.app.folio.events.size).toBe(1);
    await t.app.close();
    await s.untilEnded();
    expect(s.ended).toBe(true);
  });
});
