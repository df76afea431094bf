import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { createTestApp, ADMIN, ADMIN_PASSWORD, type TestApp } from '../test/harness.js';
import { createTestDatabase, type TestDatabase } from '../test/node-cluster.js';
import { textColumnsWithoutByteOrder } from './dialect.js';

/**
 * Text sorts and compares bytewise (code point order) on both dialects: SQLite's BINARY, and PostgreSQL's "C"
 * collation on every text column (migration 0040), even on a database created with a language's collation.
 */
type Request = (opts: { method: 'GET' | 'PUT'; url: string; payload?: object }) => Promise<LightMyRequestResponse>;

// Mixed case, punctuation and non-ASCII: a language collation orders these differently from code points.
const NAMES = ['b', 'B', 'a', 'A', '_a', 'a-b', 'ab', 'Zed', 'é', 'z', '0', 'a.b'];
const byCodePoint = (xs: string[]) => [...xs].sort();

async function expectBytewiseOrder(request: Request) {
  for (const name of NAMES) {
    const res = await request({
      method: 'PUT',
      url: `/cms/rest/assets/by-path/Assets/order/${encodeURIComponent(name)}`,
      payload: { type: 'cmsSimpleTextAsset', fields: { text: name } },
    });
    expect(res.statusCode, res.body).toBe(201);
  }
  // Listed by name, two at a time: the order and the keyset cursors agree with code point order.
  const listed: string[] = [];
  let cursor: string | null = null;
  do {
    const url: string = `/cms/rest/assets/list/Assets/order?sort=name&limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const page = (await request({ method: 'GET', url })).json() as {
      items: { name: string }[];
      nextCursor: string | null;
    };
    listed.push(...page.items.map((i) => i.name));
    cursor = page.nextCursor;
  } while (cursor);
  expect(listed).toEqual(byCodePoint(NAMES));

  for (const name of ['bob', 'Alice', 'carol', 'Dave']) {
    expect(
      (
        await request({
          method: 'PUT',
          url: `/cms/rest/users/${name}`,
          payload: { role: 'Viewer', password: `${name}-password` },
        })
      ).statusCode,
    ).toBe(201);
  }
  const users = (await request({ method: 'GET', url: '/cms/rest/users' })).json() as { username: string }[];
  expect(users.map((u) => u.username)).toEqual(byCodePoint(['admin', 'bob', 'Alice', 'carol', 'Dave']));
}

describe('text order', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('every text column compares bytewise after the migrations', async () => {
    expect(await textColumnsWithoutByteOrder(t.app.folio.ctx.db)).toEqual([]);
  });

  it('lists by name in code point order, page after page', async () => {
    await expectBytewiseOrder((opts) => t.request(opts));
  });
});

const PG_URL = process.env.TEST_DATABASE_URL;

describe.skipIf(!PG_URL)('text order on a PostgreSQL database with a language collation (ICU en-US)', () => {
  let db: TestDatabase;
  let dir: string;
  let app: Awaited<ReturnType<typeof buildApp>> | undefined;
  beforeAll(async () => {
    db = await createTestDatabase(PG_URL!, { icuLocale: 'en-US' });
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'folio-collation-'));
    app = await buildApp(
      loadConfig({
        CMS_DATA_DIR: dir,
        DATABASE_URL: db.url,
        CMS_ADMIN_PASSWORD: ADMIN_PASSWORD,
        CMS_SEED: 'false',
        LOG_LEVEL: 'silent',
      }),
      { logger: false, strictAnswers: true },
    );
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await db?.drop();
    if (dir) await fs.rm(dir, { recursive: true, force: true });
  });

  it('the database itself sorts "a" before "B" (so the test means something)', async () => {
    const r = await db.query<{ x: string }>(`select x from (values ('B'), ('a')) v(x) order by x`);
    expect(r.rows.map((row) => row.x)).toEqual(['a', 'B']);
  });

  it('yet Folio lists by name in code point order, as on SQLite', async () => {
    await expectBytewiseOrder((opts) => app!.inject({ ...opts, headers: { authorization: ADMIN } }));
  });
});
