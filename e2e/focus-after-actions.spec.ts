import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { adminApi } from './support/users';

/*
 * After an action removes the control that had the focus, the focus goes to the next sensible place — never to
 * the page itself, where the keyboard user is lost (and a shortcut reaches whatever listens on the document).
 */

let api: APIRequestContext;
const FOLDER = 'demo/e2e-focus';
const LIBRARY = 'Assets/e2e-focus';

test.beforeAll(async ({ baseURL, playwright }) => {
  api = await adminApi(playwright, baseURL!);
});

test.afterAll(async () => {
  await api.delete(`/cms/rest/folders/by-path/${FOLDER}?includeSubFolders=true`);
  await api.delete(`/cms/rest/folders/by-path/${LIBRARY}?includeSubFolders=true`);
  await api.dispose();
});

/** An empty `FOLDER`, whatever an earlier test left in it. */
async function resetFolder() {
  await api.delete(`/cms/rest/folders/by-path/${FOLDER}?includeSubFolders=true`);
  expect((await api.put(`/cms/rest/folders/by-path/${FOLDER}`, { data: {} })).status()).toBeLessThan(300);
}

async function createPage(path: string, data: object = {}) {
  const res = await api.put(`/cms/rest/pages/by-path/${path}`, {
    data: { templateName: 'article', displayName: path.split('/').pop(), ...data },
  });
  expect(res.status(), await res.text()).toBe(201);
}

/** The element that has the focus, described for a readable failure (BODY when it dropped to the page). */
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement;
    return el ? `${el.tagName}${el.getAttribute('data-path') ? ` ${el.getAttribute('data-path')}` : ''}` : 'none';
  });

test('after Reject in the page editor the focus stays on the workflow buttons', async ({ page }) => {
  await resetFolder();
  await createPage(`${FOLDER}/to-reject`, { workflow: { state: 'Review' } });
  await page.goto(`/pages/${FOLDER}/to-reject`);
  const workflow = page.getByRole('group', { name: 'Workflow' });
  await expect(page.getByText('Review', { exact: true })).toBeVisible();
  await workflow.getByRole('button', { name: 'Reject' }).focus();
  await page.keyboard.press('Enter');
  // The reason is asked first: the field has the focus, Ctrl+Enter rejects.
  const reason = page.getByRole('dialog', { name: 'Reject' }).getByRole('textbox', { name: 'Reason' });
  await expect(reason).toBeFocused();
  await page.keyboard.type('Not ready yet.');
  await page.keyboard.press('Control+Enter');
  await expect(page.getByText('Draft', { exact: true })).toBeVisible();
  await expect(workflow.getByRole('button', { name: 'Reject' })).toHaveCount(0);
  await expect.poll(() => focused(page)).toBe('BUTTON');
  await expect(workflow.getByRole('button').first()).toBeFocused();
});

test('deleting in the tree moves the focus to the next item, else the previous one, else the parent', async ({
  page,
}) => {
  await resetFolder();
  for (const name of ['alpha', 'beta', 'gamma']) await createPage(`${FOLDER}/${name}`);
  await page.goto(`/sites/${FOLDER}`);
  const tree = page.getByRole('tree', { name: 'Sites and asset library' });
  const row = (path: string) => tree.locator(`[data-path="${path}"]`);
  await row(FOLDER).locator('button[slot="chevron"]').click();
  await expect(row(`${FOLDER}/beta`)).toBeVisible();

  /** Deletes the page of the focused row with the keyboard: Delete, then Enter on the dialog's button. */
  const deleteWithKeyboard = async (name: string) => {
    await row(`${FOLDER}/${name}`).focus();
    await page.keyboard.press('Delete');
    const dialog = page.getByRole('alertdialog', { name: `Delete page “${name}”?` });
    await expect(dialog.getByRole('button', { name: 'Delete page' })).toBeEnabled();
    await dialog.getByRole('button', { name: 'Delete page' }).focus();
    await page.keyboard.press('Enter');
    await expect(dialog).toBeHidden();
    await expect(row(`${FOLDER}/${name}`)).toHaveCount(0);
  };

  await deleteWithKeyboard('beta');
  await expect.poll(() => focused(page)).toBe(`DIV ${FOLDER}/gamma`);
  await deleteWithKeyboard('gamma');
  await expect.poll(() => focused(page)).toBe(`DIV ${FOLDER}/alpha`);
  await deleteWithKeyboard('alpha');
  await expect.poll(() => focused(page)).toBe(`DIV ${FOLDER}`);
  // And the keyboard goes on from there.
  await page.keyboard.press('ArrowUp');
  await expect.poll(() => focused(page)).not.toBe(`DIV ${FOLDER}`);
  expect(await focused(page)).not.toBe('BODY');
});

test('closing the bulk result dialog puts the focus back on the assets', async ({ page }) => {
  for (const n of ['one', 'two', 'three']) {
    const res = await api.put(`/cms/rest/assets/by-path/${LIBRARY}/${n}`, {
      data: { type: 'cmsSimpleTextAsset', fields: { text: n } },
    });
    expect(res.status()).toBeLessThan(300);
  }
  await page.goto('/assets/e2e-focus');
  const grid = page.getByRole('grid', { name: 'Assets in e2e-focus' });
  await grid.focus();
  await page.keyboard.press('ControlOrMeta+a');
  const bar = page.getByRole('toolbar', { name: 'Selected assets' });
  await expect(bar).toContainText('All 3 selected');
  await bar.getByRole('button', { name: 'Publish' }).focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('button', { name: 'Close' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(dialog).toHaveCount(0);
  await expect(bar).toHaveCount(0);
  await expect.poll(() => grid.evaluate((el) => el.contains(document.activeElement))).toBe(true);
});
