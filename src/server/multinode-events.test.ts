import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic } from './test/harness.js';
import { createTestDatabase, startNodes, type ServerNode, type TestDatabase } from './test/node-cluster.js';
import { readSse } from './test/sse.js';

/**
 * Live events across server nodes on one PostgreSQL database: a change written through one node reaches the
 * event streams of the other, through the change log in the database. Runs in the PostgreSQL pass of the suite.
 */
const PG_URL = process.env.TEST_DATABASE_URL;
const PASSWORD = 'cluster-admin-password';
const ADMIN = basic('admin', PASSWORD);

async function openStream(node: ServerNode, headers: Record<string, string> = {}) {
  const controller = new AbortController();
  const res = await node.fetch('/cms/rest/events', {
    headers: { authorization: ADMIN, ...headers },
    signal: controller.signal,
  });
  expect(res.status).toBe(200);
  return readSse(res, controller);
}

function put(node: ServerNode, url: string, body: unknown) {
  return node.fetch(url, {
    method: 'PUT',
    headers: { authorization: ADMIN, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

describe.skipIf(!PG_URL)('live events on several server nodes', () => {
  let db: TestDatabase;
  let cluster: Awaited<ReturnType<typeof startNodes>> | undefined;
  let a: ServerNode;
  let b: ServerNode;

  beforeAll(async () => {
    db = await createTestDatabase(PG_URL!);
    cluster = await startNodes(['A', 'B'], {
      DATABASE_URL: db.url,
      CMS_ADMIN_PASSWORD: PASSWORD,
      CMS_SEED: 'true',
      CMS_DB_POOL_SIZE: '4',
    });
    [a, b] = cluster.nodes as [ServerNode, ServerNode];
  }, 180_000);

  afterAll(async () => {
    await cluster?.stop();
    await db?.drop();
  }, 60_000);

  it('a page written and deleted through A arrives on the stream of B', async () => {
    const onB = await openStream(b);
    const created = await put(a, '/cms/rest/pages/by-path/demo/articles/live', { templateName: 'article' });
    expect(created.status).toBe(201);
    const id = ((await created.json()) as { id: string }).id;
    const event = await onB.change((e) => e.kind === 'page' && e.path === 'demo/articles/live');
    expect(event).toMatchObject({ itemId: id, deleted: false, by: 'admin' });

    const edited = await put(a, '/cms/rest/pages/by-path/demo/articles/live', {
      templateName: 'article',
      displayName: 'Edited on A',
    });
    expect(edited.status).toBe(200);
    const edit = await onB.change((e) => e.itemId === id && e.id > event.id);
    if (edit.etag !== null) expect(edit.etag).toBe(edited.headers.get('etag'));

    const del = await a.fetch('/cms/rest/pages/by-path/demo/articles/live', {
      method: 'DELETE',
      headers: { authorization: ADMIN },
    });
    expect(del.status).toBe(200);
    expect(await onB.change((e) => e.itemId === id && e.deleted)).toMatchObject({ path: 'demo/articles/live' });

    // A resume on A from the first event gets what B saw after it.
    const onA = await openStream(a, { 'last-event-id': String(event.id) });
    await onA.change((e) => e.itemId === id && e.deleted);
    onA.close();
    onB.close();
  });
});
