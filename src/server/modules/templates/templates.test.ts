import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Template, TemplateList } from '../../../shared/api/templates.js';
import { etagOf } from '../../lib/etag.js';
import { createTestApp, problemOf, type TestApp } from '../../test/harness.js';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});
afterEach(async () => {
  await t.close();
});

const REGIONS = [
  {
    name: 'header',
    editable: false,
    widgets: [{ type: 'cmsTitle', asset: { fields: { heading_level: 'h1' } } }],
  },
  { name: 'main', editable: true },
  { name: 'sidebar', editable: true },
];

function putTemplate(name: string, payload: unknown, headers: Record<string, string> = {}) {
  return t.request({
    method: 'PUT',
    url: `/cms/rest/templates/${encodeURIComponent(name)}`,
    payload: payload as object,
    headers,
  });
}
const getTemplate = (name: string, headers: Record<string, string> = {}) =>
  t.request({ method: 'GET', url: `/cms/rest/templates/${encodeURIComponent(name)}`, headers });

async function createSite(name: string) {
  const now = new Date().toISOString();
  await t.app.folio.ctx.db
    .insertInto('nodes')
    .values({
      id: `9-9-${Math.floor(Math.random() * 1e9)}`,
      parent_id: '0-0-1',
      kind: 'site',
      name,
      sort_order: 0,
      access_level: null,
      workflow: null,
      display_title: name,
      target_window: '_self',
      nav_class: '',
      template_name: null,
      external_url: null,
      link_target_id: null,
      landing_page_id: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
}

describe('templates', () => {
  it('rejects unauthenticated', async () => {
    for (const [method, url] of [
      ['GET', '/cms/rest/templates'],
      ['GET', '/cms/rest/templates/basic'],
      ['PUT', '/cms/rest/templates/basic'],
      ['DELETE', '/cms/rest/templates/basic'],
    ] as const) {
      const res = await t.request({
        method,
        url,
        headers: { authorization: '' },
        payload: method === 'PUT' ? {} : undefined,
      });
      expect(res.statusCode, `${method} ${url}`).toBe(401);
      expect(problemOf(res).code).toBe('UNAUTHENTICATED');
    }
  });

  it('rejects an invalid body, naming each problem, and creates nothing', async () => {
    const cases: [unknown, string][] = [
      [{ regions: [{ name: 'main', editable: 'yes' }] }, 'body.regions.0.editable'],
      [
        {
          regions: [
            { name: 'main', editable: true },
            { name: 'main', editable: false },
          ],
        },
        'body.regions.1.name',
      ],
      [{ regions: [{ name: 'bad name!', editable: true }] }, 'body.regions.0.name'],
      [{ regions: [] }, 'body.regions'],
      [{ regions: [{ name: 'main', editable: true, widgets: [{ type: 'cmsTitle' }] }] }, 'body.regions.0.widgets'],
      [{ regions: [{ name: 'h', editable: false, widgets: [{ type: 'cmsNope' }] }] }, 'body.regions.0.widgets.0.type'],
      [
        { regions: [{ name: 'h', editable: false, widgets: [{ type: 'cmsTitle', editable: true }] }] },
        'body.regions.0.widgets.0.editable',
      ],
      [
        {
          regions: [
            { name: 'h', editable: false, widgets: [{ type: 'cmsTitle', asset: { fields: { heading_level: 'h9' } } }] },
          ],
        },
        'body.regions.0.widgets.0.asset.fields.heading_level',
      ],
      [
        {
          regions: [
            { name: 'h', editable: false, widgets: [{ type: 'cmsRichText', asset: { fields: { nope: 'x' } } }] },
          ],
        },
        'body.regions.0.widgets.0.asset.fields.nope',
      ],
    ];
    for (const [payload, path] of cases) {
      const res = await putTemplate('basic', payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(
        problemOf(res).errors?.map((e) => e.path),
        JSON.stringify(payload),
      ).toContain(path);
    }
    const missing = await putTemplate('basic', { label: 'Basic' });
    expect(missing.statusCode).toBe(400);
    expect(problemOf(missing).errors?.[0]?.path).toBe('body.regions');
    expect((await getTemplate('basic')).statusCode).toBe(404);
    expect((await t.request({ method: 'GET', url: '/cms/rest/templates' })).json()).toEqual([]);
  });

  it('creates a template, lists it and reads it with a strong ETag', async () => {
    const res = await putTemplate('Two column', {
      label: 'Two columns',
      description: 'Main and sidebar',
      regions: REGIONS,
    });
    expect(res.statusCode).toBe(201);
    const created = Template.parse(res.json());
    expect(created).toEqual({
      name: 'Two column',
      label: 'Two columns',
      description: 'Main and sidebar',
      regions: [
        {
          name: 'header',
          editable: false,
          widgets: [
            { type: 'cmsTitle', scope: 'template', editable: false, asset: { fields: { heading_level: 'h1' } } },
          ],
        },
        { name: 'main', editable: true, widgets: [] },
        { name: 'sidebar', editable: true, widgets: [] },
      ],
    });
    const got = await getTemplate('Two column');
    expect(got.statusCode).toBe(200);
    expect(got.json()).toEqual(created);
    expect(got.headers.etag).toBe(etagOf(got.body));
    expect(res.headers.etag).toBe(got.headers.etag);

    await putTemplate('article', { regions: [{ name: 'main', editable: true }] });
    const list = await t.request({ method: 'GET', url: '/cms/rest/templates' });
    expect(TemplateList.parse(list.json())).toEqual([
      {
        name: 'Two column',
        label: 'Two columns',
        description: 'Main and sidebar',
        regions: [
          { name: 'header', editable: false },
          { name: 'main', editable: true },
          { name: 'sidebar', editable: true },
        ],
      },
      { name: 'article', label: 'article', description: '', regions: [{ name: 'main', editable: true }] },
    ]);
  });

  it('updates only the fields sent, honouring If-Match', async () => {
    await putTemplate('basic', { label: 'Basic', regions: REGIONS });
    const etag = (await getTemplate('basic')).headers.etag as string;
    const upd = await putTemplate('basic', { description: 'Now described' }, { 'if-match': etag });
    expect(upd.statusCode).toBe(200);
    expect(upd.json()).toMatchObject({ label: 'Basic', description: 'Now described' });
    expect(upd.json().regions).toHaveLength(3);

    const stale = await putTemplate('basic', { label: 'Lost' }, { 'if-match': etag });
    expect(stale.statusCode).toBe(412);
    expect(problemOf(stale).code).toBe('PRECONDITION_FAILED');
    const staleDelete = await t.request({
      method: 'DELETE',
      url: '/cms/rest/templates/basic',
      headers: { 'if-match': etag },
    });
    expect(staleDelete.statusCode).toBe(412);
    expect((await getTemplate('basic')).json().label).toBe('Basic');

    const mismatch = await putTemplate('basic', { name: 'other', label: 'X' });
    expect(mismatch.statusCode).toBe(409);
    expect(problemOf(mismatch).code).toBe('LOCATION_MISMATCH');
    expect((await getTemplate('basic')).json().label).toBe('Basic');
  });

  it('lets everyone read templates but only admins change them', async () => {
    await putTemplate('basic', { regions: REGIONS });
    for (const role of ['Viewer', 'Contributor', 'Editor'] as const) {
      const auth = await t.createUser(role.toLowerCase(), role);
      expect(
        (await t.request({ method: 'GET', url: '/cms/rest/templates', headers: { authorization: auth } })).statusCode,
      ).toBe(200);
      expect((await getTemplate('basic', { authorization: auth })).statusCode).toBe(200);
      const put = await putTemplate('basic', { label: 'Mine' }, { authorization: auth });
      expect(put.statusCode).toBe(403);
      expect(problemOf(put).code).toBe('NOT_AUTHORIZED');
      const del = await t.request({
        method: 'DELETE',
        url: '/cms/rest/templates/basic',
        headers: { authorization: auth },
      });
      expect(del.statusCode).toBe(403);
    }
    expect((await getTemplate('basic')).json().label).toBe('basic');
  });

  it('deletes an unused template and refuses one that pages use', async () => {
    await putTemplate('basic', { regions: REGIONS });
    await putTemplate('spare', { regions: REGIONS });
    await createSite('site');
    const page = await t.request({
      method: 'PUT',
      url: '/cms/rest/pages/by-path/site/home',
      payload: { templateName: 'basic' },
    });
    expect(page.statusCode).toBe(201);

    const used = await t.request({ method: 'DELETE', url: '/cms/rest/templates/basic' });
    expect(used.statusCode).toBe(409);
    expect(problemOf(used)).toMatchObject({ code: 'TEMPLATE_IN_USE', pages: 1 });
    expect((await getTemplate('basic')).statusCode).toBe(200);

    const del = await t.request({ method: 'DELETE', url: '/cms/rest/templates/spare' });
    expect(del.statusCode).toBe(200);
    expect(del.json()).toEqual({ message: 'Deleted' });
    expect(problemOf(await getTemplate('spare')).code).toBe('TEMPLATE_NOT_FOUND');
    const again = await t.request({ method: 'DELETE', url: '/cms/rest/templates/spare' });
    expect(again.statusCode).toBe(404);

    // Once the page is gone for good the template can go (a page in the trash still uses it).
    const trashed = await t.request({ method: 'DELETE', url: '/cms/rest/pages/by-path/site/home' });
    expect((await t.request({ method: 'DELETE', url: '/cms/rest/templates/basic' })).statusCode).toBe(409);
    await t.request({ method: 'DELETE', url: `/cms/rest/trash/${trashed.json().trashId}` });
    expect((await t.request({ method: 'DELETE', url: '/cms/rest/templates/basic' })).statusCode).toBe(200);
  });

  it('refuses to drop a region that pages fill, and allows dropping empty ones', async () => {
    await putTemplate('basic', { regions: REGIONS });
    await createSite('site');
    const page = await t.request({
      method: 'PUT',
      url: '/cms/rest/pages/by-path/site/home',
      payload: {
        templateName: 'basic',
        body: [
          { name: 'main', type: 'PAGE', widgets: [{ type: 'cmsRichText', asset: { fields: { text: '<p>Hi</p>' } } }] },
        ],
      },
    });
    expect(page.statusCode).toBe(201);

    const withoutMain = [REGIONS[0], REGIONS[2]];
    const refused = await putTemplate('basic', { regions: withoutMain });
    expect(refused.statusCode).toBe(409);
    expect(problemOf(refused)).toMatchObject({ code: 'TEMPLATE_IN_USE', regions: [{ region: 'main', pages: 1 }] });
    const lockedMain = await putTemplate('basic', {
      regions: [REGIONS[0], { name: 'main', editable: false }, REGIONS[2]],
    });
    expect(lockedMain.statusCode).toBe(409);
    expect((await getTemplate('basic')).json().regions.map((r: { name: string }) => r.name)).toEqual([
      'header',
      'main',
      'sidebar',
    ]);

    const withoutSidebar = await putTemplate('basic', { regions: [REGIONS[1], REGIONS[0]] });
    expect(withoutSidebar.statusCode).toBe(200);
    const home = await t.request({ method: 'GET', url: '/cms/rest/pages/by-path/site/home' });
    expect(home.json().body.map((r: { name: string; type: string }) => `${r.name}:${r.type}`)).toEqual([
      'main:PAGE',
      'header:TEMPLATE',
    ]);
  });
});
