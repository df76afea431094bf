import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LeaseState } from '../../../shared/api/leases.js';
import { Page } from '../../../shared/api/pages.js';
import { AssetMetadata } from '../../../shared/api/assets.js';
import { etagOf } from '../../lib/etag.js';
import { createTestApp, problemOf, type TestApp } from '../../test/harness.js';
import { multipart, upload } from '../assets/assets.fixtures.js';

let t: TestApp;
let alice: string;
let bob: string;
let viewer: string;
beforeEach(async () => {
  t = await createTestApp({ CMS_SEED: 'true', CMS_LEASE_SECONDS: '120' });
  alice = await t.createUser('alice', 'Editor');
  bob = await t.createUser('bob', 'Editor');
  viewer = await t.createUser('vera', 'Viewer');
});
afterEach(async () => {
  await t.close();
});

const PAGE = '/cms/rest/pages/by-path/demo/index';
const LEASE = '/cms/rest/leases/page/demo/index';

const beat = (authorization: string, payload: object = {}, url = LEASE) =>
  t.request({ method: 'POST', url, payload, headers: { authorization } });
const leave = (authorization: string, url = LEASE) => t.request({ method: 'DELETE', url, headers: { authorization } });
async function state(authorization: string, url = LEASE) {
  const res = await t.request({ method: 'GET', url, headers: { authorization } });
  expect(res.statusCode, res.body).toBe(200);
  return LeaseState.parse(res.json());
}
/** The lease changes in the change log, oldest first: [kind, who, new holder ('' = ended)]. */
async function leaseChanges() {
  const rows = await t.app.folio.ctx.db
    .selectFrom('changes')
    .select(['kind', 'actor', 'lease'])
    .where('lease', 'is not', null)
    .orderBy('id')
    .execute();
  return rows.map((r) => [r.kind, r.actor, r.lease]);
}
async function page(authorization?: string) {
  const res = await t.request({ method: 'GET', url: PAGE, ...(authorization ? { headers: { authorization } } : {}) });
  expect(res.statusCode, res.body).toBe(200);
  return { page: Page.parse(res.json()), etag: String(res.headers.etag), body: res.body };
}
const putAs = (authorization: string, body: object, ifMatch?: string) =>
  t.request({
    method: 'PUT',
    url: PAGE,
    payload: { templateName: 'article', ...body },
    headers: { authorization, ...(ifMatch ? { 'if-match': ifMatch } : {}) },
  });

