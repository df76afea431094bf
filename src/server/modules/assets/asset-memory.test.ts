import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, statementsOf, type TestApp } from '../../test/harness.js';
import { assetsRepository } from './assets.repository.js';
import { representAsset } from './assets.presenter.js';

/**
 * A PUT of the metadata of an asset this process wrote before is one statement, made from the asset as it wrote
 * it, which stores the asset's new metadata too (assets.metadata.ts). Whatever changed since — elsewhere in this
 * process, on another node, in SQL — it must answer exactly what a PUT from a fresh read answers: the change kept,
 * the access level, the place, the ETag of now; and what it stores must be what the rows present.
 */
let t: TestApp;
beforeEach(async () => {
  // The response cache off: writes are made here in SQL too, which do not advance the change generation.
  t = await createTestApp({ CMS_SEED: 'true', CMS_RESPONSE_CACHE: 'off' });
});
afterEach(async () => {
  await t.close();
});

const PATH = ['Assets', 'notes', 'memo'];
const URL = `/cms/rest/assets/by-path/${PATH.join('/')}`;
const db = () => t.app.folio.ctx.db;

async function put(fields: Record<string, unknown>, headers: Record<string, string> = {}) {
  return t.request({ method: 'PUT', url: URL, headers, payload: { fields } });
}
async function get(url = URL) {
  return t.request({ method: 'GET', url });
}
async function assetId(): Promise<string> {
  return (await get()).json().id as string;
}

/**
 * The PUT's answer is what a GET answers next, byte for byte, with the same ETag; and that is what the asset's
 * rows present now (the doc the write stored agrees with them).
 */
async function expectAnsweredAsStored(res: Awaited<ReturnType<typeof put>>, url = URL) {
  expect(res.statusCode, res.body).toBe(200);
  const now = await get(url);
  expect(res.body).toBe(now.body);
  expect(res.headers.etag).toBe(now.headers.etag);
  const segments = url.slice('/cms/rest/assets/by-path/'.length).split('/');
  const row = await assetsRepository.findByPath(db(), segments);
  expect(row).toBeDefined();
  const presented = representAsset(row!, segments.slice(0, -1));
  expect(presented.json).toBe(now.body);
  expect(presented.etag).toBe(now.headers.etag);
}

beforeEach(async () => {
  const made = await t.request({
    method: 'PUT',
    url: URL,
    payload: { type: 'cmsRichTextAsset', fields: { text: '<p>Made</p>' } },
  });
  expect(made.statusCode, made.body).toBe(201);
  // Remembered: written once by this process.
  await expectAnsweredAsStored(await put({ text: '<p>First</p>' }));
});

