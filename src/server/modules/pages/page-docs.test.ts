import { sql } from 'kysely';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { etagOf } from '../../lib/etag.js';
import { treeRepository } from '../tree/tree.repository.js';
import { assemblePage, docBodyJson, docOf, docWithBody, headJsonOf, trustedDoc } from './page-docs.js';
import { pagesRepository } from './pages.repository.js';

/**
 * The stored page docs (migration 0080) never disagree with the rows they come from: after every kind of write,
 * every doc the server would trust is compared with the page assembled from its rows, on the database the suite
 * runs on (SQLite, and PostgreSQL in the PostgreSQL run).
 */
let t: TestApp;
beforeEach(async () => {
  // The response cache off: what is checked is the docs. (On PostgreSQL a write made here in SQL, not through the
  // API, does not advance the change generation the cache trusts.)
  t = await createTestApp({ CMS_SEED: 'true', CMS_RESPONSE_CACHE: 'off' });
});
afterEach(async () => {
  await t.close();
});

const db = () => t.app.folio.ctx.db;

async function call(method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, payload?: unknown, expected = [200, 201]) {
  const res = await t.request({ method, url, ...(payload === undefined ? {} : { payload: payload as object }) });
  if (!expected.includes(res.statusCode)) throw new Error(`${method} ${url} → ${res.statusCode}: ${res.body}`);
  return res;
}

/** Every page: its id and path segments. */
async function allPages(): Promise<{ id: string; segments: string[] }[]> {
  const rows = await db().selectFrom('nodes').select('id').where('kind', '=', 'page').execute();
  const paths = await treeRepository.pathsOf(
    db(),
    rows.map((r) => r.id),
  );
  return rows.map((r) => ({ id: r.id, segments: paths.get(r.id)! }));
}

/**
 * GETs every page twice, so each has a stored doc (first read) and a stored path (second read) for the next
 * write to make stale (or not).
 */
async function readAll() {
  for (const p of await allPages()) {
    for (let i = 0; i < 2; i++) await call('GET', `/cms/rest/pages/by-path/${p.segments.join('/')}`);
  }
}

/** Stored paths compared by the last expectDocsAgree. */
let paths = 0;

/** Every trusted doc equals the page assembled from its rows; answers how many were compared. */
async function expectDocsAgree(after: string): Promise<number> {
  let compared = 0;
  paths = 0;
  for (const p of await allPages()) {
    const row = (await pagesRepository.findPageDoc(db(), p.id))!;
    const doc = trustedDoc(row);
    if (doc === null) continue;
    const [siteName, ...rest] = p.segments;
    const name = rest.pop()!;
    const assembled = await assemblePage(
      db(),
      { id: p.id, name, siteName: siteName!, folderPath: rest.join('/') },
      row,
    );
    expect(doc, `${after}: the doc of ${p.segments.join('/')}`).toBe(docOf(assembled));
    // A path stored with the doc is where the page is now, with the ETag of its JSON there.
    if (row.doc_path !== null) {
      expect(row.doc_path, `${after}: the stored path of ${p.segments.join('/')}`).toBe(p.segments.join('/'));
      expect(row.doc_etag, `${after}: the stored ETag of ${p.segments.join('/')}`).toBe(
        etagOf(JSON.stringify(assembled)),
      );
      paths++;
    }
    compared++;
  }
  return compared;
}

/** Runs `write` with every doc stored first, then checks every doc still trusted; answers that count. */
async function afterWrite(label: string, write: () => Promise<unknown>): Promise<number> {
  await readAll();
  await write();
  return expectDocsAgree(label);
}

const HOME = '/cms/rest/pages/by-path/demo/index';

