import type { InjectOptions } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AssetBulkResult, AssetUsage } from '../../../shared/api/assets.js';
import { TransitionsResponse } from '../../../shared/api/workflow.js';
import { createTestApp, problemOf, type TestApp } from '../../test/harness.js';
import { MAX_JOINED_DEPTH } from '../tree/tree.repository.js';
import { findAsset } from './assets.common.js';
import { assetCount, blobKeys, image, linkAssetFromPage, metadataOf, pdf, upload } from './assets.fixtures.js';
import { representAsset } from './assets.presenter.js';
import { assetsRepository } from './assets.repository.js';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});
afterEach(async () => {
  await t.close();
});

const META = '/cms/rest/assets/by-path';
const req = (method: InjectOptions['method'], url: string, payload?: unknown, headers: Record<string, string> = {}) =>
  t.request({ method, url, headers, ...(payload !== undefined ? { payload: payload as object } : {}) });
const read = async (path: string) => metadataOf(await req('GET', `${META}/${path}`));

/** An uploaded image at `path` (the common subject of these tests). */
async function createImage(path = 'Assets/images/logo.png') {
  const res = await upload(t, path, await image('png', 120, 80));
  expect(res.statusCode).toBe(201);
  return metadataOf(res);
}

/** A rich text asset created with PUT. */
async function createText(path: string, text = '<p>Hello</p>', headers: Record<string, string> = {}) {
  const res = await req('PUT', `${META}/${path}`, { type: 'cmsRichTextAsset', fields: { text } }, headers);
  expect(res.statusCode, res.body).toBe(201);
  return metadataOf(res);
}

const linkFromPage = (assetId: string, site: string, page: string, region?: string) =>
  linkAssetFromPage(t, assetId, site, page, region);

