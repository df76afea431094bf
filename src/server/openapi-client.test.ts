import fs from 'node:fs/promises';
import createClient from 'openapi-fetch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { paths } from '../generated/openapi-types.js';
import { image } from './modules/assets/assets.fixtures.js';
import { ADMIN, createTestApp, type TestApp } from './test/harness.js';
import { OPENAPI_TYPES_FILE, openApiTypesOf } from './test/openapi-types.js';

/** The generated client (openapi-typescript types, openapi-fetch) against the real server on a free port. */
describe('a client generated from the OpenAPI document', () => {
  let t: TestApp;
  let api: ReturnType<typeof createClient<paths>>;

  beforeAll(async () => {
    t = await createTestApp();
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    api = createClient<paths>({ baseUrl: address, headers: { authorization: ADMIN } });
    const template = await api.PUT('/cms/rest/templates/{name}', {
      params: { path: { name: 'basic' } },
      body: { label: 'Basic', regions: [{ name: 'main', editable: true }] },
    });
    expect(template.response.status).toBe(201);
  });
  afterAll(async () => {
    // fetch keeps its connections open for reuse; a server close would wait for them.
    t.app.server.closeAllConnections();
    await t.close();
  });

  it('is generated from the document the server serves now (npm run openapi:types)', async () => {
    const res = await t.request({ method: 'GET', url: '/cms/rest/openapi.json' });
    const generated = await openApiTypesOf(res.body);
    expect(generated === (await fs.readFile(OPENAPI_TYPES_FILE, 'utf8')), 'run `npm run openapi:types`').toBe(true);
  });

  it('creates, reads, lists and deletes a site, a folder and a page; takes a workflow transition', async () => {
    const site = await api.PUT('/cms/rest/folders/by-path/{path}', {
      params: { path: { path: 'www' } },
      body: { siteName: 'www', sectionInfo: { displayTitle: 'WWW', templateName: 'basic' } },
    });
    expect(site.response.status, JSON.stringify(site.error)).toBe(201);
    const sites = await api.GET('/cms/rest/sites');
    expect(sites.data?.map((s) => s.name)).toEqual(['www']);

    // The client sends the item path as one parameter, its slashes encoded as %2F.
    const folder = await api.PUT('/cms/rest/folders/by-path/{path}', {
      params: { path: { path: 'www/news' } },
      body: { sectionInfo: { displayTitle: 'News' } },
    });
    expect(folder.response.url).toContain('/by-path/www%2Fnews');
    expect(folder.response.status, JSON.stringify(folder.error)).toBe(201);
    const gotFolder = await api.GET('/cms/rest/folders/by-path/{path}', { params: { path: { path: 'www/news' } } });
    expect(gotFolder.data?.sectionInfo?.displayTitle).toBe('News');

    const page = await api.PUT('/cms/rest/pages/by-path/{path}', {
      params: { path: { path: 'www/news/story' } },
      body: { templateName: 'basic', displayName: 'A story', summary: '' },
    });
    expect(page.response.status, JSON.stringify(page.error)).toBe(201);
    const got = await api.GET('/cms/rest/pages/by-path/{path}', { params: { path: { path: 'www/news/story' } } });
    expect(got.data).toMatchObject({ name: 'story', folderPath: 'news', displayName: 'A story', summary: '' });
    const etag = got.response.headers.get('etag')!;

    const transitions = await api.GET('/cms/rest/pages/transitions/{path}', {
      params: { path: { path: 'www/news/story' } },
    });
    const submit = transitions.data?.transitions.find((x) => x.name === 'Submit');
    expect(submit?.to).toBe('Review');
    const moved = await api.PUT('/cms/rest/pages/by-path/{path}', {
      params: { path: { path: 'www/news/story' } },
      headers: { 'if-match': etag },
      body: { templateName: 'basic', workflow: { state: submit!.to } },
    });
    expect(moved.response.status, JSON.stringify(moved.error)).toBe(200);
    expect(moved.data?.workflow.state).toBe('Review');

    const notThere = await api.GET('/cms/rest/pages/by-path/{path}', { params: { path: { path: 'www/news/none' } } });
    expect(notThere.response.status).toBe(404);
    expect(notThere.error?.code).toBe('PAGE_NOT_FOUND');

    const deleted = await api.DELETE('/cms/rest/pages/by-path/{path}', {
      params: { path: { path: 'www/news/story' } },
    });
    expect(deleted.data).toEqual({ message: 'Deleted', trashId: expect.stringMatching(/^\d+$/) });
    const gone = await api.DELETE('/cms/rest/folders/by-path/{path}', {
      params: { path: { path: 'www/news' }, query: { includeSubFolders: 'true' } },
    });
    expect(gone.response.status, JSON.stringify(gone.error)).toBe(200);
    expect(
      (await api.GET('/cms/rest/folders/by-path/{path}', { params: { path: { path: 'www/news' } } })).response.status,
    ).toBe(404);
  });

  it('creates, reads, lists and deletes a non-binary asset', async () => {
    const put = await api.PUT('/cms/rest/assets/by-path/{path}', {
      params: { path: { path: 'Assets/snippets/hello' } },
      body: { type: 'cmsRawHtmlAsset', fields: { html: '<p>Hello</p>' } },
    });
    expect(put.response.status, JSON.stringify(put.error)).toBe(201);
    const got = await api.GET('/cms/rest/assets/by-path/{path}', {
      params: { path: { path: 'Assets/snippets/hello' } },
    });
    expect(got.data?.fields.html).toBe('<p>Hello</p>');
    const list = await api.GET('/cms/rest/assets/list/{path}', { params: { path: { path: 'Assets/snippets' } } });
    expect(list.data?.items.map((a) => a.name)).toEqual(['hello']);
    const deleted = await api.DELETE('/cms/rest/assets/by-path/{path}', {
      params: { path: { path: 'Assets/snippets/hello' } },
    });
    expect(deleted.data).toEqual({ message: 'Deleted', trashId: expect.stringMatching(/^\d+$/) });
  });

  it('uploads a file as a multipart form and downloads it again', async () => {
    const png = await image('png', 16, 16);
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'anything.png');
    const uploaded = await api.POST('/cms/rest/assets/binary/{path}', {
      params: { path: { path: 'Assets/images/dot.png' } },
      body: form as never,
      bodySerializer: (body) => body as unknown as FormData,
    });
    expect(uploaded.response.status, JSON.stringify(uploaded.error)).toBe(201);
    expect(uploaded.data).toMatchObject({ name: 'dot.png', type: 'cmsImageAsset', folderPath: 'Assets/images' });
    const downloaded = await api.GET('/cms/rest/assets/binary/{path}', {
      params: { path: { path: 'Assets/images/dot.png' } },
      parseAs: 'arrayBuffer',
    });
    expect(downloaded.response.status).toBe(200);
    expect(Buffer.from(downloaded.data as ArrayBuffer).equals(png)).toBe(true);
  });
});
