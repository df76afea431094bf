import { expect, test, type APIRequestContext } from '@playwright/test';
import { adminApi } from './support/users';

/*
 * What happens to an editor's unsaved or refused edits: leaving a template with unsaved changes asks first (as the
 * page editor does), and a save the server refuses for named fields puts the focus on the first of them.
 */

async function templateOf(api: APIRequestContext, name: string) {
  const res = await api.get(`/cms/rest/templates/${name}`);
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as { label: string; description: string };
}

test('an admin leaving a template with unsaved changes is asked: stay, save and leave, or discard', async ({
  page,
  playwright,
}) => {
  const api = await adminApi(playwright, test.info().project.use.baseURL!);
  const name = `guarded-${Date.now().toString(36)}`;
  const created = await api.put(`/cms/rest/templates/${name}`, {
    data: { label: 'Guarded', description: 'Before', regions: [{ name: 'main', editable: true, widgets: [] }] },
    headers: { 'if-none-match': '*' },
  });
  expect(created.status(), await created.text()).toBe(201);

  await page.goto(`/templates/${name}`);
  const description = page.getByLabel('Description');
  await description.fill('After');
  const guard = page.getByRole('dialog', { name: 'Leave without saving?' });

  // Stay: nothing is lost, the person is still in the editor.
  await page.getByRole('button', { name: 'Back to templates' }).click();
  await expect(guard).toBeVisible();
  await expect(guard).toContainText('the template “Guarded”');
  await guard.getByRole('button', { name: 'Stay here' }).click();
  await expect(guard).toHaveCount(0);
  await expect(page).toHaveURL(new RegExp(`/templates/${name}$`));
  await expect(description).toHaveValue('After');

  // Save and leave: saved, then on to where they were going.
  await page.getByRole('button', { name: 'Back to templates' }).click();
  await guard.getByRole('button', { name: 'Save and leave' }).click();
  await expect(page).toHaveURL(/\/templates$/);
  expect((await templateOf(api, name)).description).toBe('After');

  // Discard: nothing saved.
  await page.goto(`/templates/${name}`);
  await page.getByLabel('Label').fill('Changed');
  await page.getByRole('button', { name: 'Back to templates' }).click();
  await guard.getByRole('button', { name: 'Leave and discard changes' }).click();
  await expect(page).toHaveURL(/\/templates$/);
  expect((await templateOf(api, name)).label).toBe('Guarded');

  // Once saved, leaving asks nothing.
  await page.goto(`/templates/${name}`);
  await page.getByLabel('Label').fill('Saved label');
  await page.getByRole('button', { name: 'Save template' }).click();
  await expect(page.getByRole('region', { name: 'Notifications' })).toContainText('Saved template “Saved label”');
  await page.getByRole('button', { name: 'Back to templates' }).click();
  await expect(page).toHaveURL(/\/templates$/);
  await expect(guard).toHaveCount(0);
  await api.delete(`/cms/rest/templates/${name}`);
});

test('a save of properties refused for two named fields shows both and focuses the first', async ({ page }) => {
  await page.goto('/sites/demo');
  const form = page.getByRole('form', { name: 'Properties' });
  await expect(form).toBeVisible();
  // The server's answer is made up here (nothing is changed): the app checks these fields as the server does,
  // so a real refusal comes only from rules the app does not know yet.
  await page.route('**/cms/rest/folders/by-path/demo', (route) =>
    route.request().method() === 'PUT'
      ? route.fulfill({
          status: 400,
          contentType: 'application/problem+json',
          body: JSON.stringify({
            type: 'https://folio.dev/problems/invalid-body',
            title: 'Invalid body',
            status: 400,
            detail: 'The request body is invalid.',
            code: 'INVALID_BODY',
            errors: [
              { path: 'body.sectionInfo.displayTitle', message: 'must not name another site' },
              { path: 'body.sectionInfo.navClass', message: 'must be a CSS class name' },
            ],
          }),
        })
      : route.continue(),
  );
  await form.getByLabel('Navigation class').fill('not a class');
  await form.getByLabel('Display title').fill('Another site');
  await page.getByRole('button', { name: 'Save properties' }).focus();
  await page.keyboard.press('Enter');

  const title = form.getByLabel('Display title');
  await expect(title).toBeFocused();
  await expect(title).toHaveAttribute('aria-invalid', 'true');
  await expect(form.getByLabel('Navigation class')).toHaveAttribute('aria-invalid', 'true');
  await expect(form).toContainText('Must not name another site.');
  await expect(form).toContainText('Must be a CSS class name.');
});
