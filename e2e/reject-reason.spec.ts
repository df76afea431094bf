import { expect, test, type APIRequestContext } from '@playwright/test';
import { adminApi } from './support/users';

/*
 * Reject asks why: the reason is required, stays with the page, is shown to its author as plain text, and goes
 * when the page moves on (Submit).
 */

let api: APIRequestContext;
const FOLDER = 'demo/e2e-reject';
const PAGE = `${FOLDER}/needs-work`;
const LIBRARY = 'Assets/e2e-reject';

test.beforeAll(async ({ baseURL, playwright }) => {
  api = await adminApi(playwright, baseURL!);
  await api.delete(`/cms/rest/folders/by-path/${FOLDER}?includeSubFolders=true`);
  expect((await api.put(`/cms/rest/folders/by-path/${FOLDER}`, { data: {} })).status()).toBeLessThan(300);
  const res = await api.put(`/cms/rest/pages/by-path/${PAGE}`, {
    data: { templateName: 'article', displayName: 'Needs work', workflow: { state: 'Review' } },
  });
  expect(res.status(), await res.text()).toBe(201);
});
test.afterAll(async () => {
  await api.delete(`/cms/rest/folders/by-path/${FOLDER}?includeSubFolders=true`);
  await api.delete(`/cms/rest/folders/by-path/${LIBRARY}?includeSubFolders=true`);
  await api.dispose();
});

test('reject with a reason: the editor shows it to the author until the page is submitted again', async ({ page }) => {
  await page.goto(`/pages/${PAGE}`);
  const workflow = page.getByRole('group', { name: 'Workflow' });
  await workflow.getByRole('button', { name: 'Reject' }).click();
  const dialog = page.getByRole('dialog', { name: 'Reject' });
  const reason = dialog.getByRole('textbox', { name: 'Reason' });
  await expect(reason).toBeFocused();

  // Escape cancels: nothing is rejected, the focus is back on Reject.
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(workflow.getByRole('button', { name: 'Reject' })).toBeFocused();

  // A blank reason is refused in the dialog.
  await page.keyboard.press('Enter');
  await expect(reason).toBeFocused();
  await dialog.getByRole('button', { name: 'Reject' }).click();
  await expect(dialog).toBeVisible();
  await reason.fill('   ');
  await dialog.getByRole('button', { name: 'Reject' }).click();
  await expect(dialog.getByText('Say why it goes back to Draft.')).toBeVisible();

  // The reason is plain text, markup and all.
  await reason.fill('The <b>intro</b> is missing.');
  await reason.press('Control+Enter');
  await expect(dialog).toBeHidden();
  const notice = page.getByText(/^Rejected by admin on .+: The <b>intro<\/b> is missing\.$/);
  await expect(notice).toBeVisible();
  await expect(page.locator('b', { hasText: 'intro' })).toHaveCount(0);
  await expect(workflow.getByRole('button').first()).toBeFocused();

  const stored = await (await api.get(`/cms/rest/pages/by-path/${PAGE}`)).json();
  expect(stored.workflow).toMatchObject({ state: 'Draft', rejection: { reason: 'The <b>intro</b> is missing.' } });

  await workflow.getByRole('button', { name: /^Submit/ }).click();
  await expect(page.getByText('Review', { exact: true })).toBeVisible();
  await expect(notice).toHaveCount(0);
  const after = await (await api.get(`/cms/rest/pages/by-path/${PAGE}`)).json();
  expect(after.workflow.rejection).toBeNull();
});

test('the asset panel asks why on Reject and shows the reason to the author', async ({ page }) => {
  await api.delete(`/cms/rest/folders/by-path/${LIBRARY}?includeSubFolders=true`);
  const made = await api.put(`/cms/rest/assets/by-path/${LIBRARY}/motto`, {
    data: { type: 'cmsSimpleTextAsset', fields: { text: 'Hello' }, workflow: { state: 'Review' } },
  });
  expect(made.status(), await made.text()).toBeLessThan(300);
  await page.goto('/assets/e2e-reject?asset=motto');
  const workflow = page.getByRole('group', { name: 'Workflow of motto' });
  await workflow.getByRole('button', { name: 'Reject' }).click();
  const reason = page.getByRole('dialog', { name: 'Reject' }).getByRole('textbox', { name: 'Reason' });
  await expect(reason).toBeFocused();
  await page.keyboard.type('Too short.');
  await page.keyboard.press('Control+Enter');
  await expect(page.getByText(/^Rejected by admin on .+: Too short\.$/)).toBeVisible();
});
