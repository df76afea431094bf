import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, statementsOf, type TestApp } from '../../test/harness.js';
import { createRemembered } from '../../lib/remembered.js';

/**
 * A fields-only PUT of a page this process read or wrote before is one statement, made from the page as it was
 * then (page-write.ts, lib/guarded-write.ts). Whatever changed since — elsewhere in this process, on another node, in SQL — it must
 * answer exactly what a PUT from a fresh read answers: the change kept, the access level, the place, the ETag of
 * now. Each write below is one the remembered page cannot see; each check fails if the write trusts it.
 */
let t: TestApp;
beforeEach(async () => {
  // The response cache off: writes are made here in SQL too, which do not advance the change generation.
  t = await createTestApp({ CMS_SEED: 'true', CMS_RESPONSE_CACHE: 'off' });
});
afterEach(async () => {
  await t.close();
});

const URL = '/cms/rest/pages/by-path/demo/articles/welcome';
const db = () => t.app.folio.ctx.db;

let template = '';
async function put(payload: Record<string, unknown>, headers: Record<string, string> = {}) {
  return t.request({ method: 'PUT', url: URL, headers, payload: { templateName: template, ...payload } });
}
async function get(url = URL) {
  return t.request({ method: 'GET', url });
}
async function pageId(): Promise<string> {
  return (await get()).json().id as string;
}

/** The page's PUT answer is what a GET answers next, byte for byte, with the same ETag. */
async function expectAnsweredAsStored(res: Awaited<ReturnType<typeof put>>) {
  expect(res.statusCode, res.body).toBe(200);
  const now = await get();
  expect(res.body).toBe(now.body);
  expect(res.headers.etag).toBe(now.headers.etag);
}

beforeEach(async () => {
  template = (await get()).json().templateName as string;
  // Remembered: read and written once by this process.
  await expectAnsweredAsStored(await put({ displayName: 'First' }));
});

