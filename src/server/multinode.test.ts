import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CSRF_HEADER } from '../shared/api/auth.js';
import { MAX_LOGIN_FAILURES } from './modules/auth/auth.service.js';
import { basic } from './test/harness.js';
import {
  createTestDatabase,
  logMessages,
  startNodes,
  type ServerNode,
  type TestDatabase,
} from './test/node-cluster.js';
import { startTestS3Server, type TestS3Server } from './test/s3-server.js';

/**
 * Several server processes on one PostgreSQL database and one blob store, started at the same moment on an
 * empty database, as a cluster behind a load balancer runs. Each process is `src/server/main.ts` configured by
 * its environment, on its own port; the test talks HTTP to them. Needs PostgreSQL: it runs in the PostgreSQL
 * pass of the suite (TEST_DATABASE_URL), in a database of its own that it drops afterwards.
 */
const PG_URL = process.env.TEST_DATABASE_URL;
const PASSWORD = 'cluster-admin-password';
const ADMIN = basic('admin', PASSWORD);
const JSON_HEADERS = { authorization: ADMIN, 'content-type': 'application/json' };

const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

async function call(
  node: ServerNode,
  method: string,
  url: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const res = await node.fetch(url, {
    method,
    headers: { ...JSON_HEADERS, ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return {
    status: res.status,
    etag: res.headers.get('etag'),
    headers: res.headers,
    text,
    json: () => JSON.parse(text),
  };
}

async function pngOf(color: string): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="200"><rect width="400" height="200" fill="${color}"/></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

async function upload(node: ServerNode, assetPath: string, data: Buffer) {
  const form = new FormData();
  form.append('path', assetPath);
  form.append('file', new Blob([new Uint8Array(data)], { type: 'image/png' }), 'upload.png');
  const res = await node.fetch(`/cms/rest/assets/binary/${assetPath}`, {
    method: 'POST',
    headers: { authorization: ADMIN },
    body: form,
  });
  return { status: res.status, body: await res.text() };
}

async function download(node: ServerNode, assetPath: string) {
  const res = await node.fetch(`/cms/rest/assets/binary/${assetPath}`, { headers: { authorization: ADMIN } });
  return { status: res.status, bytes: new Uint8Array(await res.arrayBuffer()) };
}

async function allFiles(d: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await fs.readdir(d, { withFileTypes: true }).catch(() => [])) {
    const p = path.join(d, e.name);
    if (e.isDirectory()) out.push(...(await allFiles(p)));
    else out.push(p);
  }
  return out;
}

describe.skipIf(!PG_URL)('several server nodes on one PostgreSQL and one blob directory', () => {
  let db: TestDatabase;
  let blobDir: string;
  let cluster: Awaited<ReturnType<typeof startNodes>> | undefined;
  let a: ServerNode;
  let b: ServerNode;

  beforeAll(async () => {
    db = await createTestDatabase(PG_URL!);
    blobDir = await fs.mkdtemp(path.join(os.tmpdir(), 'folio-cluster-blobs-'));
    // Both nodes start at the same moment on an empty database, each wanting to migrate, create the admin
    // user and seed the demo site.
    cluster = await startNodes(['A', 'B'], {
      DATABASE_URL: db.url,
      CMS_BLOB_DIR: blobDir,
      CMS_ADMIN_PASSWORD: PASSWORD,
      CMS_SEED: 'true',
      CMS_DB_POOL_SIZE: '5',
    });
    [a, b] = cluster.nodes as [ServerNode, ServerNode];
  }, 180_000);

  afterAll(async () => {
    await cluster?.stop();
    await db?.drop();
    if (blobDir) await fs.rm(blobDir, { recursive: true, force: true });
  }, 60_000);

  it('start together on an empty database: migrated once, one admin, the demo seeded exactly once', async () => {
    const migrations = await db.query<{ name: string }>('select name from kysely_migration order by name');
    expect(migrations.rows.length).toBeGreaterThan(0);
    expect(new Set(migrations.rows.map((r) => r.name)).size).toBe(migrations.rows.length);
    expect((await db.query('select username from users')).rows).toEqual([{ username: 'admin' }]);
    expect((await db.query(`select value from counters where name = 'demo_seeded'`)).rows).toEqual([{ value: '1' }]);
    const seeders = [a, b].filter((n) => logMessages(n).includes('seeded the demo site'));
    expect(seeders.length).toBe(1);
    for (const node of [a, b]) {
      const sites = (await call(node, 'GET', '/cms/rest/sites')).json() as { name: string }[];
      expect(sites.map((s) => s.name)).toEqual(['demo']);
      const templates = (await call(node, 'GET', '/cms/rest/templates')).json() as unknown[];
      expect(templates.length).toBe(4);
      expect((await node.fetch('/healthz')).status).toBe(200);
    }
  });

  it('a page created through A is read through B, with the same ETag', async () => {
    const created = await call(a, 'PUT', '/cms/rest/pages/by-path/demo/articles/from-a', {
      templateName: 'article',
      displayName: 'Written on A',
    });
    expect(created.status).toBe(201);
    const onA = await call(a, 'GET', '/cms/rest/pages/by-path/demo/articles/from-a');
    const onB = await call(b, 'GET', '/cms/rest/pages/by-path/demo/articles/from-a');
    expect(onB.status).toBe(200);
    expect(onB.json()).toMatchObject({ id: created.json().id, displayName: 'Written on A' });
    expect(onB.etag).toBe(onA.etag);
  });

  it('a session opened on A works on B, and signing out on B ends it on A', async () => {
    const login = await a.fetch('/cms/rest/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: PASSWORD }),
    });
    expect(login.status).toBe(200);
    const cookie = login.headers
      .getSetCookie()
      .find((c) => c.startsWith('folio_session='))!
      .split(';')[0]!;
    const { csrfToken } = (await login.json()) as { csrfToken: string };
    const session = { authorization: '', cookie, [CSRF_HEADER]: csrfToken };
    const noBasic = (h: Record<string, string>) => {
      const { authorization: _drop, ...rest } = { ...JSON_HEADERS, ...h };
      return rest;
    };

    const me = await b.fetch('/cms/rest/auth/me', { headers: noBasic({ cookie }) });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { username: string }).username).toBe('admin');
    // An unsafe method on B, checked against the CSRF token that A issued.
    const put = await b.fetch('/cms/rest/pages/by-path/demo/articles/by-session', {
      method: 'PUT',
      headers: noBasic(session),
      body: JSON.stringify({ templateName: 'article' }),
    });
    expect(put.status).toBe(201);
    // A remembers the session (two reads: the second is answered without a query) before B ends it.
    for (let i = 0; i < 2; i++)
      expect((await a.fetch('/cms/rest/auth/me', { headers: noBasic({ cookie }) })).status).toBe(200);
    const logout = await b.fetch('/cms/rest/auth/logout', { method: 'POST', headers: noBasic(session) });
    expect(logout.status).toBeLessThan(300);
    expect((await a.fetch('/cms/rest/auth/me', { headers: noBasic({ cookie }) })).status).toBe(401);
  });

  it('a delete on B is seen on A at once', async () => {
    expect(
      (await call(a, 'PUT', '/cms/rest/pages/by-path/demo/articles/doomed', { templateName: 'article' })).status,
    ).toBe(201);
    expect((await call(a, 'GET', '/cms/rest/pages/by-path/demo/articles/doomed')).status).toBe(200);
    expect((await call(b, 'DELETE', '/cms/rest/pages/by-path/demo/articles/doomed')).status).toBe(200);
    expect((await call(a, 'GET', '/cms/rest/pages/by-path/demo/articles/doomed')).status).toBe(404);
  });

  /** A resource and a body that changes it to `label`, read back from its GET. */
  const contended = [
    {
      kind: 'page',
      url: '/cms/rest/pages/by-path/demo/articles/contended',
      body: (label: string) => ({ templateName: 'article', displayName: label }),
      read: (json: any) => json.displayName,
    },
    {
      kind: 'section',
      url: '/cms/rest/folders/by-path/demo/about',
      body: (label: string) => ({
        sectionInfo: { displayTitle: label, templateName: 'article', targetWindow: '_self', navClass: '' },
      }),
      read: (json: any) => json.sectionInfo.displayTitle,
    },
    {
      kind: 'asset',
      url: '/cms/rest/assets/by-path/Assets/snippets/opening-hours',
      body: (label: string) => ({ type: 'cmsSimpleTextAsset', fields: { text: label } }),
      read: (json: any) => json.fields.text,
    },
  ];

  it.each(contended)(
    'concurrent conflicting PUTs of a $kind through A and B with the same If-Match: exactly one wins, every time',
    async ({ url, body, read }) => {
      const first = await call(a, 'PUT', url, body('start'));
      expect([200, 201]).toContain(first.status);
      for (let round = 0; round < 6; round++) {
        const etag = (await call(b, 'GET', url)).etag!;
        expect(etag).toBeTruthy();
        const [ra, rb] = await Promise.all([
          call(a, 'PUT', url, body(`A${round}`), { 'if-match': etag }),
          call(b, 'PUT', url, body(`B${round}`), { 'if-match': etag }),
        ]);
        expect([ra.status, rb.status].sort(), `${ra.text} ${rb.text}`).toEqual([200, 412]);
        const winner = ra.status === 200 ? `A${round}` : `B${round}`;
        const loser = ra.status === 200 ? rb : ra;
        expect(loser.json().code).toBe('PRECONDITION_FAILED');
        expect(read((await call(a, 'GET', url)).json())).toBe(winner);
        expect(read((await call(b, 'GET', url)).json())).toBe(winner);
      }
    },
  );

  it('concurrent creates of one path on both nodes: exactly one 201, the other a 409 or 412', async () => {
    for (let round = 0; round < 5; round++) {
      // A folder, create-only (If-None-Match: *): the loser gets 412.
      const folderUrl = `/cms/rest/folders/by-path/demo/race-folder-${round}`;
      const folders = await Promise.all([a, b].map((n) => call(n, 'PUT', folderUrl, {}, { 'if-none-match': '*' })));
      expect(folders.map((r) => r.status).sort()).toEqual([201, 412]);

      // A binary asset (POST creates only): the loser gets 409, and its blob is not left behind.
      const assetPath = `Assets/race/image-${round}.png`;
      const uploads = await Promise.all(
        [a, b].map(async (n, i) => upload(n, assetPath, await pngOf(i ? 'red' : 'blue'))),
      );
      expect(uploads.map((r) => r.status).sort()).toEqual([201, 409]);
      expect(JSON.parse(uploads.find((r) => r.status === 409)!.body).code).toBe('ASSET_ALREADY_EXISTS');

      // A page (PUT creates or updates): one creates it (201); the other either lost the race to the same
      // name (409 NAME_TAKEN) or came second and updated it (200).
      const pageUrl = `/cms/rest/pages/by-path/demo/articles/race-page-${round}`;
      const pages = await Promise.all([a, b].map((n) => call(n, 'PUT', pageUrl, { templateName: 'article' })));
      const statuses = pages.map((r) => r.status);
      expect(statuses.filter((s) => s === 201).length).toBe(1);
      expect([200, 409]).toContain(statuses.find((s) => s !== 201));
      const dupes = await db.query(
        `select count(*)::int as n from nodes where name = $1 and parent_id = (select id from nodes where name = 'articles')`,
        [`race-page-${round}`],
      );
      expect(dupes.rows[0].n).toBe(1);
    }
    // Every blob file belongs to an asset row (the losers' uploads were removed).
    const rows = await db.query<{ blob_key: string | null; thumb_blob_key: string | null }>(
      'select blob_key, thumb_blob_key from assets',
    );
    const referenced = new Set(rows.rows.flatMap((r) => [r.blob_key, r.thumb_blob_key]).filter(Boolean));
    const files = (await allFiles(blobDir)).filter((f) => !path.relative(blobDir, f).startsWith(`tmp${path.sep}`));
    expect(files.map((f) => path.basename(f)).sort()).toEqual([...referenced].sort());
  });

  it('racing writes inside a folder against its delete on the other node never answer 5xx', async () => {
    const statuses: number[] = [];
    for (let round = 0; round < 6; round++) {
      const folder = `demo/race-delete-${round}`;
      expect((await call(a, 'PUT', `/cms/rest/folders/by-path/${folder}`, {})).status).toBe(201);
      const results = await Promise.all([
        call(b, 'DELETE', `/cms/rest/folders/by-path/${folder}?includeSubFolders=true`),
        call(a, 'PUT', `/cms/rest/pages/by-path/${folder}/page`, { templateName: 'article' }),
        call(a, 'PUT', `/cms/rest/folders/by-path/${folder}/sub`, {}),
        call(b, 'PUT', `/cms/rest/pages/by-path/${folder}/other`, { templateName: 'article' }),
      ]);
      for (const r of results) {
        statuses.push(r.status);
        expect(r.status, r.text).toBeLessThan(500);
      }
      // Whatever the order, the folder is gone afterwards or still holds what was created in it.
      const after = await call(a, 'GET', `/cms/rest/folders/by-path/${folder}`);
      expect([200, 404]).toContain(after.status);
    }
    const orphans = await db.query(
      `select count(*)::int as n from nodes c where c.parent_id is not null and not exists (select 1 from nodes p where p.id = c.parent_id)`,
    );
    expect(orphans.rows[0].n).toBe(0);
  });

  it('a storm of conflicting tree changes through both nodes: never a 5xx, and the tree stays whole', async () => {
    // A fixed sequence by default; STORM_SEED=<n> plays another one.
    let seed = Number(process.env.STORM_SEED ?? 42);
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) >>> 0;
      return seed % n;
    };
    const root = 'demo/storm';
    expect((await call(a, 'PUT', `/cms/rest/folders/by-path/${root}`, {})).status).toBe(201);
    const containers = [root, `${root}/f1`, `${root}/f2`, `${root}/f1/f3`];
    const pick = <T>(xs: T[]) => xs[random(xs.length)]!;
    const ops: (() => [string, string, unknown?])[] = [
      () => ['PUT', `/cms/rest/folders/by-path/${pick(containers.slice(1))}`, {}],
      () => ['DELETE', `/cms/rest/folders/by-path/${pick(containers.slice(1))}?includeSubFolders=true`],
      () => [
        'PUT',
        `/cms/rest/pages/by-path/${pick(containers)}/p${random(3)}`,
        { templateName: 'article', displayName: `v${random(1000)}` },
      ],
      () => ['DELETE', `/cms/rest/pages/by-path/${pick(containers)}/p${random(3)}`],
      () => [
        'POST',
        '/cms/rest/folders/move',
        { itemPath: `${pick(containers)}/p${random(3)}`, targetFolderPath: pick(containers) },
      ],
      () => [
        'POST',
        '/cms/rest/folders/move',
        { itemPath: pick(containers.slice(1)), targetFolderPath: pick(containers) },
      ],
      () => [
        'POST',
        '/cms/rest/folders/copy',
        { itemPath: pick(containers.slice(1)), targetFolderPath: pick(containers) },
      ],
      () => [
        'POST',
        '/cms/rest/folders/rename',
        { path: `${pick(containers)}/p${random(3)}`, newName: `p${random(3)}` },
      ],
    ];
    const seen = new Map<number, number>();
    for (let round = 0; round < 10; round++) {
      const batch = Array.from({ length: 12 }, (_, i) => {
        const [method, url, body] = pick(ops)();
        return call(i % 2 ? a : b, method, url, body);
      });
      for (const r of await Promise.all(batch)) {
        seen.set(r.status, (seen.get(r.status) ?? 0) + 1);
        expect(r.status, r.text).toBeLessThan(500);
      }
    }
    // The storm did real work, not only 404s.
    expect((seen.get(200) ?? 0) + (seen.get(201) ?? 0)).toBeGreaterThan(20);
    const broken = await db.query(`
      select 'orphan node' as what, count(*)::int as n from nodes c
        where c.parent_id is not null and not exists (select 1 from nodes p where p.id = c.parent_id)
      union all
      select 'page without detail', count(*)::int from nodes n
        where n.kind = 'page' and not exists (select 1 from pages p where p.node_id = n.id)
      union all
      select 'widget without page', count(*)::int from widgets w
        where not exists (select 1 from nodes n where n.id = w.page_id)`);
    expect(broken.rows).toEqual([
      { what: 'orphan node', n: 0 },
      { what: 'page without detail', n: 0 },
      { what: 'widget without page', n: 0 },
    ]);
    // Both nodes show the same tree.
    const treeA = await call(a, 'GET', `/cms/rest/folders/by-path/${root}`);
    const treeB = await call(b, 'GET', `/cms/rest/folders/by-path/${root}`);
    expect(treeB.text).toBe(treeA.text);
  });

  it('ids never collide: pages and folders created at once through both nodes get distinct ids', async () => {
    const creates = Array.from({ length: 30 }, (_, i) => {
      const node = i % 2 ? a : b;
      return i % 3
        ? call(node, 'PUT', `/cms/rest/pages/by-path/demo/articles/many-${i}`, { templateName: 'article' })
        : call(node, 'PUT', `/cms/rest/folders/by-path/demo/articles/many-${i}`, {});
    });
    const results = await Promise.all(creates);
    expect(results.map((r) => r.status)).toEqual(results.map(() => 201));
    const ids = results.map((r) => r.json().id as string);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^\d+-\d+-\d+$/);
  });

  it('an upload through A is downloaded through B from the shared directory, and a delete on B removes it for A', async () => {
    const png = await pngOf('green');
    expect((await upload(a, 'Assets/shared/green.png', png)).status).toBe(201);
    const viaB = await download(b, 'Assets/shared/green.png');
    expect(viaB.status).toBe(200);
    expect(sha256(viaB.bytes)).toBe(sha256(png));
    const meta = await call(b, 'GET', '/cms/rest/assets/by-path/Assets/shared/green.png');
    expect(meta.json().image).toMatchObject({ width: 400, height: 200 });
    expect((await call(b, 'DELETE', '/cms/rest/assets/by-path/Assets/shared/green.png')).status).toBe(200);
    expect((await download(a, 'Assets/shared/green.png')).status).toBe(404);
  });

  it('the sign-in rate limit counts failures from every node', async () => {
    expect(
      (await call(a, 'PUT', '/cms/rest/users/mallory', { role: 'Viewer', password: 'mallory-password' })).status,
    ).toBe(201);
    const attempt = (node: ServerNode, password: string) =>
      node.fetch('/cms/rest/auth/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'mallory', password }),
      });
    const failures = await Promise.all(
      Array.from({ length: MAX_LOGIN_FAILURES }, (_, i) => attempt(i % 2 ? a : b, 'wrong')),
    );
    for (const r of failures) expect(r.status).toBe(401);
    expect((await attempt(a, 'mallory-password')).status).toBe(429);
    expect((await attempt(b, 'mallory-password')).status).toBe(429);
  });

  it('a session remembered by B ends as soon as A changes the password', async () => {
    expect((await call(a, 'PUT', '/cms/rest/users/erin', { role: 'Editor', password: 'erin-password-1' })).status).toBe(
      201,
    );
    const login = await b.fetch('/cms/rest/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'erin', password: 'erin-password-1' }),
    });
    expect(login.status).toBe(200);
    const cookie = login.headers
      .getSetCookie()
      .find((c) => c.startsWith('folio_session='))!
      .split(';')[0]!;
    const me = () => b.fetch('/cms/rest/auth/me', { headers: { cookie, 'content-type': 'application/json' } });
    for (let i = 0; i < 2; i++) expect((await me()).status).toBe(200);
    expect((await call(a, 'PUT', '/cms/rest/users/erin', { role: 'Editor', password: 'erin-password-2' })).status).toBe(
      200,
    );
    expect((await me()).status).toBe(401);
  });

  it('a Basic credential remembered by B stops working as soon as A changes the password', async () => {
    expect((await call(a, 'PUT', '/cms/rest/users/bob', { role: 'Editor', password: 'bob-password-1' })).status).toBe(
      201,
    );
    const old = basic('bob', 'bob-password-1');
    // B verifies the credential and remembers it.
    for (let i = 0; i < 2; i++) {
      expect((await b.fetch('/cms/rest/auth/me', { headers: { authorization: old } })).status).toBe(200);
    }
    expect((await call(a, 'PUT', '/cms/rest/users/bob', { role: 'Editor', password: 'bob-password-2' })).status).toBe(
      200,
    );
    expect((await b.fetch('/cms/rest/auth/me', { headers: { authorization: old } })).status).toBe(401);
    const fresh = basic('bob', 'bob-password-2');
    expect((await b.fetch('/cms/rest/auth/me', { headers: { authorization: fresh } })).status).toBe(200);
    // A role change on A applies on B at once, too.
    expect((await call(a, 'PUT', '/cms/rest/users/bob', { role: 'Viewer' })).status).toBe(200);
    const me = await b.fetch('/cms/rest/auth/me', { headers: { authorization: fresh } });
    expect(((await me.json()) as { role: string }).role).toBe('Viewer');
    // And a user deleted on A is gone on B.
    expect((await call(a, 'DELETE', '/cms/rest/users/bob')).status).toBeLessThan(300);
    expect((await b.fetch('/cms/rest/auth/me', { headers: { authorization: fresh } })).status).toBe(401);
  });

  it('a page cached by B shows a change made on A at the next GET on B', async () => {
    const url = '/cms/rest/pages/by-path/demo/articles/cached';
    expect((await call(a, 'PUT', url, { templateName: 'article', displayName: 'Version 1' })).status).toBe(201);
    // B answers twice: the second answer comes from its response cache.
    const first = await call(b, 'GET', url);
    const second = await call(b, 'GET', url);
    expect(second.text).toBe(first.text);
    expect(second.json().displayName).toBe('Version 1');
    expect((await call(a, 'PUT', url, { templateName: 'article', displayName: 'Version 2' })).status).toBe(200);
    const after = await call(b, 'GET', url);
    expect(after.json().displayName).toBe('Version 2');
    expect(after.etag).toBe((await call(a, 'GET', url)).etag);
    expect(after.etag).not.toBe(first.etag);
    // A conditional GET on B with the old ETag gets the new page, with the current one a 304.
    expect((await call(b, 'GET', url, undefined, { 'if-none-match': first.etag! })).status).toBe(200);
    expect((await call(b, 'GET', url, undefined, { 'if-none-match': after.etag! })).status).toBe(304);
    // A delete on A: B answers 404 at once.
    expect((await call(a, 'DELETE', url)).status).toBe(200);
    expect((await call(b, 'GET', url)).status).toBe(404);
  });

  it('a cached page on B is refused at once with a Basic credential whose password A changed', async () => {
    const url = '/cms/rest/pages/by-path/demo/articles/for-carol';
    expect((await call(a, 'PUT', url, { templateName: 'article' })).status).toBe(201);
    expect(
      (await call(a, 'PUT', '/cms/rest/users/carol', { role: 'Viewer', password: 'carol-password-1' })).status,
    ).toBe(201);
    const old = basic('carol', 'carol-password-1');
    // B remembers the credential and caches the page for Viewers.
    const seen = await call(b, 'GET', url, undefined, { authorization: old });
    expect(seen.status).toBe(200);
    expect((await call(b, 'GET', url, undefined, { authorization: old })).text).toBe(seen.text);
    expect(
      (await call(a, 'PUT', '/cms/rest/users/carol', { role: 'Viewer', password: 'carol-password-2' })).status,
    ).toBe(200);
    expect((await call(b, 'GET', url, undefined, { authorization: old })).status).toBe(401);
    const fresh = await call(b, 'GET', url, undefined, { authorization: basic('carol', 'carol-password-2') });
    expect(fresh.status).toBe(200);
    expect(fresh.text).toBe(seen.text);
  });
});

