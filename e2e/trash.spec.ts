import { expect, test, type Page } from '@playwright/test';
import { adminApi } from './support/users';

const notifications = (page: Page) => page.getByRole('region', { name: 'Notifications' });

test('a deleted page comes back with Undo', async ({ page, playwright }) => {
  const api = await adminApi(playwright, test.info().project.use.baseURL!);
  const name = `binned-${Date.now().toString(36)}`;
  const put = await api.put(`/cms/rest/pages/by-path/demo/${name}`, {
    data: { templateName: 'article', displayName: 'Binned notes' },
  });
  expect(put.status()).toBe(201);

  await page.goto('/sites/demo');
  const table = page.getByRole('table', { name: /Contents of/ });
  await table.getByRole('button', { name: 'Actions for Binned notes' }).click();
  await page.getByRole('menuitem', { name: 'Delete…' }).click();
  await page
    .getByRole('alertdialog', { name: 'Delete page “Binned notes”?' })
    .getByRole('button', { name: 'Delete page' })
    .click();
  await expect(notifications(page)).toContainText('It is in the trash');
  expect((await api.get(`/cms/rest/pages/by-path/demo/${name}`)).status()).toBe(404);
  await notifications(page).getByRole('button', { name: 'Undo' }).last().click();
  await expect(notifications(page)).toContainText('Brought back page “Binned notes”');
  expect((await api.get(`/cms/rest/pages/by-path/demo/${name}`)).status()).toBe(200);
  expect((await api.delete(`/cms/rest/pages/by-path/demo/${name}?purge=true`)).status()).toBe(200);
  await api.dispose();
});

