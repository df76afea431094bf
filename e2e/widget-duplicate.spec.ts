import { expect, test } from '@playwright/test';
import { adminApi } from './support/users';

/* Duplicating a widget in the page editor: the copy is content of its own, under a name of its own. */

const PAGE_PATH = 'demo/duplicate-e2e/contact';
const FORM_DATA = JSON.stringify({ config: {}, fields: [{ type: 'text', name: 'email', label: 'E-mail' }] });

test.beforeAll(async ({ baseURL, playwright }) => {
  const api = await adminApi(playwright, baseURL!);
  expect([200, 204, 404]).toContain(
    (await api.delete('/cms/rest/folders/by-path/demo/duplicate-e2e?includeSubFolders=true&purge=true')).status(),
  );
  expect((await api.put('/cms/rest/folders/by-path/demo/duplicate-e2e', { data: {} })).status()).toBeLessThan(300);
  const form = {
    type: 'cmsForm',
    asset: { fields: { formuniquenamevalidator: 'contact-form', formtitle: 'Contact us', formdata: FORM_DATA } },
  };
  const created = await api.put(`/cms/rest/pages/by-path/${PAGE_PATH}`, {
    data: {
      templateName: 'two-column',
      displayName: 'Contact',
      body: [{ name: 'main', type: 'PAGE', widgets: [form] }],
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  await api.dispose();
});

test('an editor duplicates a form widget, and the copy gets a unique name of its own', async ({ page }) => {
  await page.goto(`/pages/${PAGE_PATH}`);
  const main = page.getByRole('region', { name: /^main\b/ }).getByRole('article');
  await expect(main).toHaveCount(1);
  await main
    .first()
    .getByRole('button', { name: /More actions/ })
    .click();
  await page.getByRole('menuitem', { name: 'Duplicate' }).click();
  await expect(main).toHaveCount(2);
  await expect(main.nth(0).getByRole('textbox', { name: 'Unique name' })).toHaveValue('contact-form');
  await expect(main.nth(1).getByRole('textbox', { name: 'Unique name' })).toHaveValue('contact-form-2');
  // The rest of the form is copied as it was.
  await expect(main.nth(1).getByRole('textbox', { name: 'Form title' })).toHaveValue('Contact us');

  // A copy of the copy takes the next free number.
  await main
    .nth(1)
    .getByRole('button', { name: /More actions/ })
    .click();
  await page.getByRole('menuitem', { name: 'Duplicate' }).click();
  await expect(main).toHaveCount(3);
  await expect(main.nth(2).getByRole('textbox', { name: 'Unique name' })).toHaveValue('contact-form-3');

  await page.keyboard.press('Control+s');
  await expect(page.getByText('All changes saved')).toBeVisible();
  const res = await page.request.get(`/cms/rest/pages/by-path/${PAGE_PATH}`);
  const saved = (await res.json()) as {
    body: { name: string; widgets: { asset: { fields: Record<string, string> } }[] }[];
  };
  const names = saved.body.find((r) => r.name === 'main')!.widgets.map((w) => w.asset.fields.formuniquenamevalidator);
  expect(names).toEqual(['contact-form', 'contact-form-2', 'contact-form-3']);
});