describe('stored page docs', () => {
  it('agree with the rows after every kind of write', async () => {
    const pages = (await allPages()).length;
    expect(pages).toBeGreaterThan(3);
    await readAll();
    expect(await expectDocsAgree('reading every page')).toBe(pages);
    expect(paths).toBe(pages);

    // A PUT of fields stores the doc with its path (read in one snapshot with the epoch), so the next GET is one
    // read; so does a PUT with a body on SQLite (one transaction, one snapshot).
    await readAll();
    await call('PUT', HOME, { templateName: 'home', displayName: 'Stored' });
    expect(await expectDocsAgree('a PUT of fields')).toBe(pages);
    const homeId = (await allPages()).find((p) => p.segments.join('/') === 'demo/index')!.id;
    expect((await pagesRepository.findPageDoc(db(), homeId))!.doc_path).toBe('demo/index');

    // The page's own writes: fields, body, template switch, workflow through PUT and in bulk.
    expect(
      await afterWrite('a display name', () => call('PUT', HOME, { templateName: 'home', displayName: 'Hi' })),
    ).toBe(pages);
    await afterWrite('seo, calendar and code', () =>
      call('PUT', HOME, {
        templateName: 'home',
        seo: { browserTitle: 'T', tags: ['a'] },
        calendar: { startDate: '2026-01-01' },
        code: { head: '<meta name="x">' },
      }),
    );
    const home = JSON.parse((await call('GET', HOME)).body) as { body: unknown[] };
    await afterWrite('body regions', () => call('PUT', HOME, { templateName: 'home', body: home.body }));
    await afterWrite('a template switch', () => call('PUT', HOME, { templateName: 'article' }));
    await afterWrite('a workflow move', () =>
      call('PUT', HOME, { templateName: 'article', workflow: { state: 'Review' } }),
    );
    await afterWrite('bulk approve', () => call('POST', '/cms/rest/pages/approve-all/demo'));
    await afterWrite('check-in', () => call('PUT', HOME, { templateName: 'article', workflow: { checkedOut: false } }));

    // The tree around pages: renames and moves of pages and folders, copies.
    // Without a display name of its own (rows from before display names were required), a page shows its name:
    // a rename changes its JSON. Written directly: the API always stores one.
    await afterWrite('a display name cleared', () =>
      sql`update pages set display_name = null
        where node_id = (select id from nodes where name = 'welcome' and kind = 'page')`.execute(db()),
    );
    await afterWrite('a page rename', () =>
      call('POST', '/cms/rest/folders/rename', { path: 'demo/articles/welcome', newName: 'hello' }),
    );
    expect(JSON.parse((await call('GET', '/cms/rest/pages/by-path/demo/articles/hello')).body)).toMatchObject({
      displayName: 'hello',
    });
    await afterWrite('a folder rename', () =>
      call('POST', '/cms/rest/folders/rename', { path: 'demo/about', newName: 'us' }),
    );
    await afterWrite('a page move', () =>
      call('POST', '/cms/rest/folders/move', { itemPath: 'demo/articles/hello', targetFolderPath: 'demo/us' }),
    );
    await afterWrite('a copy', () =>
      call('POST', '/cms/rest/folders/copy', { itemPath: 'demo/articles', targetFolderPath: 'demo/news' }),
    );

    // What pages show of other rows: templates, shared assets, asset folders.
    const article = JSON.parse((await call('GET', '/cms/rest/templates/article')).body) as { regions: unknown[] };
    const extra = {
      name: 'extra',
      editable: false,
      widgets: [{ type: 'cmsTitle', asset: { fields: { heading_level: 'h2' } } }],
    };
    await afterWrite('a template change', () =>
      call('PUT', '/cms/rest/templates/article', { regions: [...article.regions, extra] }),
    );
    await afterWrite('a shared asset edit', () =>
      call('PUT', '/cms/rest/assets/by-path/Assets/snippets/contact', { fields: { text: '<p>Call us</p>' } }),
    );
    await afterWrite('a shared asset rename', () =>
      call('POST', '/cms/rest/folders/rename', { path: 'Assets/snippets/contact', newName: 'contact-us' }),
    );
    await afterWrite('an asset folder rename', () =>
      call('POST', '/cms/rest/folders/rename', { path: 'Assets/snippets', newName: 'bits' }),
    );
    await afterWrite('a shared asset move', () =>
      call('POST', '/cms/rest/folders/move', { itemPath: 'Assets/bits/contact-us', targetFolderPath: 'Assets/images' }),
    );
    await afterWrite('a page delete', () => call('DELETE', '/cms/rest/pages/by-path/demo/news/articles/press-kit'));
  });

  it('answer from a stored path only while the page is at that path', async () => {
    const get = (path: string) => t.request({ method: 'GET', url: `/cms/rest/pages/by-path/${path}` });
    const idOf = async (path: string) => (await allPages()).find((p) => p.segments.join('/') === path)!.id;
    const pathOf = async (id: string) => (await pagesRepository.findPageDoc(db(), id))!.doc_path;
    const read = async (path: string) => {
      for (let i = 0; i < 2; i++) expect((await get(path)).statusCode, path).toBe(200);
    };

    // A page in a section: stored with its path; the section renamed, the old path is gone at once.
    const landing = await idOf('demo/about/team/index');
    await read('demo/about/team/index');
    expect(await pathOf(landing)).toBe('demo/about/team/index');
    await call('POST', '/cms/rest/folders/rename', { path: 'demo/about', newName: 'us' });
    expect((await get('demo/about/team/index')).statusCode).toBe(404);
    await read('demo/us/team/index');
    expect(await pathOf(landing)).toBe('demo/us/team/index');

    // A page moved: its stored path is cleared, the old path is 404.
    const welcome = await idOf('demo/articles/welcome');
    await read('demo/articles/welcome');
    expect(await pathOf(welcome)).toBe('demo/articles/welcome');
    await call('POST', '/cms/rest/folders/move', { itemPath: 'demo/articles/welcome', targetFolderPath: 'demo/us' });
    expect(await pathOf(welcome)).toBeNull();
    expect((await get('demo/articles/welcome')).statusCode).toBe(404);
    await read('demo/us/welcome');

    // A path read before a rename committed is not trusted after it: the store carries the epoch it read.
    const before = (await pagesRepository.docByPath(db(), ['demo', 'us', 'welcome']))!;
    await call('POST', '/cms/rest/folders/rename', { path: 'demo/us', newName: 'about' });
    await pagesRepository.storeDocPath(db(), {
      nodeId: welcome,
      path: 'demo/us/welcome',
      etag: '"x"',
      seq: before.doc_seq!,
      epoch: before.current_epoch,
    });
    expect((await get('demo/us/welcome')).statusCode).toBe(404);
    expect((await get('demo/about/welcome')).statusCode).toBe(200);
  });

  it('is not stored from rows read before a write that changed them', async () => {
    await call('GET', HOME);
    const row = (await pagesRepository.findPageDoc(
      db(),
      (await allPages()).find((p) => p.segments.join('/') === 'demo/index')!.id,
    ))!;
    expect(trustedDoc(row)).not.toBeNull();
    // A write between the read and the store: the store must not happen.
    await call('PUT', HOME, { templateName: 'home', displayName: 'Changed' });
    expect(await pagesRepository.storeDoc(db(), row.node_id, row.doc!, row.current_epoch, row.doc_seq)).toBe(false);
    expect(JSON.parse((await call('GET', HOME)).body)).toMatchObject({ displayName: 'Changed' });
  });

  it('is not trusted once the epoch moved, and a GET answers the rows', async () => {
    await call('GET', HOME);
    await sql`update assets set fields = ${JSON.stringify({ text: '<p>Direct</p>' })}
      where node_id = (select id from nodes where name = 'contact')`.execute(db());
    const page = JSON.parse((await call('GET', HOME)).body) as {
      body: { widgets: { asset: { fields: unknown } }[] }[];
    };
    expect(JSON.stringify(page.body)).toContain('<p>Direct</p>');
  });
});