test('a deleted asset is restored from the Trash screen', async ({ page, playwright }) => {
  const api = await adminApi(playwright, test.info().project.use.baseURL!);
  const name = `note-${Date.now().toString(36)}`;
  const path = `Assets/trash-e2e/${name}`;
  const put = await api.put(`/cms/rest/assets/by-path/${path}`, {
    data: { type: 'cmsRichTextAsset', fields: { text: '<p>Kept</p>' } },
  });
  expect(put.status()).toBe(201);
  expect((await api.delete(`/cms/rest/assets/by-path/${path}`)).status()).toBe(200);
  // A page with a title: the screen shows it by that, its name beside it.
  const pageName = `titled-${Date.now().toString(36)}`;
  const putPage = await api.put(`/cms/rest/pages/by-path/demo/${pageName}`, {
    data: { templateName: 'article', displayName: 'Titled and binned' },
  });
  expect(putPage.status()).toBe(201);
  expect((await api.delete(`/cms/rest/pages/by-path/demo/${pageName}`)).status()).toBe(200);

  await page.goto('/sites');
  await page.getByRole('link', { name: 'Trash' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Trash' })).toBeVisible();
  const row = page.getByRole('table', { name: 'Deleted items' }).getByRole('row', { name: new RegExp(name) });
  await expect(row).toContainText('Assets/trash-e2e');
  await expect(row).toContainText('admin');
  await expect(row).toContainText('Deleted for good in 30 days');
  const pageRow = page.getByRole('table', { name: 'Deleted items' }).getByRole('row', { name: new RegExp(pageName) });
  await expect(pageRow.getByRole('cell').first()).toHaveText(`Page Titled and binneddemo/${pageName}`);
  await expect(pageRow.getByRole('cell').first().locator('strong')).toHaveText('Titled and binned');
  await row.getByRole('button', { name: 'Restore', exact: true }).click();
  await expect(notifications(page)).toContainText(`Restored “${name}”`);
  await expect(row).toHaveCount(0);
  expect((await api.get(`/cms/rest/assets/by-path/${path}`)).status()).toBe(200);
  expect(
    (await api.delete(`/cms/rest/folders/by-path/Assets/trash-e2e?includeSubFolders=true&purge=true`)).status(),
  ).toBe(200);
  await pageRow.getByRole('button', { name: 'Delete permanently' }).click();
  await page
    .getByRole('alertdialog', { name: 'Delete “Titled and binned” permanently?' })
    .getByRole('button', { name: 'Delete permanently' })
    .click();
  await expect(notifications(page)).toContainText('Deleted “Titled and binned” permanently');
  await expect(pageRow).toHaveCount(0);
  await api.dispose();
});

test('with the keyboard alone, a page is restored into another folder and the focus takes the next row', async ({
  page,
  playwright,
}) => {
  const api = await adminApi(playwright, test.info().project.use.baseURL!);
  const id = Date.now().toString(36);
  const folder = `kb-into-${id}`;
  expect((await api.put(`/cms/rest/folders/by-path/demo/${folder}`, { data: {} })).status()).toBe(201);
  const trashIds: string[] = [];
  // Deleted in this order, so the trash lists "Second kept" first and "First kept" under it.
  for (const [name, title] of [
    [`kb-first-${id}`, 'First kept'],
    [`kb-second-${id}`, 'Second kept'],
  ]) {
    const put = await api.put(`/cms/rest/pages/by-path/demo/${name}`, {
      data: { templateName: 'article', displayName: title },
    });
    expect(put.status()).toBe(201);
    const deleted = await api.delete(`/cms/rest/pages/by-path/demo/${name}`);
    expect(deleted.status()).toBe(200);
    trashIds.push(((await deleted.json()) as { trashId: string }).trashId);
  }

  await page.goto('/trash');
  const table = page.getByRole('table', { name: 'Deleted items' });
  const second = table.getByRole('row', { name: /Second kept/ });
  const first = table.getByRole('row', { name: /First kept/ });
  // Each row's buttons say which item they act on.
  await expect(second.getByRole('button', { name: 'Restore to…' })).toHaveAccessibleDescription(
    new RegExp(`Page Second kept\\s*demo/kb-second-${id}`),
  );
  await second.getByRole('button', { name: 'Restore to…' }).focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Restore “Second kept” to…' });
  const tree = dialog.getByRole('tree', { name: 'Restore into' });
  await expect(tree).toBeVisible();
  // Down the tree (opened where the page was) to the folder, chosen with Enter. Only a focused item's own text
  // counts: while the tree itself holds the focus (as it opens), its text holds every item's.
  const focusedItem = () =>
    page.evaluate(() => {
      const e = document.activeElement;
      return e?.getAttribute('role') === 'treeitem' ? (e.textContent ?? '') : '';
    });
  await expect.poll(focusedItem).not.toBe('');
  for (let i = 0; i < 40; i++) {
    if ((await focusedItem()).includes(folder)) break;
    await page.keyboard.press('ArrowDown');
  }
  await page.keyboard.press('Enter');
  await expect(dialog.getByRole('status')).toHaveText(`“Second kept” goes into “demo/${folder}”.`);
  for (let i = 0; i < 6; i++) {
    const label = await page.evaluate(() => document.activeElement?.textContent ?? '');
    if (label === 'Restore here') break;
    await page.keyboard.press('Tab');
  }
  await page.keyboard.press('Enter');
  await expect(page.getByRole('region', { name: 'Notifications' })).toContainText(
    `It is at demo/${folder}/kb-second-${id} again.`,
  );
  await expect(second).toHaveCount(0);
  // The row that took its place has the focus, not the page's body.
  await expect(first.getByRole('button', { name: 'Restore', exact: true })).toBeFocused();
  expect((await api.get(`/cms/rest/pages/by-path/demo/${folder}/kb-second-${id}`)).status()).toBe(200);

  expect((await api.delete(`/cms/rest/trash/${trashIds[0]}`)).status()).toBe(200);
  expect(
    (await api.delete(`/cms/rest/folders/by-path/demo/${folder}?includeSubFolders=true&purge=true`)).status(),
  ).toBe(200);
  await api.dispose();
});
