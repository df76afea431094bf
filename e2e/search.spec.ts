import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import sharp from 'sharp';
import { seriousViolations } from './support/axe';
import { adminApi } from './support/users';

/* Search from anywhere: the dialog (shortcut, find field), grouped results with marked words, opening a result. */

let api: APIRequestContext;
const SITE_FOLDER = 'demo/e2e-search';
const PAGE_PATH = `${SITE_FOLDER}/quokka-notes`;
const ASSET_FOLDER = 'Assets/e2e-fulltext';
// Words no seed content holds, so every hit is this spec's.
const PAGE_WORD = 'quokkas';
const ALT_WORD = 'wombatish';

test.beforeAll(async ({ baseURL, playwright }) => {
  api = await adminApi(playwright, baseURL!);
  expect((await api.put(`/cms/rest/folders/by-path/${SITE_FOLDER}`, { data: {} })).status()).toBeLessThan(300);
  const widgets = [
    { type: 'cmsRichText', asset: { fields: { text: `<p>Wild <strong>${PAGE_WORD}</strong> smile at noon.</p>` } } },
  ];
  const page = await api.put(`/cms/rest/pages/by-path/${PAGE_PATH}`, {
    data: { templateName: 'two-column', displayName: 'Field notes', body: [{ name: 'main', type: 'PAGE', widgets }] },
  });
  expect(page.status(), await page.text()).toBeLessThan(300);
  await api.delete(`/cms/rest/folders/by-path/${ASSET_FOLDER}?includeSubFolders=true`);
  const image = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#7a5230' } })
    .png()
    .toBuffer();
  const uploaded = await api.post(`/cms/rest/assets/binary/${ASSET_FOLDER}/burrow.png`, {
    multipart: { file: { name: 'burrow.png', mimeType: 'image/png', buffer: image } },
  });
  expect(uploaded.status(), await uploaded.text()).toBe(201);
  const described = await api.put(`/cms/rest/assets/by-path/${ASSET_FOLDER}/burrow.png`, {
    data: { fields: { alttext: `A ${ALT_WORD} burrow in red earth`, displaytitle: `Where ${PAGE_WORD} sleep` } },
  });
  expect(described.status(), await described.text()).toBe(200);
});

test.afterAll(async () => {
  await api.delete(`/cms/rest/folders/by-path/${ASSET_FOLDER}?includeSubFolders=true`);
  await api.delete(`/cms/rest/pages/by-path/${PAGE_PATH}`);
  await api.delete(`/cms/rest/folders/by-path/${SITE_FOLDER}?includeSubFolders=true`);
  await api.dispose();
});

const dialog = (page: Page) => page.getByRole('dialog', { name: 'Search' });
const box = (page: Page) => dialog(page).getByRole('combobox', { name: 'Search pages, assets and folders' });
const results = (page: Page) => dialog(page).getByRole('listbox', { name: 'Results' });

test('an editor opens search with the shortcut, sees grouped results with the words marked, and opens a page with the keyboard', async ({
  page,
}) => {
  await page.goto('/sites');
  await expect(page.getByRole('heading', { level: 1, name: 'Sites' })).toBeVisible();
  await page.keyboard.press('Control+Shift+F');
  await expect(box(page)).toBeFocused();
  await page.keyboard.type('quokk');

  // Grouped by kind: the page (its rich text matched) and the asset (its title matched).
  const pages = results(page).getByRole('group', { name: 'Pages' });
  const assets = results(page).getByRole('group', { name: 'Assets' });
  await expect(pages.getByRole('option', { name: /Field notes/ })).toBeVisible();
  await expect(assets.getByRole('option', { name: /Where quokkas sleep/ })).toBeVisible();
  await expect(
    pages
      .getByRole('option', { name: /Field notes/ })
      .locator('mark')
      .filter({ hasText: new RegExp(`^${PAGE_WORD}$`) }),
  ).toHaveCount(1);
  await expect(
    dialog(page)
      .getByRole('status')
      .filter({ hasText: /\d+ results?/ }),
  ).toHaveCount(1);
  // The snippet is text: the rich text's tags are gone, nothing but <mark> is markup.
  await expect(pages.getByRole('option', { name: /Field notes/ }).locator('strong')).toHaveCount(0);

  expect(await seriousViolations(page)).toEqual([]);

  // The first result is active; arrows move through the groups, and the combobox follows.
  const first = results(page).getByRole('option').first();
  await expect(first).toHaveAttribute('aria-selected', 'true');
  await expect(box(page)).toHaveAttribute('aria-activedescendant', (await first.getAttribute('id'))!);
  await page.keyboard.press('ArrowDown');
  await expect(first).toHaveAttribute('aria-selected', 'false');
  await page.keyboard.press('ArrowUp');
  await expect(first).toHaveAttribute('aria-selected', 'true');
  await expect(first).toContainText('Field notes');
  await page.keyboard.press('Enter');

  await expect(dialog(page)).toBeHidden();
  await expect(page).toHaveURL(/\/pages\/demo\/e2e-search\/quokka-notes$/);
});

test('the kind filter narrows the results, and the find field hands its words to search', async ({ page }) => {
  await page.goto('/sites');
  const find = page.getByRole('combobox', { name: 'Find by title or name' });
  await find.fill(PAGE_WORD);
  await page.getByRole('option', { name: `Search all content for “${PAGE_WORD}”` }).click();
  await expect(box(page)).toHaveValue(PAGE_WORD);
  await expect(results(page).getByRole('group', { name: 'Pages' })).toBeVisible();
  await expect(results(page).getByRole('group', { name: 'Assets' })).toBeVisible();

  await dialog(page).getByRole('radio', { name: 'Assets' }).click();
  await expect(results(page).getByRole('group', { name: 'Pages' })).toHaveCount(0);
  const asset = results(page)
    .getByRole('group', { name: 'Assets' })
    .getByRole('option', { name: /Where quokkas sleep/ });
  await expect(asset).toBeVisible();

  // Nothing matches: said in words, and announced.
  await box(page).fill('zzqqxxnothing');
  await expect(dialog(page).getByText('Nothing matches “zzqqxxnothing” with these filters.')).toBeVisible();
  await expect(dialog(page).getByRole('status')).toHaveText('No results for “zzqqxxnothing”.');

  // An asset opens in the library with its panel open.
  await box(page).fill(ALT_WORD);
  await expect(asset).toBeVisible();
  await box(page).press('Enter');
  await expect(page).toHaveURL(/\/assets\/e2e-fulltext\?asset=burrow\.png$/);
  await expect(page.getByRole('heading', { name: 'burrow.png' })).toBeVisible();
});

test('the asset library’s search box finds an image by its alt text and by its title', async ({ page }) => {
  await page.goto('/assets/e2e-fulltext');
  await expect(page.getByRole('heading', { level: 1, name: 'e2e-fulltext' })).toBeVisible();
  const grid = page.getByRole('grid', { name: 'Assets in e2e-fulltext' });
  const searchBox = page.getByRole('searchbox', { name: 'Search assets' });
  await searchBox.fill(ALT_WORD);
  await expect(grid.locator(`[data-path="${ASSET_FOLDER}/burrow.png"]`)).toBeVisible();
  await searchBox.fill('sleep');
  await expect(grid.locator(`[data-path="${ASSET_FOLDER}/burrow.png"]`)).toBeVisible();
  await searchBox.fill('zzqqxxnothing');
  await expect(page.getByText('No asset matches')).toBeVisible();
});