async function widgetCount(): Promise<number> {
  const r = await t.app.folio.ctx.db
    .selectFrom('widgets')
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

describe('asset metadata: guards', () => {
  it('rejects unauthenticated', async () => {
    await createImage();
    const none = { authorization: '' };
    for (const [method, url] of [
      ['GET', `${META}/Assets/images/logo.png`],
      ['PUT', `${META}/Assets/images/logo.png`],
      ['DELETE', `${META}/Assets/images/logo.png`],
      ['GET', '/cms/rest/assets/usage/Assets/images/logo.png'],
      ['GET', '/cms/rest/assets/transitions/Assets/images/logo.png'],
      ['GET', '/cms/rest/assets/list/Assets/images'],
      ['POST', '/cms/rest/assets/approve-all/Assets/images'],
    ] as const) {
      const res = await req(method, url, method === 'PUT' ? { fields: {} } : undefined, none);
      expect(res.statusCode, `${method} ${url}`).toBe(401);
      expect(problemOf(res).code).toBe('UNAUTHENTICATED');
    }
    expect((await read('Assets/images/logo.png')).fields.alttext).toBeNull();
  });

  it('rejects an invalid body and changes nothing', async () => {
    const before = await createImage();
    for (const body of [
      [1, 2],
      { fields: 'x' },
      { fields: { alttext: 'x' }, unknownMember: true },
      { workflow: { state: 'Published' } },
      { type: 7 },
    ]) {
      const res = await req('PUT', `${META}/Assets/images/logo.png`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(['INVALID_BODY', 'INVALID_JSON']).toContain(problemOf(res).code);
    }
    const broken = await t.request({
      method: 'PUT',
      url: `${META}/Assets/images/logo.png`,
      payload: '{"fields": {',
      headers: { 'content-type': 'application/json' },
    });
    expect(problemOf(broken).code).toBe('INVALID_JSON');
    const scalar = await t.request({
      method: 'PUT',
      url: `${META}/Assets/images/logo.png`,
      payload: '"text"',
      headers: { 'content-type': 'application/json' },
    });
    expect(problemOf(scalar).code).toBe('INVALID_BODY');
    expect(await read('Assets/images/logo.png')).toEqual(before);
  });

  it('answers 404 for what is not there and 400 for paths outside the library', async () => {
    await createImage();
    for (const url of [`${META}/Assets/images/nope.png`, `${META}/Assets/images`, `${META}/Assets/other/logo.png`]) {
      const res = await req('GET', url);
      expect(res.statusCode, url).toBe(404);
      expect(problemOf(res).code).toBe('ASSET_NOT_FOUND');
    }
    expect((await req('DELETE', `${META}/Assets/images/nope.png`)).statusCode).toBe(404);
    expect((await req('PUT', `${META}/Sites/x`, { fields: {} })).statusCode).toBe(400);
  });
});

describe('asset metadata: read and update', () => {
  it('answers the metadata of 2.7 with a strong, stable ETag', async () => {
    const created = await createImage();
    const res = await req('GET', `${META}/Assets/images/logo.png`);
    expect(res.statusCode).toBe(200);
    expect(res.headers.etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect((await req('GET', `${META}/Assets/images/logo.png`)).headers.etag).toBe(res.headers.etag);
    const meta = metadataOf(res);
    expect(meta).toEqual(created);
    expect(Object.keys(meta).sort()).toEqual(
      [
        'createdDate',
        'fields',
        'folderPath',
        'id',
        'image',
        'lastModifiedDate',
        'name',
        'thumbnail',
        'type',
        'workflow',
      ].sort(),
    );
    expect(meta.id).toMatch(/^\d+-\d+-\d+$/);
    expect(meta.lastModifiedDate).toBe(meta.createdDate);
  });

  it('reads an asset at every depth, in one statement up to the joined depth and by the walk beyond, the same JSON', async () => {
    const db = t.app.folio.ctx.db;
    const folders: string[] = [];
    for (let depth = 2; depth <= MAX_JOINED_DEPTH + 3; depth++) {
      const path = ['Assets', ...folders, `note-${depth}`];
      const created = await createText(path.join('/'), `<p>${depth}</p>`);
      const res = await req('GET', `${META}/${path.join('/')}`);
      expect(res.statusCode, path.join('/')).toBe(200);
      // The general way (the walk, then the row by id) presents the same bytes.
      const { row } = await findAsset(db, path);
      expect(res.body, path.join('/')).toBe(representAsset(row, path.slice(0, -1)).json);
      expect(metadataOf(res)).toEqual(created);
      const joined = await assetsRepository.findByPath(db, path);
      if (depth <= MAX_JOINED_DEPTH) expect(joined, path.join('/')).toEqual(row);
      else expect(joined).toBeUndefined();
      // A folder on the way, or a path that goes on past the asset, is no asset.
      expect((await req('GET', `${META}/${path.slice(0, -1).join('/')}`)).statusCode).toBe(404);
      expect((await req('GET', `${META}/${path.join('/')}/more`)).statusCode).toBe(404);
      folders.push(`f${depth}`);
    }
    // A rename of a folder on the way is seen at once (nothing of the path is kept).
    await db.updateTable('nodes').set({ name: 'renamed' }).where('name', '=', 'f2').execute();
    expect((await req('GET', `${META}/Assets/f2/note-3`)).statusCode).toBe(404);
    expect(metadataOf(await req('GET', `${META}/Assets/renamed/note-3`)).folderPath).toBe('Assets/renamed');
  });

  it('changes only the fields sent, ignores read-only members, and moves lastModifiedDate', async () => {
    const before = await createImage();
    const etagBefore = (await req('GET', `${META}/Assets/images/logo.png`)).headers.etag;
    t.advance(60_000);
    const res = await req('PUT', `${META}/Assets/images/logo.png`, {
      fields: { alttext: 'The Folio logo', resource_link_title: 'Logo' },
      image: { width: 1 },
      thumbnail: null,
      createdDate: 'yesterday',
    });
    expect(res.statusCode).toBe(200);
    const after = metadataOf(res);
    expect(after.fields).toEqual({
      displaytitle: 'logo.png',
      resource_link_title: 'Logo',
      filename: 'logo.png',
      alttext: 'The Folio logo',
    });
    expect(after.image).toEqual(before.image);
    expect(after.createdDate).toBe(before.createdDate);
    expect(after.lastModifiedDate > before.lastModifiedDate).toBe(true);
    expect(res.headers.etag).not.toBe(etagBefore);
    expect((await req('GET', `${META}/Assets/images/logo.png`)).headers.etag).toBe(res.headers.etag);

    const unset = metadataOf(
      await req('PUT', `${META}/Assets/images/logo.png`, { fields: { resource_link_title: null, displaytitle: '' } }),
    );
    expect(unset.fields).toMatchObject({ resource_link_title: null, displaytitle: '', alttext: 'The Folio logo' });
  });

  it('answers a PUT with exactly what the next GET answers (JSON and ETag), changed or not', async () => {
    await createText('Assets/texts/hello');
    const url = `${META}/Assets/texts/hello`;
    for (const [n, payload] of [
      { fields: { text: '<p>Changed</p>' } },
      { fields: { text: '<p>Changed</p>' } },
      { workflow: { state: 'Public' } },
      { fields: { text: '<p>Quick edit</p>' } },
      { fields: { text: '<p>Again</p>' }, workflow: { state: 'Public' } },
      {},
    ].entries()) {
      // Read first, so the asset has a stored doc (and a stored ETag) for the PUT to make stale.
      await req('GET', url);
      const put = await req('PUT', url, payload);
      expect(put.statusCode, `${n}: ${put.body}`).toBe(200);
      const get = await req('GET', url);
      expect(put.body, `${n}: ${JSON.stringify(payload)}`).toBe(get.body);
      expect(put.headers.etag).toBe(get.headers.etag);
      expect((await req('GET', url)).body).toBe(get.body);
    }
    expect((await read('Assets/texts/hello')).workflow.state).toBe('Public');
  });

  it('accepts back what it sent (GET → PUT) without changing anything, also wrapped as {"Asset": …}', async () => {
    await createImage();
    const res = await req('GET', `${META}/Assets/images/logo.png`);
    t.advance(60_000);
    const put = await req('PUT', `${META}/Assets/images/logo.png`, res.json());
    expect(put.statusCode).toBe(200);
    expect(put.headers.etag).toBe(res.headers.etag);
    const wrapped = await req('PUT', `${META}/Assets/images/logo.png`, { Asset: { fields: { alttext: 'wrapped' } } });
    expect(metadataOf(wrapped).fields.alttext).toBe('wrapped');
  });

  it('refuses id, name, folderPath that differ from the URL and a type change (409), an unknown field (400)', async () => {
    const before = await createImage();
    const cases: [unknown, number, string][] = [
      [{ id: '1-2-3', fields: { alttext: 'x' } }, 409, 'ID_MISMATCH'],
      [{ name: 'other.png' }, 409, 'LOCATION_MISMATCH'],
      [{ folderPath: 'Assets/elsewhere' }, 409, 'LOCATION_MISMATCH'],
      [{ type: 'cmsFileAsset' }, 409, 'TYPE_MISMATCH'],
      [{ type: 'cmsNoSuchAsset' }, 400, 'INVALID_BODY'],
      [{ fields: { caption: 'x' } }, 400, 'INVALID_BODY'],
      [{ fields: { alttext: 42 } }, 400, 'INVALID_BODY'],
    ];
    for (const [body, status, code] of cases) {
      const res = await req('PUT', `${META}/Assets/images/logo.png`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(status);
      expect(problemOf(res).code).toBe(code);
    }
    const unknown = problemOf(await req('PUT', `${META}/Assets/images/logo.png`, { fields: { caption: 'x' } }));
    expect(unknown.errors).toEqual([{ path: 'fields.caption', message: 'is not a field of this type' }]);
    const ok = await req('PUT', `${META}/Assets/images/logo.png`, {
      id: before.id,
      name: 'logo.png',
      folderPath: 'Assets/images',
      type: 'cmsImageAsset',
      fields: { alttext: 'ok' },
    });
    expect(ok.statusCode).toBe(200);
  });

  it('honours If-Match on PUT and DELETE (412 when stale)', async () => {
    await createImage();
    const etag = (await req('GET', `${META}/Assets/images/logo.png`)).headers.etag!;
    const first = await req(
      'PUT',
      `${META}/Assets/images/logo.png`,
      { fields: { alttext: 'one' } },
      { 'if-match': etag },
    );
    expect(first.statusCode).toBe(200);
    const stale = await req(
      'PUT',
      `${META}/Assets/images/logo.png`,
      { fields: { alttext: 'two' } },
      { 'if-match': etag },
    );
    expect(stale.statusCode).toBe(412);
    expect(problemOf(stale).code).toBe('PRECONDITION_FAILED');
    expect((await read('Assets/images/logo.png')).fields.alttext).toBe('one');
    expect((await req('DELETE', `${META}/Assets/images/logo.png`, undefined, { 'if-match': etag })).statusCode).toBe(
      412,
    );
    const creating = await req(
      'PUT',
      `${META}/Assets/t/new`,
      { type: 'cmsRawHtmlAsset', fields: { html: 'x' } },
      { 'if-match': etag },
    );
    expect(creating.statusCode).toBe(412);
    const star = await req(
      'PUT',
      `${META}/Assets/images/logo.png`,
      { fields: { alttext: 'three' } },
      { 'if-match': '*' },
    );
    expect(star.statusCode).toBe(200);
    const current = star.headers.etag!;
    expect((await req('DELETE', `${META}/Assets/images/logo.png`, undefined, { 'if-match': current })).statusCode).toBe(
      200,
    );
  });

  it('lets viewers read only, and caps writers by the folder access level', async () => {
    await createImage();
    const vera = await t.createUser('vera', 'Viewer');
    const carl = await t.createUser('carl', 'Contributor');
    expect((await req('GET', `${META}/Assets/images/logo.png`, undefined, { authorization: vera })).statusCode).toBe(
      200,
    );
    for (const [method, body] of [
      ['PUT', { fields: { alttext: 'x' } }],
      ['DELETE', undefined],
    ] as const) {
      const res = await req(method, `${META}/Assets/images/logo.png`, body, { authorization: vera });
      expect(res.statusCode).toBe(403);
    }
    expect(
      (await req('PUT', `${META}/Assets/images/logo.png`, { fields: { alttext: 'c' } }, { authorization: carl }))
        .statusCode,
    ).toBe(200);
    await t.app.folio.ctx.db.updateTable('nodes').set({ access_level: 'READ' }).where('name', '=', 'images').execute();
    const capped = await req(
      'PUT',
      `${META}/Assets/images/logo.png`,
      { fields: { alttext: 'd' } },
      { authorization: carl },
    );
    expect(capped.statusCode).toBe(403);
    const create = await req(
      'PUT',
      `${META}/Assets/images/sub/t`,
      { type: 'cmsRawHtmlAsset', fields: { html: 'x' } },
      { authorization: carl },
    );
    expect(create.statusCode).toBe(403);
    expect((await read('Assets/images/logo.png')).fields.alttext).toBe('c');
  });
});

describe('asset workflow', () => {
  it('moves by the Default Workflow: Public from Draft, Quick Edit on a change of a Public asset', async () => {
    await createImage();
    const pub = metadataOf(await req('PUT', `${META}/Assets/images/logo.png`, { workflow: { state: 'Public' } }));
    expect(pub.workflow).toEqual({
      name: 'Default Workflow',
      state: 'Public',
      checkedOut: false,
      checkedOutUser: '',
      rejection: null,
    });
    const edited = metadataOf(await req('PUT', `${META}/Assets/images/logo.png`, { fields: { alttext: 'new' } }));
    expect(edited.workflow).toMatchObject({ state: 'Quick Edit', checkedOut: false, checkedOutUser: '' });
    const republished = metadataOf(
      await req('PUT', `${META}/Assets/images/logo.png`, {
        fields: { alttext: 'newer' },
        workflow: { state: 'Public' },
      }),
    );
    expect(republished.workflow).toMatchObject({ state: 'Public', checkedOut: false });
    const archived = metadataOf(await req('PUT', `${META}/Assets/images/logo.png`, { workflow: { state: 'Archive' } }));
    expect(archived.workflow.state).toBe('Archive');
  });

  it('refuses a move the role may not make (409 naming the reachable states)', async () => {
    await createImage();
    const carl = await t.createUser('carl', 'Contributor');
    const res = await req(
      'PUT',
      `${META}/Assets/images/logo.png`,
      { workflow: { state: 'Public' } },
      { authorization: carl },
    );
    expect(res.statusCode).toBe(409);
    expect(problemOf(res).code).toBe('INVALID_TRANSITION');
    expect(res.json().allowedStates).toEqual(['Review']);
    const review = await req(
      'PUT',
      `${META}/Assets/images/logo.png`,
      { workflow: { state: 'Review' } },
      { authorization: carl },
    );
    expect(metadataOf(review).workflow.state).toBe('Review');
  });

  it('lists the transitions the caller may take now', async () => {
    await createImage();
    const carl = await t.createUser('carl', 'Contributor');
    const vera = await t.createUser('vera', 'Viewer');
    const url = '/cms/rest/assets/transitions/Assets/images/logo.png';
    const admin = TransitionsResponse.parse((await req('GET', url)).json());
    expect(admin).toEqual({
      state: 'Draft',
      transitions: [
        { name: 'Submit', to: 'Review' },
        { name: 'Approve', to: 'Public' },
      ],
    });
    expect((await req('GET', url, undefined, { authorization: carl })).json().transitions).toEqual([
      { name: 'Submit', to: 'Review' },
    ]);
    expect((await req('GET', url, undefined, { authorization: vera })).json().transitions).toEqual([]);
    expect((await req('GET', '/cms/rest/assets/transitions/Assets/images/none')).statusCode).toBe(404);
  });

  it('approves, submits and archives every asset of a folder tree, skipping what does not apply', async () => {
    await createImage('Assets/b/one.png');
    await createText('Assets/b/two');
    await createText('Assets/b/sub/three');
    await createText('Assets/b/sub/four');
    await createText('Assets/other/five');
    await req('PUT', `${META}/Assets/b/sub/four`, { workflow: { state: 'Archive' } });
    const bulk = (action: string, path: string, auth?: string) =>
      req('POST', `/cms/rest/assets/${action}/${path}`, undefined, auth ? { authorization: auth } : {});
    const states = async () =>
      Object.fromEntries(
        await Promise.all(
          ['Assets/b/one.png', 'Assets/b/two', 'Assets/b/sub/three', 'Assets/b/sub/four', 'Assets/other/five'].map(
            async (p) => [p, (await read(p)).workflow.state] as const,
          ),
        ),
      );

    const submitted = AssetBulkResult.parse((await bulk('submit-all', 'Assets/b')).json());
    expect(submitted).toEqual({ message: 'Submitted 3 assets', changed: 3, skipped: 1 });
    const approved = AssetBulkResult.parse((await bulk('approve-all', 'Assets/b')).json());
    expect(approved).toEqual({ message: 'Approved 3 assets', changed: 3, skipped: 1 });
    expect(await states()).toEqual({
      'Assets/b/one.png': 'Public',
      'Assets/b/two': 'Public',
      'Assets/b/sub/three': 'Public',
      'Assets/b/sub/four': 'Archive',
      'Assets/other/five': 'Draft',
    });
    expect((await read('Assets/b/two')).workflow.checkedOut).toBe(false);
    expect((await bulk('archive-all', 'Assets/b/sub')).json()).toMatchObject({ changed: 1, skipped: 1 });
    expect((await bulk('approve-all', 'Assets')).json()).toMatchObject({ message: 'Approved 1 asset', changed: 1 });
    expect((await read('Assets/other/five')).workflow.state).toBe('Public');
  });

  it('refuses bulk actions the role may not take, missing folders, and skips read-only folders', async () => {
    await createText('Assets/open/a');
    await createText('Assets/open/locked/b');
    await t.app.folio.ctx.db.updateTable('nodes').set({ access_level: 'READ' }).where('name', '=', 'locked').execute();
    const carl = await t.createUser('carl', 'Contributor');
    const eddie = await t.createUser('eddie', 'Editor');
    const bulk = (action: string, path: string, auth?: string) =>
      req('POST', `/cms/rest/assets/${action}/${path}`, undefined, auth ? { authorization: auth } : {});
    expect(problemOf(await bulk('approve-all', 'Assets/open', carl)).code).toBe('NOT_AUTHORIZED');
    expect(problemOf(await bulk('approve-all', 'Assets/nope')).code).toBe('FOLDER_NOT_FOUND');
    expect(problemOf(await bulk('approve-all', 'Assets/open/a')).code).toBe('FOLDER_NOT_FOUND');
    expect((await bulk('approve-all', 'Assets/open/locked', eddie)).statusCode).toBe(403);
    expect((await bulk('approve-all', 'Assets/open', eddie)).json()).toMatchObject({ changed: 1, skipped: 1 });
    expect((await read('Assets/open/locked/b')).workflow.state).toBe('Draft');
    expect((await bulk('submit-all', 'Assets/open', carl)).json()).toMatchObject({ changed: 0 });
  });
});

describe('asset delete and where-used', () => {
  it('deletes the asset, its file and its thumbnail (to the trash; for good with purge=true)', async () => {
    await createImage();
    await upload(t, 'Assets/images/doc.pdf', pdf());
    expect(await blobKeys(t)).toHaveLength(3);
    const res = await req('DELETE', `${META}/Assets/images/doc.pdf`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Deleted', trashId: expect.any(String) });
    // In the trash, its file stays until it is purged.
    expect(await blobKeys(t)).toHaveLength(3);
    const purged = await req('DELETE', `${META}/Assets/images/logo.png?purge=true`);
    expect(purged.statusCode).toBe(200);
    expect(await blobKeys(t)).toHaveLength(1);
    expect((await req('GET', `${META}/Assets/images/logo.png`)).statusCode).toBe(404);
    expect((await req('GET', '/cms/rest/assets/binary/Assets/images/logo.png')).statusCode).toBe(404);
    expect((await req('GET', '/cms/rest/assets/binary/Assets/images/thumb_logo.png')).statusCode).toBe(404);
    // Delete, then upload: the way to replace a file.
    expect((await upload(t, 'Assets/images/logo.png', await image('png', 10, 10))).statusCode).toBe(201);
  });

  it('lists the pages using an asset, refuses to delete it (409 ASSET_IN_USE) unless forced, then unlinks them', async () => {
    const asset = await createImage();
    const other = await createImage('Assets/images/other.png');
    await linkFromPage(asset.id, 'site', 'home', 'main');
    await linkFromPage(asset.id, 'site', 'home', 'aside');
    await linkFromPage(asset.id, 'blog', 'post');
    await linkFromPage(other.id, 'blog', 'post');

    const usage = AssetUsage.parse((await req('GET', '/cms/rest/assets/usage/Assets/images/logo.png')).json());
    expect(usage).toEqual({
      asset: 'Assets/images/logo.png',
      usedBy: [
        {
          path: 'blog/post',
          displayName: 'The post page',
          region: 'main',
          state: 'Draft',
          href: '/cms/rest/pages/by-path/blog/post',
        },
        {
          path: 'site/home',
          displayName: 'The home page',
          region: 'aside',
          state: 'Draft',
          href: '/cms/rest/pages/by-path/site/home',
        },
        {
          path: 'site/home',
          displayName: 'The home page',
          region: 'main',
          state: 'Draft',
          href: '/cms/rest/pages/by-path/site/home',
        },
      ],
    });

    const refused = await req('DELETE', `${META}/Assets/images/logo.png`);
    expect(refused.statusCode).toBe(409);
    expect(problemOf(refused).code).toBe('ASSET_IN_USE');
    expect(refused.json().usedBy).toEqual(usage.usedBy);
    expect(await assetCount(t)).toBe(2);
    expect(await widgetCount()).toBe(4);

    const forced = await req('DELETE', `${META}/Assets/images/logo.png?force=true&purge=true`);
    expect(forced.statusCode).toBe(200);
    expect(await widgetCount()).toBe(1);
    expect(await assetCount(t)).toBe(1);
    const left = AssetUsage.parse((await req('GET', '/cms/rest/assets/usage/Assets/images/other.png')).json());
    expect(left.usedBy.map((u) => u.path)).toEqual(['blog/post']);
    expect((await req('GET', '/cms/rest/assets/usage/Assets/images/logo.png')).statusCode).toBe(404);
  });
});