describe('PUT of an asset this process remembers', () => {
  it('is one statement, which stores the new metadata and proves the caller; the next GET stores nothing', async () => {
    const sent = await statementsOf(t, async () => expect((await put({ text: '<p>Second</p>' })).statusCode).toBe(200));
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatch(
      /update "assets" set .*"doc" = .* and \(\(select value from folder_doc_epoch where id = 1\) = /,
    );
    expect(sent[0]).toMatch(/ and \(exists \(select 1 from users where /);
    // The GET answers the doc the write stored: it reads, and writes nothing.
    const read = await statementsOf(t, async () => expect((await get()).json().fields.text).toBe('<p>Second</p>'));
    expect(read.filter((s) => /^(with .*)?update /i.test(s))).toEqual([]);
  });

  it('keeps a change made since by someone else (another node, SQL), and answers the asset with it', async () => {
    // Approved elsewhere: an edit of a public asset moves it to Quick Edit, where the remembered Draft stays.
    await sql`update assets set workflow_state = 'Public', checked_out = 0, checked_out_user = ''
      where node_id = ${await assetId()}`.execute(db());
    const res = await put({ text: '<p>Third</p>' });
    await expectAnsweredAsStored(res);
    expect(res.json().workflow.state).toBe('Quick Edit');
  });

  it('keeps a workflow move made since through the API (a write it did not make itself)', async () => {
    const moved = await t.request({ method: 'PUT', url: URL, payload: { workflow: { state: 'Review' } } });
    expect(moved.statusCode, moved.body).toBe(200);
    const res = await put({ text: '<p>In review</p>' });
    await expectAnsweredAsStored(res);
    expect(res.json().workflow.state).toBe(moved.json().workflow.state);
  });

  it('refuses an Editor once an access level set above makes the folder read-only', async () => {
    const editor = await t.createUser('ed', 'Editor');
    expect((await put({ text: '<p>By an editor</p>' }, { authorization: editor })).statusCode).toBe(200);
    await sql`update nodes set access_level = 'READ' where id = (select parent_id from nodes where id = ${await assetId()})`.execute(
      db(),
    );
    const res = await put({ text: '<p>Refused</p>' }, { authorization: editor });
    expect(res.statusCode, res.body).toBe(403);
    expect((await get()).json().fields.text).toBe('<p>By an editor</p>');
  });

  it('does not write an asset that is no longer at the URL (its folder renamed since): a PUT there makes a new one', async () => {
    const id = await assetId();
    await sql`update nodes set name = 'renamed' where id = (select parent_id from nodes where id = ${id})`.execute(
      db(),
    );
    const res = await t.request({
      method: 'PUT',
      url: URL,
      payload: { type: 'cmsRichTextAsset', fields: { text: '<p>New</p>' } },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().id).not.toBe(id);
    const moved = await get('/cms/rest/assets/by-path/Assets/renamed/memo');
    expect(moved.json()).toMatchObject({ id, fields: { text: '<p>First</p>' } });
  });

  it('does not write an asset renamed since (its own node), and shows the rename in what it stores next', async () => {
    const id = await assetId();
    await sql`update nodes set name = 'memo-2', updated_at = ${new Date(Date.now() + 60_000).toISOString()}
      where id = ${id}`.execute(db());
    expect((await put({ text: '<p>Old name</p>' })).statusCode).not.toBe(200);
    const renamed = '/cms/rest/assets/by-path/Assets/notes/memo-2';
    const res = await t.request({ method: 'PUT', url: renamed, payload: { fields: { text: '<p>New name</p>' } } });
    await expectAnsweredAsStored(res, renamed);
    // Its time is after the node's (set ahead of the clock by the rename): the write never goes back in time.
    expect(Date.parse(res.json().lastModifiedDate.replace('+0000', 'Z'))).toBeGreaterThan(Date.now() + 59_000);
  });

  it('does not write an asset deleted and made again at the URL: the new one is written', async () => {
    const old = await assetId();
    expect([200, 204]).toContain((await t.request({ method: 'DELETE', url: URL })).statusCode);
    const made = await t.request({
      method: 'PUT',
      url: URL,
      payload: { type: 'cmsRichTextAsset', fields: { text: '<p>Again</p>' } },
    });
    expect(made.statusCode, made.body).toBe(201);
    const res = await put({ text: '<p>The new one</p>' });
    await expectAnsweredAsStored(res);
    expect(res.json().id).not.toBe(old);
  });

  it('decides If-Match on the asset as it is now, not as remembered', async () => {
    const remembered = (await get()).headers.etag as string;
    await sql`update assets set fields = ${JSON.stringify({ text: '<p>Changed</p>' })} where node_id = ${await assetId()}`.execute(
      db(),
    );
    const current = (await get()).headers.etag as string;
    expect(current).not.toBe(remembered);
    expect((await put({ text: '<p>Stale</p>' }, { 'if-match': remembered })).statusCode).toBe(412);
    expect((await get()).json().fields.text).toBe('<p>Changed</p>');
    const res = await put({ text: '<p>Current</p>' }, { 'if-match': current });
    await expectAnsweredAsStored(res);
    expect(res.json().fields.text).toBe('<p>Current</p>');
  });

  it('writes what it would not write from memory (the same text) when the asset changed since', async () => {
    await sql`update assets set fields = ${JSON.stringify({ text: '<p>Meanwhile</p>' })}
      where node_id = ${await assetId()}`.execute(db());
    const res = await put({ text: '<p>First</p>' });
    await expectAnsweredAsStored(res);
    expect(res.json().fields.text).toBe('<p>First</p>');
  });
});
