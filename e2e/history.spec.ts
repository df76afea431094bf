import { expect, test, type Page } from '@playwright/test';
import { seriousViolations } from './support/axe';
import { adminApi } from './support/users';

/*
 * The History panel in real Chromium against the real server: a page edited twice, two revisions compared (the
 * inserted words marked), an older one restored behind a confirmation saying what changes, the editor showing it;
 * and an asset's metadata restored the same way from the asset panel.
 */

test.describe.configure({ mode: 'serial' });

const FOLDER = 'demo/history-e2e';
const PAGE_PATH = `${FOLDER}/notes`;
const ASSET_PATH = 'Assets/e2e-history/greeting';

test.beforeAll(async ({ baseURL, playwright }) => {
  const api = await adminApi(playwright, baseURL!);
  // A retry starts again from nothing.
  expect([200, 204, 404]).toContain(
    (await api.delete(`/cms/rest/folders/by-path/${FOLDER}?includeSubFolders=true&purge=true`)).status(),
  );
  expect([200, 204, 404]).toContain(
    (await api.delete('/cms/rest/folders/by-path/Assets/e2e-history?includeSubFolders=true&purge=true')).status(),
  );
  expect((await api.put(`/cms/rest/folders/by-path/${FOLDER}`, { data: {} })).status()).toBeLessThan(300);
  const page = await api.put(`/cms/rest/pages/by-path/${PAGE_PATH}`, {
    data: { templateName: 'landing', displayName: 'Notes' },
  });
  expect(page.status()).toBe(201);
  const asset = await api.put(`/cms/rest/assets/by-path/${ASSET_PATH}`, {
    data: { type: 'cmsSimpleTextAsset', fields: { text: 'Hello from the library' } },
  });
  expect(asset.status(), await asset.text()).toBeLessThan(300);
  await api.dispose();
});

/** Saves with the keyboard shortcut and waits for the editor to say everything is saved. */
async function save(page: Page) {
  await page.keyboard.press('Control+s');
  await expect(page.getByText('All changes saved')).toBeVisible();
}

test('a page edited twice: compare two revisions, restore the first edit with a confirmation', async ({ page }) => {
  await page.goto(`/pages/${PAGE_PATH}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Notes' })).toBeVisible();
  await page.getByRole('tab', { name: 'Properties' }).click();
  await page.getByLabel('Summary').fill('Opening hours of the office');
  await save(page);
  await page.getByLabel('Summary').fill('Opening hours of the main office and the shop');
  await save(page);

  // The History tab, by keyboard from the Properties tab.
  await page.getByRole('tab', { name: 'Properties' }).focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('tab', { name: 'History' })).toHaveAttribute('aria-selected', 'true');
  const history = page.getByRole('region', { name: 'History' });
  const table = history.getByRole('table', { name: /Revisions of the page “Notes”/ });
  // Created, then two saves: three revisions, newest first, each with who saved it.
  await expect(table.getByRole('row')).toHaveCount(4);
  await expect(table.getByRole('row').nth(1)).toContainText('3 (current)');
  await expect(table.getByRole('row').nth(1)).toContainText('admin');
  await page.screenshot({ path: '/tmp/history-panel.png', fullPage: true });

  // The default comparison is the two newest: the words the second save inserted are marked.
  await history.getByRole('button', { name: 'Compare', exact: true }).click();
  const compare = page.getByRole('dialog', { name: 'Revision 2 compared with Revision 3 (current)' });
  await expect(compare).toBeVisible();
  // Each side says who saved it, when, and its state.
  await expect(compare.getByRole('term')).toHaveText(['Revision 2', 'Revision 3 (current)']);
  await expect(compare.getByRole('definition')).toHaveText([
    /^Saved by admin at .* · Draft$/,
    /^Saved by admin at .* · Draft$/,
  ]);
  await expect(compare.locator('ins')).toContainText(['main']);
  await expect(compare.locator('ins').filter({ hasText: 'and the shop' })).toHaveCount(1);
  expect(await seriousViolations(page)).toEqual([]);
  await page.screenshot({ path: '/tmp/history-compare.png', fullPage: true });
  await page.keyboard.press('Escape');
  await expect(compare).toBeHidden();

  // A revision opened read-only.
  await table.getByRole('button', { name: 'View revision 2' }).click();
  const view = page.getByRole('dialog', { name: 'Revision 2 · read-only' });
  await expect(view).toContainText('Opening hours of the office');
  await view.getByRole('button', { name: 'Restore this revision…' }).click();

  // The confirmation says what will change, then the editor shows revision 2's content.
  const confirm = page.getByRole('dialog', { name: 'Restore revision 2?' });
  await expect(confirm).toContainText('saved as a new revision (4)');
  await expect(confirm.locator('del').filter({ hasText: 'and the shop' })).toHaveCount(1);
  await page.screenshot({ path: '/tmp/history-restore.png', fullPage: true });
  await confirm.getByRole('button', { name: 'Restore revision 2' }).click();
  await expect(confirm).toBeHidden();
  await expect(table.getByRole('row')).toHaveCount(5);
  await expect(table.getByRole('row').nth(1)).toContainText('4 (current)');
  await page.getByRole('tab', { name: 'Properties' }).click();
  await expect(page.getByLabel('Summary')).toHaveValue('Opening hours of the office');
  await expect(page.getByText('All changes saved')).toBeVisible();
  const server = await page.request.get(`/cms/rest/pages/by-path/${PAGE_PATH}`);
  expect(((await server.json()) as { summary: string }).summary).toBe('Opening hours of the office');
});

test('an asset: its metadata edited, then restored from the History section', async ({ page }) => {
  await page.goto('/assets/e2e-history?asset=greeting');
  const panel = page.getByRole('dialog', { name: 'Details of greeting' });
  await expect(panel).toBeVisible();
  await panel.getByLabel('Text').fill('Hello from the new library');
  await panel.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(panel.getByText('No changes')).toBeVisible();

  const history = panel.getByRole('region', { name: 'History' });
  const table = history.getByRole('table');
  await expect(table.getByRole('row')).toHaveCount(3);
  await table.getByRole('button', { name: 'Restore revision 1…' }).click();
  const confirm = page.getByRole('dialog', { name: 'Restore revision 1?' });
  await expect(confirm.locator('del')).toContainText(['new']);
  await page.screenshot({ path: '/tmp/history-asset-restore.png', fullPage: true });
  await confirm.getByRole('button', { name: 'Restore revision 1' }).click();
  await expect(confirm).toBeHidden();
  await expect(panel.getByLabel('Text')).toHaveValue('Hello from the library');
  await expect(table.getByRole('row')).toHaveCount(4);
});