describe('PUT of a page this process remembers', () => {
  it('is one statement, which proves the caller; nothing is read first (the read connection stays idle)', async () => {
    const database = t.app.folio.ctx.database as { readNow?: (...a: unknown[]) => unknown };
    const readNow = database.readNow;
    let reads = 0;
    if (readNow) database.readNow = (...a: unknown[]) => (reads++, readNow(...a));
    try {
      const sent = await statementsOf(t, async () =>
        expect((await put({ displayName: 'Second' })).statusCode).toBe(200),
      );
      expect(sent).toHaveLength(1);
      expect(sent[0]).toMatch(/update "pages" set .* and \(\(select value from page_doc_epoch where id = 1\) = /);
      // The caller, remembered from the first PUT, is proven by the same statement (on SQLite too).
      expect(sent[0]).toMatch(/ and \(exists \(select 1 from users where /);
      expect(reads).toBe(0);
    } finally {
      if (readNow) database.readNow = readNow;
    }
    expect((await get()).json().displayName).toBe('Second');
  });

  it('keeps a change made since by someone else (another node, SQL), and answers the page with it', async () => {
    await sql`update pages set summary = 'Written elsewhere' where node_id = ${await pageId()}`.execute(db());
    const res = await put({ displayName: 'Third' });
    await expectAnsweredAsStored(res);
    expect(res.json()).toMatchObject({ displayName: 'Third', summary: 'Written elsewhere' });
  });

  it('keeps a change of the body made since through the API (a write it did not make itself)', async () => {
    const page = (await get()).json();
    const region = page.body.find((r: { editable: boolean; widgets: unknown[] }) => r.editable && r.widgets.length);
    expect(region, 'the welcome page has an editable region with widgets').toBeDefined();
    const res1 = await t.request({
      method: 'PUT',
      url: URL,
      payload: { templateName: template, body: [{ name: region.name, widgets: [] }] },
    });
    expect(res1.statusCode, res1.body).toBe(200);
    const res = await put({ displayName: 'After the body' });
    await expectAnsweredAsStored(res);
    expect(res.json().body.find((r: { name: string }) => r.name === region.name).widgets).toEqual([]);
  });

  it('refuses a Contributor once an access level set above makes the folder read-only', async () => {
    const contributor = await t.createUser('co', 'Contributor');
    expect((await put({ displayName: 'By a contributor' }, { authorization: contributor })).statusCode).toBe(200);
    await sql`update nodes set access_level = 'READ' where id = (select parent_id from nodes where id = ${await pageId()})`.execute(
      db(),
    );
    const res = await put({ displayName: 'Refused' }, { authorization: contributor });
    expect(res.statusCode, res.body).toBe(403);
    expect((await get()).json().displayName).toBe('By a contributor');
  });

  it('does not write a page that is no longer at the URL (its folder renamed since)', async () => {
    const id = await pageId();
    await sql`update nodes set name = 'renamed' where id = (select parent_id from nodes where id = ${id})`.execute(
      db(),
    );
    const res = await put({ displayName: 'At the old place' });
    expect(res.statusCode, res.body).toBe(404);
    const moved = await get('/cms/rest/pages/by-path/demo/renamed/welcome');
    expect(moved.json()).toMatchObject({ id, displayName: 'First' });
  });

  it('does not write a page deleted and made again at the URL: the new one is written', async () => {
    const old = await pageId();
    expect([200, 204]).toContain((await t.request({ method: 'DELETE', url: URL })).statusCode);
    const made = await put({ displayName: 'Made again' });
    expect(made.statusCode, made.body).toBe(201);
    const res = await put({ displayName: 'The new one' });
    await expectAnsweredAsStored(res);
    expect(res.json().id).not.toBe(old);
  });

  it('decides If-Match on the page as it is now, not as remembered', async () => {
    const remembered = (await get()).headers.etag as string;
    await sql`update pages set summary = 'Changed' where node_id = ${await pageId()}`.execute(db());
    const current = (await get()).headers.etag as string;
    expect(current).not.toBe(remembered);
    expect((await put({ displayName: 'Stale' }, { 'if-match': remembered })).statusCode).toBe(412);
    const res = await put({ displayName: 'Current' }, { 'if-match': current });
    await expectAnsweredAsStored(res);
    expect(res.json()).toMatchObject({ displayName: 'Current', summary: 'Changed' });
  });

  it('answers a write of nothing from the page as it is now', async () => {
    await sql`update pages set summary = 'Changed meanwhile' where node_id = ${await pageId()}`.execute(db());
    const res = await put({ displayName: 'First' });
    await expectAnsweredAsStored(res);
    expect(res.json().summary).toBe('Changed meanwhile');
  });

  it('follows a change of what every page shows (a template edited: the page-doc epoch)', async () => {
    await sql`update templates set name = name where name = ${template}`.execute(db());
    const res = await put({ displayName: 'After the template' });
    await expectAnsweredAsStored(res);
  });
});

describe('the workflow after a PUT from memory', () => {
  it('moves a Public page to Quick Edit only when a field it shows changed, and keeps writing from memory', async () => {
    const one = async (payload: Record<string, unknown>) => {
      let res: Awaited<ReturnType<typeof put>> | undefined;
      const sent = await statementsOf(t, async () => {
        res = await put(payload);
      });
      await expectAnsweredAsStored(res!);
      return { page: res!.json() as { displayName: string; summary: string; workflow: Record<string, unknown> }, sent };
    };
    const published = await one({ workflow: { state: 'Public' } });
    expect(published.page.workflow).toMatchObject({ state: 'Public', checkedOut: false, checkedOutUser: '' });
    // The same title again is no edit: the page stays Public.
    expect((await one({ displayName: 'First' })).page.workflow).toMatchObject({ state: 'Public', checkedOut: false });
    // A changed summary is: Quick Edit, checked out to the editor, in the one statement of a remembered page.
    const edited = await one({ summary: 'Changed from memory' });
    expect(edited.sent).toHaveLength(1);
    expect(edited.page.workflow).toMatchObject({ state: 'Quick Edit', checkedOut: false, checkedOutUser: '' });
    // The page remembered after that move shows the new workflow in the doc it writes next.
    const again = await one({ displayName: 'Third' });
    expect(again.sent).toHaveLength(1);
    expect(again.page).toMatchObject({ displayName: 'Third', summary: 'Changed from memory' });
    expect(again.page.workflow).toMatchObject({ state: 'Quick Edit', checkedOut: false });
  });
});

describe('createRemembered', () => {
  it('keeps the most recently used pages up to its limit', () => {
    const memory = createRemembered(2);
    const page = (n: number) => ({ row: { node_id: String(n) } }) as never;
    memory.set('a', page(1));
    memory.set('b', page(2));
    memory.get('a');
    memory.set('c', page(3));
    expect(memory.size).toBe(2);
    expect(memory.get('b')).toBeUndefined();
    expect(memory.get('a')).toBeDefined();
    memory.forget('a');
    expect(memory.get('a')).toBeUndefined();
  });
});