describe.skipIf(!PG_URL)('several server nodes on one PostgreSQL and one S3 bucket (s3rver)', () => {
  let db: TestDatabase;
  let s3: TestS3Server;
  let cluster: Awaited<ReturnType<typeof startNodes>> | undefined;
  let a: ServerNode;
  let b: ServerNode;

  beforeAll(async () => {
    db = await createTestDatabase(PG_URL!);
    s3 = await startTestS3Server(['cluster']);
    const s = s3.settings('cluster', 'folio/');
    cluster = await startNodes(['C', 'D'], {
      DATABASE_URL: db.url,
      CMS_ADMIN_PASSWORD: PASSWORD,
      CMS_SEED: 'false',
      CMS_BLOB_STORE: 's3',
      CMS_S3_BUCKET: s.bucket,
      CMS_S3_ENDPOINT: s.endpoint!,
      CMS_S3_ACCESS_KEY_ID: s.accessKeyId!,
      CMS_S3_SECRET_ACCESS_KEY: s.secretAccessKey!,
      CMS_S3_PREFIX: s.prefix,
      CMS_S3_PART_SIZE_MIB: '5',
    });
    [a, b] = cluster.nodes as [ServerNode, ServerNode];
  }, 180_000);

  afterAll(async () => {
    await cluster?.stop();
    await db?.drop();
    await s3?.close();
  }, 60_000);

  it('an image uploaded through one node is downloaded, with its thumbnail, through the other', async () => {
    const png = await pngOf('purple');
    expect((await upload(a, 'Assets/s3/purple.png', png)).status).toBe(201);
    const viaB = await download(b, 'Assets/s3/purple.png');
    expect(viaB.status).toBe(200);
    expect(sha256(viaB.bytes)).toBe(sha256(png));
    const meta = (await call(b, 'GET', '/cms/rest/assets/by-path/Assets/s3/purple.png')).json();
    expect(meta.image).toMatchObject({ width: 400, height: 200 });
    expect(meta.thumbnail.size).toBeGreaterThan(0);
    const range = await b.fetch('/cms/rest/assets/binary/Assets/s3/purple.png', {
      headers: { authorization: ADMIN, range: 'bytes=0-7' },
    });
    expect(range.status).toBe(206);
    expect(Buffer.from(await range.arrayBuffer()).equals(png.subarray(0, 8))).toBe(true);
    expect((await call(a, 'DELETE', '/cms/rest/assets/by-path/Assets/s3/purple.png')).status).toBe(200);
    expect((await download(b, 'Assets/s3/purple.png')).status).toBe(404);
  });

  it('a large upload streams to S3 in parts and reads back whole through the other node', async () => {
    // Random bytes (not an image): stored as a file asset, in several 5 MiB parts.
    const data = Buffer.alloc(12 * 1024 * 1024);
    for (let i = 0; i < data.length; i += 4096) data.writeUInt32LE((i * 2654435761) >>> 0, i);
    const form = new FormData();
    form.append('path', 'Assets/s3/big.bin');
    form.append('file', new Blob([new Uint8Array(data)]), 'big.bin');
    const res = await a.fetch('/cms/rest/assets/binary/Assets/s3/big.bin', {
      method: 'POST',
      headers: { authorization: ADMIN },
      body: form,
    });
    expect(res.status).toBe(201);
    const viaB = await download(b, 'Assets/s3/big.bin');
    expect(viaB.bytes.length).toBe(data.length);
    expect(sha256(viaB.bytes)).toBe(sha256(data));
  });
});
