import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Page } from '../../shared/api/pages.js';
import { createTestApp, type TestApp } from '../test/harness.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ CMS_SEED: 'true' });
}, 120_000);
afterAll(async () => {
  await t.close();
});

describe('demo seed', () => {
  it('creates the demo site through the API: templates, sections, a sub-section, a folder with pages, a link, assets', async () => {
    const sites = (await t.request({ method: 'GET', url: '/cms/rest/sites' })).json();
    expect(sites).toEqual([expect.objectContaining({ name: 'demo', displayTitle: 'Home' })]);

    const site = (await t.request({ method: 'GET', url: '/cms/rest/folders/by-path/demo' })).json();
    expect(site.sectionInfo.landingPage.name).toBe('index');
    expect(site.subsections.map((s: { name: string; type: string }) => `${s.name}:${s.type}`)).toEqual([
      'about:section',
      'news:section',
      'folio-docs:externallink',
    ]);
    expect(site.subfolders.map((f: { name: string }) => f.name)).toEqual(['articles']);

    const about = (await t.request({ method: 'GET', url: '/cms/rest/folders/by-path/demo/about' })).json();
    expect(about.subsections.map((s: { name: string }) => s.name)).toEqual(['team']);
    const articles = (await t.request({ method: 'GET', url: '/cms/rest/folders/by-path/demo/articles' })).json();
    expect(articles.pages.map((p: { name: string }) => p.name).sort()).toEqual([
      'getting-started',
      'press-kit',
      'welcome',
    ]);

    const templates = (await t.request({ method: 'GET', url: '/cms/rest/templates' })).json();
    expect(templates.length).toBeGreaterThanOrEqual(3);
    expect(new Set(templates.map((x: { regions: unknown[] }) => x.regions.length)).size).toBeGreaterThan(1);

    for (const name of ['logo.png', 'hero.jpg']) {
      const meta = await t.request({ method: 'GET', url: `/cms/rest/assets/by-path/Assets/images/${name}` });
      expect(meta.statusCode).toBe(200);
      expect(meta.json().type).toBe('cmsImageAsset');
      expect(meta.json().image.width).toBeGreaterThan(100);
      const bin = await t.request({ method: 'GET', url: `/cms/rest/assets/binary/Assets/images/${name}` });
      expect(bin.statusCode).toBe(200);
      expect(bin.rawPayload.length).toBe(meta.json().image.size);
    }

    const home = (await t.request({ method: 'GET', url: '/cms/rest/pages/by-path/demo/index' })).json();
    expect(home.workflow.state).toBe('Public');
    const hero = home.body.find((r: { name: string }) => r.name === 'hero');
    expect(hero.widgets[0].asset).toMatchObject({ name: 'hero.jpg', folderPath: 'Assets/images' });

    // Every shared asset a published page links is published too: its live copy links nothing in draft.
    for (const path of ['demo/index', 'demo/articles/welcome']) {
      const page = Page.parse((await t.request({ method: 'GET', url: `/cms/rest/pages/by-path/${path}` })).json());
      expect(page.workflow.state).toBe('Public');
      const shared = page.body
        .flatMap((r) => r.widgets)
        .flatMap((w) => (w.asset?.folderPath ? [`${w.asset.folderPath}/${w.asset.name}`] : []));
      if (path === 'demo/index') expect(shared.sort()).toEqual(['Assets/images/hero.jpg', 'Assets/snippets/contact']);
      for (const asset of shared) {
        const res = await t.request({ method: 'GET', url: `/cms/rest/assets/by-path/${asset}` });
        expect(res.json().workflow.state, asset).toBe('Public');
      }
    }
  });

  it('does not seed again, even when every site was deleted', async () => {
    const del = await t.request({ method: 'DELETE', url: '/cms/rest/folders/by-path/demo?includeSubFolders=true' });
    expect(del.statusCode).toBe(200);
    const { seedDemo } = await import('./demo-seed.js');
    const { createAuthService } = await import('../modules/auth/auth.service.js');
    expect(await seedDemo(t.app, createAuthService(t.app.folio.ctx), t.app.folio.ctx.db)).toBe(false);
    expect((await t.request({ method: 'GET', url: '/cms/rest/sites' })).json()).toEqual([]);
  });
});
