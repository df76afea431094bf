import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { adminApi } from './support/users';

/*
 * The app's frame stays put: whatever a screen holds, only the screen's own scrollers move — never the document,
 * which would slide the header (and the page editor's Save) off the top and leave a grey screen.
 */

test.describe.configure({ timeout: 90_000 });

let api: APIRequestContext;
const FOLDER = 'demo/e2e-shell';
const LIBRARY = 'Assets/e2e-shell';

test.beforeAll(async ({ baseURL, playwright }) => {
  api = await adminApi(playwright, baseURL!);
  await api.delete(`/cms/rest/folders/by-path/${FOLDER}?includeSubFolders=true`);
  await api.delete(`/cms/rest/folders/by-path/${LIBRARY}?includeSubFolders=true`);
  expect((await api.put(`/cms/rest/folders/by-path/${FOLDER}`, { data: {} })).status()).toBeLessThan(300);
  const richText = (i: number) => ({
    type: 'cmsRichText',
    asset: { fields: { text: `<p>Paragraph ${i}. ${'A long paragraph of a long page. '.repeat(30)}</p>` } },
  });
  const long = {
    templateName: 'two-column',
    displayName: 'A long page',
    body: [{ name: 'main', type: 'PAGE', widgets: Array.from({ length: 30 }, (_, i) => richText(i)) }],
  };
  expect((await api.put(`/cms/rest/pages/by-path/${FOLDER}/long`, { data: long })).status()).toBe(201);
  for (let i = 0; i < 40; i++) {
    const name = `page-${String(i).padStart(2, '0')}`;
    const res = await api.put(`/cms/rest/pages/by-path/${FOLDER}/${name}`, {
      data: { templateName: 'article', displayName: `Page ${i}` },
    });
    expect(res.status()).toBe(201);
  }
  for (let i = 0; i < 80; i++) {
    const res = await api.put(`/cms/rest/assets/by-path/${LIBRARY}/note-${String(i).padStart(2, '0')}`, {
      data: { type: 'cmsSimpleTextAsset', fields: { text: `Note ${i}` } },
    });
    expect(res.status()).toBeLessThan(300);
  }
});

test.afterAll(async () => {
  await api.delete(`/cms/rest/folders/by-path/${FOLDER}?includeSubFolders=true`);
  await api.delete(`/cms/rest/folders/by-path/${LIBRARY}?includeSubFolders=true`);
  await api.dispose();
});

/** Scrolls far past the end with the wheel over `over`, and with the keyboard from the screen and from the page. */
async function scrollFarPastTheEnd(page: Page, over: Locator) {
  const box = (await over.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + Math.min(box.height / 2, 200));
  for (let i = 0; i < 40; i++) await page.mouse.wheel(0, 1500);
  await page.locator('main').focus();
  for (const key of ['End', 'PageDown', 'PageDown', 'ArrowDown', 'Space']) await page.keyboard.press(key);
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  for (const key of ['End', 'PageDown', 'PageDown', 'ArrowDown', 'Space']) await page.keyboard.press(key);
  // Programmatic scrolling (a focus, scrollIntoView) cannot move the document either.
  await page.evaluate(() => window.scrollTo(0, 100_000));
}

/** The document has not moved, and the header and `stillThere` are on screen. */
async function expectFrameInPlace(page: Page, stillThere: Locator) {
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  expect(await page.evaluate(() => document.scrollingElement!.scrollTop)).toBe(0);
  const viewport = page.viewportSize()!;
  for (const locator of [page.getByRole('banner'), stillThere]) {
    const box = (await locator.boundingBox())!;
    expect(box.y).toBeGreaterThanOrEqual(0);
    expect(box.y + box.height).toBeLessThanOrEqual(viewport.height);
  }
}

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 1024, height: 640 },
]) {
  test.describe(`at ${viewport.width}×${viewport.height}`, () => {
    test.use({ viewport });

    test('scrolling far past the end of a long page keeps the header and Save on screen', async ({ page }) => {
      await page.goto(`/pages/${FOLDER}/long`);
      const save = page.getByRole('button', { name: /^Save/ });
      await expect(save).toBeVisible();
      await expect(page.getByRole('region', { name: /^main\b/ }).getByRole('article')).toHaveCount(30);
      await scrollFarPastTheEnd(page, page.locator('main'));
      await expectFrameInPlace(page, save);
      await page.screenshot({ path: `test-results/shell-page-editor-${viewport.width}.png` });
    });

    test('scrolling far past the end of a long folder in the explorer keeps the header on screen', async ({ page }) => {
      await page.goto(`/sites/${FOLDER}`);
      await expect(page.getByRole('heading', { level: 1, name: 'e2e-shell' })).toBeVisible();
      await scrollFarPastTheEnd(page, page.locator('main'));
      // The folder's heading scrolls away with its table; the main area itself and the tree stay.
      await expectFrameInPlace(page, page.locator('main'));
      await expectFrameInPlace(page, page.getByRole('tree', { name: 'Sites and asset library' }));
    });

    test('scrolling far past the end of the asset library keeps the header and its actions on screen', async ({
      page,
    }) => {
      await page.goto(`/${LIBRARY}`.replace('/Assets', '/assets'));
      const grid = page.getByRole('grid', { name: 'Assets in e2e-shell' });
      await expect(grid.locator('.asset-card').first()).toBeVisible();
      await scrollFarPastTheEnd(page, grid);
      await expectFrameInPlace(page, page.getByRole('button', { name: 'Upload files' }));
    });
  });
}
