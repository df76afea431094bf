import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Template, TemplateUsage } from '../../../shared/api/templates.js';
import { createTestApp, problemOf, type TestApp } from '../../test/harness.js';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});
afterEach(async () => {
  await t.close();
});

const putTemplate = (name: string, payload: object, headers: Record<string, string> = {}) =>
  t.request({ method: 'PUT', url: `/cms/rest/templates/${name}`, payload, headers });

async function expectStatus<T extends { statusCode: number; body: string }>(res: T, status: number): Promise<T> {
  expect(res.statusCode, res.body).toBe(status);
  return res;
}

/** A template `article` (regions title, body, aside), a site using it and pages, some with content in `body`. */
async function setUp() {
  await expectStatus(
    await putTemplate('article', {
      label: 'Article',
      regions: [
        { name: 'title', editable: true },
        { name: 'body', editable: true },
        { name: 'aside', editable: true },
      ],
    }),
    201,
  );
  await expectStatus(
    await t.request({
      method: 'PUT',
      url: '/cms/rest/folders/by-path/www',
      payload: { sectionInfo: { templateName: 'article', displayTitle: 'Web' } },
    }),
    201,
  );
  for (const [name, displayName, text] of [
    ['welcome', 'Welcome', '<p>Hello</p>'],
    ['about', 'About us', '<p>Us</p>'],
    ['empty', 'Nothing yet', null],
  ] as const) {
    await expectStatus(
      await t.request({
        method: 'PUT',
        url: `/cms/rest/pages/by-path/www/${name}`,
        payload: {
          templateName: 'article',
          displayName,
          body: text
            ? [
                {
                  name: 'body',
                  type: 'PAGE',
                  editable: true,
                  widgets: [{ type: 'cmsRichText', scope: 'local', editable: true, asset: { fields: { text } } }],
                },
              ]
            : [],
        },
      }),
      201,
    );
  }
}

async function usage(query = '') {
  const res = await expectStatus(
    await t.request({ method: 'GET', url: `/cms/rest/templates/article/usage${query}` }),
    200,
  );
  return TemplateUsage.strict().parse(res.json());
}

describe('template usage', () => {
  it('rejects unauthenticated, an unknown template and bad region names', async () => {
    await setUp();
    const anonymous = await t.request({
      method: 'GET',
      url: '/cms/rest/templates/article/usage',
      headers: { authorization: '' },
    });
    expect(anonymous.statusCode).toBe(401);
    const missing = await t.request({ method: 'GET', url: '/cms/rest/templates/nothing/usage' });
    expect(missing.statusCode).toBe(404);
    expect(problemOf(missing).code).toBe('TEMPLATE_NOT_FOUND');
    const bad = await t.request({ method: 'GET', url: '/cms/rest/templates/article/usage?regions=a,,b' });
    expect(bad.statusCode).toBe(400);
  });

  it('lists the pages made from it by path, with their titles, and the sites that name it', async () => {
    await setUp();
    const all = await usage();
    expect(all.pageCount).toBe(4);
    expect(all.pages.map((p) => [p.path, p.title])).toEqual([
      ['www/about', 'About us'],
      ['www/empty', 'Nothing yet'],
      ['www/index', 'Web'],
      ['www/welcome', 'Welcome'],
    ]);
    expect(all.pages[0]!.href).toBe('/cms/rest/pages/by-path/www/about');
    expect(all.sections).toEqual([{ path: 'www', kind: 'site', title: 'Web', href: '/cms/rest/folders/by-path/www' }]);
    // Only the pages holding content in a region.
    const body = await usage('?regions=body,aside');
    expect(body.pages.map((p) => p.path)).toEqual(['www/about', 'www/welcome']);
    expect(body.pageCount).toBe(2);
    expect(all.trashed).toEqual([]);
    expect(all.trashedCount).toBe(0);
  });

  it('lists what is in the trash apart, and holds a delete back until that is gone for good', async () => {
    await setUp();
    await expectStatus(await putTemplate('solo', { label: 'Solo', regions: [{ name: 'main', editable: true }] }), 201);
    await expectStatus(await t.request({ method: 'PUT', url: '/cms/rest/folders/by-path/www/box', payload: {} }), 201);
    for (const [path, displayName] of [
      ['www/alone', 'Alone'],
      ['www/box/inner', 'Inner'],
    ]) {
      await expectStatus(
        await t.request({
          method: 'PUT',
          url: `/cms/rest/pages/by-path/${path}`,
          payload: { templateName: 'solo', displayName, body: [] },
        }),
        201,
      );
    }
    const trashId = async (url: string) =>
      ((await expectStatus(await t.request({ method: 'DELETE', url }), 200)).json() as { trashId: string }).trashId;
    const alone = await trashId('/cms/rest/pages/by-path/www/alone');
    const box = await trashId('/cms/rest/folders/by-path/www/box?includeSubFolders=true');
    // A page of another template in the trash is not counted.
    await trashId('/cms/rest/pages/by-path/www/welcome');

    const res = await expectStatus(await t.request({ method: 'GET', url: '/cms/rest/templates/solo/usage' }), 200);
    const solo = TemplateUsage.strict().parse(res.json());
    expect(solo).toMatchObject({ pages: [], pageCount: 0, sections: [], trashedCount: 2 });
    expect(solo.trashed).toEqual([
      { kind: 'page', title: 'Alone', trashId: alone, deletedFrom: 'www/alone' },
      { kind: 'page', title: 'Inner', trashId: box, deletedFrom: 'www/box' },
    ]);
    // The article's page in the trash is counted apart from those in place.
    const article = await usage();
    expect(article.pageCount).toBe(3);
    expect(article.pages.map((p) => p.path)).not.toContain('www/welcome');
    expect(article.trashed.map((p) => [p.title, p.deletedFrom])).toEqual([['Welcome', 'www/welcome']]);

    const refused = await expectStatus(await t.request({ method: 'DELETE', url: '/cms/rest/templates/solo' }), 409);
    expect(problemOf(refused).code).toBe('TEMPLATE_IN_USE');
    expect(refused.json()).toMatchObject({ pages: 0, sections: 0, trashed: 2 });
    expect(problemOf(refused).detail).toContain('2 items in the trash');
    await expectStatus(await t.request({ method: 'GET', url: '/cms/rest/templates/solo' }), 200);
    // A template used in place and in the trash says both.
    const both = await expectStatus(await t.request({ method: 'DELETE', url: '/cms/rest/templates/article' }), 409);
    expect(problemOf(both).detail).toContain(
      '3 pages and 1 site or section landing page setting and 1 item in the trash',
    );

    await expectStatus(await t.request({ method: 'DELETE', url: `/cms/rest/trash/${alone}` }), 200);
    await expectStatus(await t.request({ method: 'DELETE', url: '/cms/rest/templates/solo' }), 409);
    await expectStatus(await t.request({ method: 'DELETE', url: `/cms/rest/trash/${box}` }), 200);
    await expectStatus(await t.request({ method: 'DELETE', url: '/cms/rest/templates/solo' }), 200);
  });
});

