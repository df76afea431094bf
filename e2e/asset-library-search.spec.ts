import { expect, test, type APIRequestContext } from '@playwright/test';
import { adminApi } from './support/users';

/* Searching the asset library: at its root a search looks through every folder; in a folder, that folder. */

let api: APIRequestContext;
const FOLDER = 'Assets/e2e-search';

test.beforeAll(async ({ baseURL, playwright }) => {
  api = await adminApi(playwright, baseURL!);
  await api.delete(`/cms/rest/folders/by-path/${FOLDER}?includeSubFolders=true`);
  const res = await api.put(`/cms/rest/assets/by-path/${FOLDER}/deeper/zebra-crossing`, {
    data: { type: 'cmsSimpleTextAsset', fields: { text: 'Stripes' } },
  });
  expect(res.status(), await res.text()).toBeLessThan(300);
});

test.afterAll(async () => {
  await api.delete(`/cms/rest/folders/by-path/${FOLDER}?includeSubFolders=true`);
  await api.dispose();
});

test('a search at the library’s root finds an asset deep in a subfolder, and says it searched everywhere', async ({
  page,
}) => {
  await page.goto('/assets');
  await expect(page.getByRole('heading', { level: 1, name: 'Asset library' })).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search the whole library' }).fill('zebra');
  const grid = page.getByRole('grid', { name: 'Assets in Asset library' });
  await expect(grid.locator(`[data-path="${FOLDER}/deeper/zebra-crossing"]`)).toBeVisible();
  await expect(page.getByText('1 asset in the whole library')).toBeVisible();
  await expect(page.getByRole('checkbox', { name: 'Include subfolders' })).toBeChecked();
  expect(new URL(page.url()).searchParams.get('q')).toBe('zebra');

  // Unticked, the root alone is searched (and the choice is kept in the URL, so a reload keeps it).
  await page.getByText('Include subfolders').click();
  await expect(page.getByRole('checkbox', { name: 'Include subfolders' })).not.toBeChecked();
  await expect(page.getByText('No asset matches')).toBeVisible();
  await page.reload();
  await expect(page.getByText('No asset matches')).toBeVisible();
  await page.getByRole('button', { name: 'Look in its subfolders too' }).click();
  await expect(grid.locator(`[data-path="${FOLDER}/deeper/zebra-crossing"]`)).toBeVisible();
});

test('a search inside a folder looks in that folder unless subfolders are included', async ({ page }) => {
  await page.goto('/assets/e2e-search?q=zebra');
  await expect(page.getByRole('heading', { level: 1, name: 'e2e-search' })).toBeVisible();
  await expect(page.getByRole('checkbox', { name: 'Include subfolders' })).not.toBeChecked();
  await expect(page.getByText('No asset matches')).toBeVisible();
  await page.getByText('Include subfolders').click();
  await expect(
    page.getByRole('grid', { name: 'Assets in e2e-search' }).locator(`[data-path="${FOLDER}/deeper/zebra-crossing"]`),
  ).toBeVisible();
  await expect(page.getByText('1 asset, subfolders included')).toBeVisible();
});
