import { expect, test, type Page } from '@playwright/test';
import { adminApi } from './support/users';

/*
 * Pages in the explorer: Edit is their main action wherever they are listed, their workflow transitions are in
 * their menus, a folder's screen takes the workflow of every page below it at once, and the properties form
 * never drops a change without asking.
 */

const tree = (page: Page) => page.getByRole('tree', { name: 'Sites and asset library' });
const treeItem = (page: Page, name: string) => tree(page).getByRole('treeitem', { name, exact: true });

async function stateOf(page: Page, path: string): Promise<string> {
  const res = await page.request.get(`/cms/rest/pages/by-path/${path}`);
  expect(res.status()).toBe(200);
  return ((await res.json()) as { workflow: { state: string } }).workflow.state;
}

test('a page offers Edit first and its workflow transitions in the folder table’s and the tree’s menus', async ({
  page,
}) => {
  await page.goto('/sites/demo/articles');
  await expect(page.getByRole('heading', { level: 1, name: 'articles' })).toBeVisible();
  expect(await stateOf(page, 'demo/articles/getting-started')).toBe('Review');

  // The folder's table: the row's menu starts with Edit and offers what the workflow allows now.
  await page.getByRole('button', { name: 'Actions for Getting started' }).click();
  const menu = page.getByRole('menu', { name: 'Actions for Getting started' });
  await expect(menu.getByRole('menuitem').first()).toHaveText(/^Edit/);
  await menu.getByRole('menuitem', { name: 'Reject' }).click();
  const rejectDialog = page.getByRole('dialog', { name: 'Reject' });
  await rejectDialog.getByRole('textbox', { name: 'Reason' }).fill('The intro repeats the title.');
  await rejectDialog.getByRole('button', { name: 'Reject' }).click();
  await expect(page.getByText('Rejected: “Getting started”')).toBeVisible();
  expect(await stateOf(page, 'demo/articles/getting-started')).toBe('Draft');

  // The tree's menu of a live page: Edit opens the editor; the workflow says what each step does.
  await treeItem(page, 'articles, folder').locator('button[slot="chevron"]').click();
  await tree(page)
    .getByRole('treeitem', { name: /\(welcome\), page$/ })
    .click({ button: 'right' });
  const treeMenu = page.getByRole('menu');
  await expect(treeMenu.getByRole('menuitem', { name: 'Quick edit (reopen the live page)' })).toBeVisible();
  await expect(treeMenu.getByRole('menuitem', { name: 'Archive' })).toBeVisible();
  await treeMenu.getByRole('menuitem', { name: /^Edit/ }).click();
  await expect(page).toHaveURL(/\/pages\/demo\/articles\/welcome$/);
  await expect(page.getByRole('navigation', { name: 'Page outline' })).toBeVisible();

  // Find: a page found by name says it opens for editing.
  await page.getByRole('combobox', { name: /Find/ }).fill('getting');
  await expect(page.getByRole('option', { name: /Getting started/ })).toContainText(
    'Edit page “getting-started” in demo/articles',
  );
});

test('an editor approves every page below a section from the section’s screen', async ({ page }) => {
  await page.goto('/sites/demo/about');
  await expect(page.getByRole('heading', { level: 1, name: 'About us' })).toBeVisible();
  await page.getByRole('button', { name: 'Page workflow' }).click();
  await page.getByRole('menuitem', { name: /^Approve all pages/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Approve all pages below “about”?' });
  await dialog.getByRole('button', { name: 'Approve all' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText(/^Approved 2 pages$/)).toBeVisible();
  expect(await stateOf(page, 'demo/about/index')).toBe('Public');
  expect(await stateOf(page, 'demo/about/team/index')).toBe('Public');
});

test('a changed display title is not dropped when another tree item is chosen', async ({ page, playwright }) => {
  await page.goto('/sites/demo/news');
  const title = page.getByLabel('Display title');
  await title.fill('News and press');
  await treeItem(page, 'Home (demo), site').click();

  const guard = page.getByRole('dialog', { name: 'Leave without saving?' });
  await expect(guard).toBeVisible();
  await guard.getByRole('button', { name: 'Stay here' }).click();
  await expect(guard).toBeHidden();
  await expect(page).toHaveURL(/\/sites\/demo\/news$/);
  await expect(title).toHaveValue('News and press');

  await treeItem(page, 'Home (demo), site').click();
  await guard.getByRole('button', { name: 'Save and leave' }).click();
  await expect(page).toHaveURL(/\/sites\/demo$/);
  // The tree shows the new title at once (it comes from the parent's listing, read again after the save).
  await expect(treeItem(page, 'News and press (news), section')).toBeVisible();
  const res = await page.request.get('/cms/rest/folders/by-path/demo/news');
  const saved = (await res.json()) as { sectionInfo: { displayTitle: string } };
  expect(saved.sectionInfo.displayTitle).toBe('News and press');

  // Later specs find the section by its seeded title.
  const api = await adminApi(playwright, test.info().project.use.baseURL!);
  const restore = await api.put('/cms/rest/folders/by-path/demo/news', {
    data: { sectionInfo: { ...saved.sectionInfo, displayTitle: 'News' } },
  });
  expect(restore.status()).toBe(200);
  await api.dispose();
});