describe('a stored doc split at its body (a PUT of fields keeps the body unparsed)', () => {
  it('gives the body only when the doc begins with the head its row presents, and joins it back byte for byte', async () => {
    for (const p of await allPages()) {
      await call('GET', `/cms/rest/pages/by-path/${p.segments.join('/')}`);
      const row = (await pagesRepository.findPageDoc(db(), p.id))!;
      const doc = trustedDoc(row)!;
      const name = p.segments[p.segments.length - 1]!;
      const body = docBodyJson(doc, headJsonOf(row, name));
      expect(JSON.parse(body!), p.segments.join('/')).toEqual((JSON.parse(doc) as { body: unknown }).body);
      expect(docWithBody(headJsonOf(row, name), body!)).toBe(doc);
      // A row that no longer presents the doc's head (another name, title or workflow): no body.
      expect(docBodyJson(doc, headJsonOf(row, `${name}-x`))).toBe(row.display_name === null ? null : body);
      expect(docBodyJson(doc, headJsonOf({ ...row, display_name: `${row.display_name ?? ''}!` }, name))).toBeNull();
      expect(docBodyJson(doc, headJsonOf({ ...row, checked_out_user: `${row.checked_out_user}x` }, name))).toBeNull();
    }
  });
});

describe('a shared asset edited', () => {
  const CONTACT = '/cms/rest/assets/by-path/Assets/snippets/contact';
  const linking = async (assetId: string) =>
    (await db().selectFrom('widgets').select('page_id').where('shared_asset_id', '=', assetId).execute()).map(
      (r) => r.page_id,
    );

  it('clears the docs of the pages that link it, and only those', async () => {
    const contact = JSON.parse((await call('GET', CONTACT)).body) as { id: string };
    const using = new Set(await linking(contact.id));
    expect(using.size).toBeGreaterThan(0);
    const pages = (await allPages()).length;
    const trusted = await afterWrite('a shared asset edit', () =>
      call('PUT', CONTACT, { fields: { text: '<p>Call us now</p>' } }),
    );
    // Every other page's doc is still trusted (no epoch moved); the linking pages are assembled afresh.
    expect(trusted).toBe(pages - using.size);
    for (const p of await allPages()) {
      const row = (await pagesRepository.findPageDoc(db(), p.id))!;
      expect(trustedDoc(row) === null, p.segments.join('/')).toBe(using.has(p.id));
    }
    const home = (await call('GET', HOME)).body;
    expect(home).toContain('Call us now');
  });

  it('leaves every page as it was when no page links it', async () => {
    const opening = '/cms/rest/assets/by-path/Assets/snippets/opening-hours';
    const asset = JSON.parse((await call('GET', opening)).body) as { id: string };
    await sql`delete from widgets where shared_asset_id = ${asset.id}`.execute(db());
    await readAll();
    const seqs = async () =>
      (await db().selectFrom('pages').select(['node_id', 'doc_seq']).orderBy('node_id').execute()).map((r) =>
        String(r.doc_seq),
      );
    const before = await seqs();
    const trusted = await afterWrite('an edit of an asset no page links', () =>
      call('PUT', opening, { fields: { text: '<p>Open on Sundays</p>' } }),
    );
    expect(trusted).toBe((await allPages()).length);
    expect(await seqs()).toEqual(before);
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'while a page write links it for the first time, the page ends up showing the fields committed last',
    async () => {
      const url = '/cms/rest/pages/by-path/demo/articles/welcome';
      const page = JSON.parse((await call('GET', url)).body) as {
        id: string;
        templateName: string;
        body: { name: string; editable: boolean }[];
      };
      const contact = JSON.parse((await call('GET', CONTACT)).body) as { id: string };
      expect(await linking(contact.id)).not.toContain(page.id);
      const region = page.body.find((r) => r.editable)!;

      // Another client changes the asset's fields and has not committed yet.
      const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db());
      const other = new pg.Client({
        connectionString: process.env.TEST_DATABASE_URL,
        options: `-c search_path=${rows[0]!.schema}`,
      });
      await other.connect();
      try {
        await other.query('begin');
        await other.query('update assets set fields = $1 where node_id = $2', [
          JSON.stringify({ text: '<p>Changed meanwhile</p>' }),
          contact.id,
        ]);
        let answered = false;
        const put = t
          .request({
            method: 'PUT',
            url,
            payload: {
              templateName: page.templateName,
              body: [
                {
                  name: region.name,
                  widgets: [
                    { type: 'cmsRichText', asset: { name: 'contact', folderPath: 'Assets/snippets', fields: {} } },
                  ],
                },
              ],
            },
          })
          .then((res) => ((answered = true), res));
        // The write waits for the other client (the asset read under a share lock), or, without it, finishes.
        const waiting = async () =>
          (
            await other.query(
              `select count(*)::int as n from pg_stat_activity where application_name = 'folio' and wait_event_type = 'Lock'`,
            )
          ).rows[0].n as number;
        for (let i = 0; i < 1000 && !answered && (await waiting()) === 0; i++) {
          await new Promise((r) => setTimeout(r, 2));
        }
        await other.query('commit');
        const res = await put;
        expect(res.statusCode, res.body).toBe(200);
      } finally {
        await other.end();
      }
      expect((await call('GET', url)).body).toContain('Changed meanwhile');
      await expectDocsAgree('a link made while the asset changed');
    },
  );
});
