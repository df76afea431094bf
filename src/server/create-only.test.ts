import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSite, createTemplate } from './modules/folders/folders.fixtures.js';
import { createTestApp, problemOf, type TestApp } from './test/harness.js';

/** Per resource: the URL of a new item called `name`, and two different bodies that create it. */
const RESOURCES: { what: string; url: (name: string) => string; bodies: [object, object] }[] = [
  {
    what: 'page',
    url: (n) => `/cms/rest/pages/by-path/www/${n}`,
    bodies: [
      { templateName: 'basic', displayName: 'First' },
      { templateName: 'basic', displayName: 'Second' },
    ],
  },
  {
    what: 'folder',
    url: (n) => `/cms/rest/folders/by-path/www/${n}`,
    bodies: [{ sectionInfo: { displayTitle: 'First' } }, { sectionInfo: { displayTitle: 'Second' } }],
  },
  {
    what: 'non-binary asset',
    url: (n) => `/cms/rest/assets/by-path/Assets/snippets/${n}`,
    bodies: [
      { type: 'cmsRawHtmlAsset', fields: { html: '<p>first</p>' } },
      { type: 'cmsRawHtmlAsset', fields: { html: '<p>second</p>' } },
    ],
  },
  {
    what: 'template',
    url: (n) => `/cms/rest/templates/${n}`,
    bodies: [
      { label: 'First', regions: [{ name: 'main', editable: true }] },
      { label: 'Second', regions: [{ name: 'main', editable: true }] },
    ],
  },
  {
    what: 'user',
    url: (n) => `/cms/rest/users/${n}`,
    bodies: [
      { role: 'Editor', password: 'first-password-1' },
      { role: 'Viewer', password: 'second-password-2' },
    ],
  },
];

const CREATE_ONLY = { 'if-none-match': '*' };

describe('If-None-Match: * makes a PUT create-only', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    await createTemplate(t);
    await createSite(t, 'www');
  });
  afterAll(() => t.close());

  for (const r of RESOURCES) {
    it(`${r.what}: creates when the name is free, 412 when it is taken (nothing changes)`, async () => {
      const url = r.url(`${r.what.replace(/\W/g, '-')}-solo`);
      const created = await t.request({ method: 'PUT', url, payload: r.bodies[0], headers: CREATE_ONLY });
      expect(created.statusCode, created.body).toBe(201);
      const before = await t.request({ method: 'GET', url });
      const again = await t.request({ method: 'PUT', url, payload: r.bodies[1], headers: CREATE_ONLY });
      expect(again.statusCode, again.body).toBe(412);
      expect(problemOf(again).code).toBe('PRECONDITION_FAILED');
      expect(problemOf(again).detail).toMatch(/already exists/);
      const after = await t.request({ method: 'GET', url });
      expect(after.body).toBe(before.body);
      // Without the header the same PUT updates, as before.
      expect((await t.request({ method: 'PUT', url, payload: r.bodies[1] })).statusCode).toBe(200);
    });

    it(`${r.what}: of two concurrent creates of one name, one succeeds and the other gets 412`, async () => {
      const url = r.url(`${r.what.replace(/\W/g, '-')}-race`);
      const results = await Promise.all(
        r.bodies.map((payload) => t.request({ method: 'PUT', url, payload, headers: CREATE_ONLY })),
      );
      expect(results.map((x) => x.statusCode).sort()).toEqual([201, 412]);
      const winner = r.bodies[results.findIndex((x) => x.statusCode === 201)]!;
      const stored = await t.request({ method: 'GET', url });
      expect(stored.statusCode).toBe(200);
      // What the winner sent is what is stored (each pair of bodies differs in one of these words).
      const label = /First|Second|first|second|Editor|Viewer/.exec(JSON.stringify(winner))![0];
      expect(stored.body).toContain(label);
      expect(problemOf(results.find((x) => x.statusCode === 412)!).code).toBe('PRECONDITION_FAILED');
    });
  }
});