describe('check-out leases', () => {
  it('opening takes nothing; the first edit takes the lease, shown in checkedOut, renewed and released', async () => {
    // Seeded and opened, nobody has it checked out.
    expect((await page(alice)).page.workflow).toMatchObject({ checkedOut: false, checkedOutUser: '' });
    const viewed = await beat(alice, { mode: 'view' });
    expect(viewed.statusCode, viewed.body).toBe(200);
    expect(LeaseState.parse(viewed.json())).toMatchObject({ lease: null, mine: false, present: [] });

    const before = await page(alice);
    const taken = await beat(alice, { mode: 'edit' });
    expect(taken.statusCode, taken.body).toBe(200);
    const s = LeaseState.parse(taken.json());
    expect(s).toMatchObject({ kind: 'page', path: 'demo/index', mine: true, lease: { username: 'alice' } });
    expect(s.id).toBe(before.page.id);
    const after = await page(bob);
    expect(after.page.workflow).toMatchObject({ checkedOut: true, checkedOutUser: 'alice' });
    // The row shows the lease: the ETag is the one of the bytes sent, so it moved with the lease...
    expect(after.etag).toBe(etagOf(after.body));
    expect(after.etag).not.toBe(before.etag);
    // ...but the lease is not content: the ETag alice edits from is still good.
    expect((await putAs(alice, { displayName: 'Mine' }, before.etag)).statusCode).toBe(200);
    // Who saved last and when, for the conflict dialog of someone whose save comes too late.
    const saved = (await state(bob)).lastSaved;
    expect(saved?.by).toBe('alice');
    expect(Number.isNaN(Date.parse(saved!.at))).toBe(false);

    // Renewing keeps `since` and moves the end.
    t.advance(60_000);
    const renewed = LeaseState.parse((await beat(alice)).json());
    expect(renewed.lease!.since).toBe(s.lease!.since);
    expect(Date.parse(renewed.lease!.expiresAt)).toBeGreaterThan(Date.parse(s.lease!.expiresAt));

    // Leaving releases it.
    expect((await leave(alice)).statusCode).toBe(200);
    expect((await state(bob)).lease).toBeNull();
    expect((await page(bob)).page.workflow).toMatchObject({ checkedOut: false, checkedOutUser: '' });
  });

  it('leaving a renamed page at its old path ends the lease held there (200, not 404)', async () => {
    const created = await t.request({
      method: 'PUT',
      url: '/cms/rest/pages/by-path/demo/before',
      payload: { templateName: 'article' },
      headers: { authorization: alice },
    });
    expect(created.statusCode, created.body).toBe(201);
    const old = '/cms/rest/leases/page/demo/before';
    expect((await beat(alice, { mode: 'edit' }, old)).statusCode).toBe(200);
    const renamed = await t.request({
      method: 'POST',
      url: '/cms/rest/folders/rename',
      payload: { path: 'demo/before', newName: 'after' },
      headers: { authorization: alice },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const left = await leave(alice, old);
    expect(left.statusCode, left.body).toBe(200);
    const moved = await t.request({
      method: 'GET',
      url: '/cms/rest/pages/by-path/demo/after',
      headers: { authorization: bob },
    });
    expect(Page.parse(moved.json()).workflow).toMatchObject({ checkedOut: false, checkedOutUser: '' });
    // Nobody else's lease or presence is touched, and a path that never had one leaves nothing.
    expect((await leave(bob, '/cms/rest/leases/page/demo/never')).statusCode).toBe(200);
  });

  it('ends a lease not renewed in CMS_LEASE_SECONDS; the sweep clears it from the item', async () => {
    expect((await beat(alice)).statusCode).toBe(200);
    t.advance(119_000);
    expect(await t.app.sweepLeases()).toBe(0);
    expect((await state(bob)).lease?.username).toBe('alice');
    expect((await page(bob)).page.workflow).toMatchObject({ checkedOut: true, checkedOutUser: 'alice' });
    t.advance(2_000);
    expect((await state(bob)).lease).toBeNull();
    // Before the sweep the row still names alice, but her lease ran out: bob may write.
    const { etag } = await page(bob);
    const put = await putAs(bob, { summary: 'after the lease' }, etag);
    expect(put.statusCode, put.body).toBe(200);
    expect(await t.app.sweepLeases()).toBe(1);
    expect(await t.app.sweepLeases()).toBe(0);
    const swept = await page(bob);
    expect(swept.page.workflow).toMatchObject({ checkedOut: false, checkedOutUser: '' });
    expect(swept.etag).toBe(etagOf(swept.body));
    // Someone else may take it now.
    expect(LeaseState.parse((await beat(bob)).json()).lease).toMatchObject({ username: 'bob', takenFrom: null });
  });

  it('refuses another editor (409 LEASE_HELD naming the holder) until they take it over; the holder is told', async () => {
    expect((await beat(alice)).statusCode).toBe(200);
    const refused = await beat(bob);
    expect(refused.statusCode).toBe(409);
    const problem = problemOf(refused) as ReturnType<typeof problemOf> & { lease?: { username: string } };
    expect(problem.code).toBe('LEASE_HELD');
    expect(problem.detail).toContain('alice');
    expect(problem.lease?.username).toBe('alice');
    expect((await state(alice)).mine).toBe(true);

    const over = await beat(bob, { mode: 'edit', takeover: true });
    expect(over.statusCode, over.body).toBe(200);
    expect(LeaseState.parse(over.json()).lease).toMatchObject({ username: 'bob', takenFrom: 'alice' });
    // Alice's next renewal learns it: 409 naming bob, with whom he took it from.
    const told = await beat(alice);
    expect(told.statusCode).toBe(409);
    expect((problemOf(told) as unknown as { lease: { username: string; takenFrom: string } }).lease).toMatchObject({
      username: 'bob',
      takenFrom: 'alice',
    });
    // Alice leaving does not end bob's lease.
    expect((await leave(alice)).statusCode).toBe(200);
    expect((await page(alice)).page.workflow).toMatchObject({ checkedOut: true, checkedOutUser: 'bob' });
  });

  it("signing out ends the user's leases and presence, with a lease change each; others edit at once", async () => {
    const login = await t.request({
      method: 'POST',
      url: '/cms/rest/auth/login',
      headers: { authorization: '' },
      payload: { username: 'alice', password: 'alice-password' },
    });
    expect(login.statusCode, login.body).toBe(200);
    const cookie = `folio_session=${login.cookies.find((c) => c.name === 'folio_session')!.value}`;
    const session = { authorization: '', cookie, 'x-csrf-token': login.json().csrfToken as string };
    const assetLease = '/cms/rest/leases/asset/Assets/notes.txt';
    expect((await upload(t, 'Assets/notes.txt', Buffer.from('hello'), { contentType: 'text/plain' })).statusCode).toBe(
      201,
    );
    // Alice holds the page (through her session) and the asset (over Basic: the same person), and has both open.
    const taken = await t.request({ method: 'POST', url: LEASE, payload: { mode: 'edit' }, headers: session });
    expect(taken.statusCode, taken.body).toBe(200);
    expect((await beat(alice, { mode: 'edit' }, assetLease)).statusCode).toBe(200);
    expect((await beat(bob, { mode: 'view' })).statusCode).toBe(200);
    expect((await state(bob)).present.map((p) => p.username)).toEqual(['alice']);
    // Bob's own lease is not hers: it stays.
    await t.request({ method: 'PUT', url: '/cms/rest/pages/by-path/demo/other', payload: { templateName: 'article' } });
    expect((await beat(bob, {}, '/cms/rest/leases/page/demo/other')).statusCode).toBe(200);

    const out = await t.request({ method: 'POST', url: '/cms/rest/auth/logout', headers: session });
    expect(out.statusCode, out.body).toBe(200);
    expect(await state(bob)).toMatchObject({ lease: null, present: [] });
    expect((await state(bob, assetLease)).lease).toBeNull();
    expect((await page(bob)).page.workflow).toMatchObject({ checkedOut: false, checkedOutUser: '' });
    expect((await state(alice, '/cms/rest/leases/page/demo/other')).lease?.username).toBe('bob');
    expect(await leaseChanges()).toEqual([
      ['page', 'alice', 'alice'],
      ['asset', 'alice', 'alice'],
      ['page', 'bob', 'bob'],
      ['page', 'alice', ''],
      ['asset', 'alice', ''],
    ]);
    // Bob edits at once, no takeover needed.
    expect(LeaseState.parse((await beat(bob)).json()).lease).toMatchObject({ username: 'bob', takenFrom: null });
    // Signing out over Basic has no session to end: nothing else happens.
    expect(
      (await t.request({ method: 'POST', url: '/cms/rest/auth/logout', headers: { authorization: bob } })).statusCode,
    ).toBe(200);
    expect((await state(alice)).lease?.username).toBe('bob');
  });

  it('writes a lease change when a lease is taken, taken over, released or runs out', async () => {
    expect((await beat(alice)).statusCode).toBe(200);
    expect((await beat(alice)).statusCode).toBe(200); // a renewal is no change
    expect((await beat(bob, { mode: 'edit', takeover: true })).statusCode).toBe(200);
    expect((await leave(alice)).statusCode).toBe(200); // she no longer holds it: no change
    expect((await leave(bob)).statusCode).toBe(200);
    expect((await beat(alice)).statusCode).toBe(200);
    t.advance(121_000);
    expect(await t.app.sweepLeases()).toBe(1);
    expect(await leaseChanges()).toEqual([
      ['page', 'alice', 'alice'],
      ['page', 'bob', 'bob'],
      ['page', 'bob', ''],
      ['page', 'alice', 'alice'],
      ['page', 'alice', ''],
    ]);
  });

  it('refuses a PUT or DELETE by anyone but the holder (409 LEASE_HELD, nothing changed)', async () => {
    const { etag } = await page(bob);
    expect((await beat(alice)).statusCode).toBe(200);
    const put = await putAs(bob, { displayName: 'Bob was here' }, etag);
    expect(put.statusCode).toBe(409);
    expect(problemOf(put).code).toBe('LEASE_HELD');
    expect(problemOf(put).detail).toContain('alice');
    const del = await t.request({ method: 'DELETE', url: PAGE, headers: { authorization: bob } });
    expect(del.statusCode).toBe(409);
    expect((await page(bob)).page.displayName).not.toBe('Bob was here');
    // The holder writes.
    const ok = await putAs(alice, { displayName: 'Alice was here' }, etag);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(Page.parse(ok.json()).workflow).toMatchObject({ checkedOut: true, checkedOutUser: 'alice' });
  });

  it('refuses a write from a remembered page once someone else took the lease after it', async () => {
    // Alice writes twice (the second from the page as this process remembers it), then bob takes the lease.
    expect((await putAs(alice, { summary: 'one' })).statusCode).toBe(200);
    expect((await putAs(alice, { summary: 'two' })).statusCode).toBe(200);
    expect((await beat(bob)).statusCode).toBe(200);
    const refused = await putAs(alice, { summary: 'three' });
    expect(refused.statusCode).toBe(409);
    expect(problemOf(refused).code).toBe('LEASE_HELD');
    expect(problemOf(refused).detail).toContain('bob');
    expect((await page(bob)).page.summary).toBe('two');
    // Bob leaves: alice writes again.
    expect((await leave(bob)).statusCode).toBe(200);
    expect((await putAs(alice, { summary: 'three' })).statusCode).toBe(200);
  });

  it("takes and ends the caller's lease through the spec's workflow.checkedOut", async () => {
    const out = await putAs(alice, { workflow: { checkedOut: true } });
    expect(out.statusCode, out.body).toBe(200);
    expect(Page.parse(out.json()).workflow).toMatchObject({ checkedOut: true, checkedOutUser: 'alice' });
    expect((await state(bob)).lease?.username).toBe('alice');
    const back = await putAs(alice, { workflow: { checkedOut: false } });
    expect(Page.parse(back.json()).workflow).toMatchObject({ checkedOut: false, checkedOutUser: '' });
    expect((await state(bob)).lease).toBeNull();
  });

  it('shows who else has the item open, editing or not, and forgets them when they leave or stop beating', async () => {
    expect((await beat(alice)).statusCode).toBe(200);
    expect((await beat(viewer, { mode: 'view' })).statusCode).toBe(200);
    const seenByBob = LeaseState.parse((await beat(bob, { mode: 'view' })).json());
    expect(seenByBob.present.map((p) => [p.username, p.editing])).toEqual([
      ['alice', true],
      ['vera', false],
    ]);
    expect((await state(alice)).present.map((p) => p.username)).toEqual(['vera', 'bob']);
    expect((await leave(viewer)).statusCode).toBe(200);
    expect((await state(alice)).present.map((p) => p.username)).toEqual(['bob']);
    t.advance(80_000);
    expect((await beat(alice)).statusCode).toBe(200);
    expect((await state(alice)).present).toEqual([]);
  });

  it('checks access and input: viewers only view, unknown items 404, bad bodies 400, no credentials 401', async () => {
    const denied = await beat(viewer, { mode: 'edit' });
    expect(denied.statusCode).toBe(403);
    expect((await state(alice)).lease).toBeNull();
    expect((await beat(alice, {}, '/cms/rest/leases/page/demo/nothing-here')).statusCode).toBe(404);
    expect((await beat(alice, {}, '/cms/rest/leases/asset/Assets/none.png')).statusCode).toBe(404);
    expect((await beat(alice, { mode: 'own' })).statusCode).toBe(400);
    expect((await beat(alice, { extra: 1 })).statusCode).toBe(400);
    expect((await t.request({ method: 'GET', url: '/cms/rest/leases/folder/demo' })).statusCode).toBe(404);
    expect(
      (await t.request({ method: 'POST', url: LEASE, payload: {}, headers: { authorization: '' } })).statusCode,
    ).toBe(401);
    expect((await state(alice)).lease).toBeNull();
  });

  it('leases assets too: checkedOut on the metadata, PUT refused to others', async () => {
    const up = await upload(t, 'Assets/notes.txt', Buffer.from('hello\n'), { contentType: 'text/plain' });
    expect(up.statusCode, up.body).toBe(201);
    const url = '/cms/rest/assets/by-path/Assets/notes.txt';
    const meta = async () => AssetMetadata.parse((await t.request({ method: 'GET', url })).json());
    expect((await meta()).workflow).toMatchObject({ checkedOut: false, checkedOutUser: '' });
    const before = String((await t.request({ method: 'GET', url })).headers.etag);
    expect((await beat(alice, {}, '/cms/rest/leases/asset/Assets/notes.txt')).statusCode).toBe(200);
    expect((await meta()).workflow).toMatchObject({ checkedOut: true, checkedOutUser: 'alice' });
    const put = await t.request({ method: 'PUT', url, payload: { fields: {} }, headers: { authorization: bob } });
    expect(put.statusCode).toBe(409);
    expect(problemOf(put).code).toBe('LEASE_HELD');
    // The file too, and the delete; alice's ETag from before her lease is still good for her.
    const file = multipart([
      { name: 'path', value: 'Assets/notes.txt' },
      { name: 'file', filename: 'notes.txt', content: Buffer.from('bob\n'), contentType: 'text/plain' },
    ]);
    const binary = '/cms/rest/assets/binary/Assets/notes.txt';
    const replaced = await t.request({
      method: 'PUT',
      url: binary,
      ...file,
      headers: { ...file.headers, authorization: bob },
    });
    expect(replaced.statusCode).toBe(409);
    expect(problemOf(replaced).code).toBe('LEASE_HELD');
    const del = await t.request({ method: 'DELETE', url, headers: { authorization: bob } });
    expect(del.statusCode).toBe(409);
    const got = await t.request({ method: 'GET', url });
    expect(got.headers.etag).toBe(etagOf(got.body));
    const mine = await t.request({
      method: 'PUT',
      url,
      payload: { fields: {} },
      headers: { authorization: alice, 'if-match': before },
    });
    expect(mine.statusCode, mine.body).toBe(200);
    expect(AssetMetadata.parse(mine.json()).workflow).toMatchObject({ checkedOut: true, checkedOutUser: 'alice' });
    // Who saved it last, for bob's conflict dialog: the uploader (alice's PUT of no change wrote nothing).
    expect((await state(bob, '/cms/rest/leases/asset/Assets/notes.txt')).lastSaved?.by).toBe('admin');
  });
});