describe('renaming template regions', () => {
  it('moves the pages’ content to the new name, swaps included', async () => {
    await setUp();
    const res = await expectStatus(
      await putTemplate('article', {
        regions: [
          { name: 'heading', previousName: 'title', editable: true },
          { name: 'aside', previousName: 'body', editable: true },
          { name: 'body', previousName: 'aside', editable: true },
        ],
      }),
      200,
    );
    expect(
      Template.parse(res.json()).regions.map((r) => r.name),
      'the stored regions have no previousName',
    ).toEqual(['heading', 'aside', 'body']);
    expect(Object.keys(Template.parse(res.json()).regions[0]!)).toEqual(['name', 'editable', 'widgets']);
    const page = await t.request({ method: 'GET', url: '/cms/rest/pages/by-path/www/welcome' });
    const body = (page.json() as { body: { name: string; widgets: { asset: { fields: { text: string } } }[] }[] }).body;
    expect(body.map((r) => [r.name, r.widgets.map((w) => w.asset.fields.text)])).toEqual([
      ['heading', []],
      ['aside', ['<p>Hello</p>']],
      ['body', []],
    ]);
  });

  it('refuses to drop content: a region with content that is removed or made fixed, naming the pages', async () => {
    await setUp();
    const before = (await t.request({ method: 'GET', url: '/cms/rest/templates/article' })).body;
    // "body" renamed to "main" but made non-editable: its content would be lost.
    const fixed = await putTemplate('article', {
      regions: [
        { name: 'title', editable: true },
        { name: 'main', previousName: 'body', editable: false },
      ],
    });
    expect(fixed.statusCode, fixed.body).toBe(409);
    expect(problemOf(fixed).code).toBe('TEMPLATE_IN_USE');
    // A region renamed to the old name is not the old region: the old one's content would be lost.
    const replaced = await putTemplate('article', {
      regions: [
        { name: 'title', editable: true },
        { name: 'body', previousName: 'aside', editable: true },
      ],
    });
    expect(replaced.statusCode, replaced.body).toBe(409);
    const unknown = await putTemplate('article', {
      regions: [{ name: 'body', previousName: 'nothing', editable: true }],
    });
    expect(unknown.statusCode).toBe(400);
    expect(problemOf(unknown).errors).toEqual([
      { path: 'body.regions.0.previousName', message: 'names no region of this template' },
    ]);
    const twice = await putTemplate('article', {
      regions: [
        { name: 'a', previousName: 'body', editable: true },
        { name: 'b', previousName: 'body', editable: true },
      ],
    });
    expect(twice.statusCode).toBe(400);
    expect((await t.request({ method: 'GET', url: '/cms/rest/templates/article' })).body).toBe(before);
    const page = await t.request({ method: 'GET', url: '/cms/rest/pages/by-path/www/welcome' });
    expect(page.body).toContain('<p>Hello</p>');
  });
});
