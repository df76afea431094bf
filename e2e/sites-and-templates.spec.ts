import { expect, test } from '@playwright/test';
import { SIGNED_OUT } from './support/env';
import { signInThroughForm } from './support/sign-in';
import { adminApi, createUser } from './support/users';

test('an admin creates a site from the Sites screen and it opens', async ({ page, playwright }) => {
  const api = await adminApi(playwright, test.info().project.use.baseURL!);
  const suffix = Date.now().toString(36);
  await page.goto('/sites');
  await page.getByRole('button', { name: 'New site' }).click();
  const dialog = page.getByRole('dialog', { name: 'New site' });
  await dialog.getByLabel('Display title').fill(`Intranet ${suffix}`);
  await expect(dialog.getByLabel('Name', { exact: true })).toHaveValue(`intranet-${suffix}`);
  await dialog.getByRole('button', { name: /Home page template/ }).click();
  await page.getByRole('option', { name: /^Article/ }).click();
  await dialog.getByRole('button', { name: 'Create site' }).click();
  await expect(dialog).toBeHidden();

  await expect(page).toHaveURL(new RegExp(`/sites/intranet-${suffix}$`));
  await expect(page.getByRole('heading', { level: 1, name: `Intranet ${suffix}` })).toBeVisible();
  const home = await api.get(`/cms/rest/pages/by-path/intranet-${suffix}/index`);
  expect(((await home.json()) as { templateName: string }).templateName).toBe('article');

  // The card on the Sites screen opens it.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sites' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Sites' })).toBeVisible();
  await page
    .getByRole('list', { name: 'Sites' })
    .getByRole('link', { name: `Intranet ${suffix}` })
    .click();
  await expect(page).toHaveURL(new RegExp(`/sites/intranet-${suffix}$`));

  expect((await api.delete(`/cms/rest/folders/by-path/intranet-${suffix}?includeSubFolders=true`)).status()).toBe(200);
  await api.dispose();
});

test('an admin creates a template with regions, renames and reorders one, and sees what uses it before deleting', async ({
  page,
  playwright,
}) => {
  const api = await adminApi(playwright, test.info().project.use.baseURL!);
  const name = `event-${Date.now().toString(36)}`;
  await page.goto('/templates');
  await page.getByRole('link', { name: 'New template' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'New template' })).toBeVisible();
  await page.getByLabel('Label').fill(`Event ${name}`);
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue(`event-${name}`);
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByLabel('Description').fill('For events: a title, the programme and a map.');
  // header (fixed), main (filled by pages), footer (fixed) to start with; add one more filled region, which goes
  // before the footer.
  await page.getByRole('button', { name: 'Add region' }).click();
  await expect(page.getByLabel('Name of region 3')).toBeFocused();
  await page.keyboard.type('map');
  await page.getByRole('button', { name: 'Move region “map” down' }).click();
  // Last now, so Move down is off and the focus is on Move up.
  await expect(page.getByRole('button', { name: 'Move region “map” up' })).toBeFocused();
  await page.getByRole('button', { name: 'Move region “map” up' }).click();
  await expect(page.getByRole('button', { name: 'Move region “map” up' })).toBeFocused();
  await page.getByRole('button', { name: 'Create template' }).click();

  await expect(page).toHaveURL(new RegExp(`/templates/${name}$`));
  await expect(page.getByRole('heading', { level: 1, name: `Event ${name}` })).toBeVisible();
  let stored = (await (await api.get(`/cms/rest/templates/${name}`)).json()) as {
    regions: { name: string; editable: boolean }[];
  };
  expect(stored.regions.map((r) => [r.name, r.editable])).toEqual([
    ['header', false],
    ['main', true],
    ['map', true],
    ['footer', false],
  ]);

  // A page holds content in "main"; renaming "main" keeps it.
  const pageRes = await api.put(`/cms/rest/pages/by-path/demo/${name}-page`, {
    data: {
      templateName: name,
      displayName: 'Summer fair',
      body: [
        {
          name: 'main',
          type: 'PAGE',
          editable: true,
          widgets: [
            { type: 'cmsRichText', scope: 'local', editable: true, asset: { fields: { text: '<p>Fair</p>' } } },
          ],
        },
      ],
    },
  });
  expect(pageRes.status()).toBe(201);
  await page.reload();
  await page.getByLabel('Name of region 2').fill('programme');
  await expect(page.getByText('Renamed from “main”: pages keep what they hold in it.')).toBeVisible();
  await page.getByRole('button', { name: 'Save template' }).click();
  await expect(page.getByRole('region', { name: 'Notifications' })).toContainText(`Saved template “Event ${name}”`);
  stored = (await (await api.get(`/cms/rest/templates/${name}`)).json()) as typeof stored;
  expect(stored.regions.map((r) => r.name)).toEqual(['header', 'programme', 'map', 'footer']);
  const fair = (await (await api.get(`/cms/rest/pages/by-path/demo/${name}-page`)).json()) as {
    body: { name: string; widgets: unknown[] }[];
  };
  expect(fair.body.find((r) => r.name === 'programme')?.widgets).toHaveLength(1);

  // Fixing "programme" would drop the page's content: refused, with the page named as a link.
  await page.getByRole('switch', { name: 'Filled by pages' }).nth(1).press('Space');
  await expect(page.getByRole('switch', { name: 'Filled by pages' }).nth(1)).not.toBeChecked();
  await page.getByRole('button', { name: 'Save template' }).click();
  await expect(page.getByText('Pages hold content there')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Summer fair' })).toBeVisible();

  // Deleting it while the page uses it is refused the same way.
  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  const confirm = page.getByRole('alertdialog', { name: `Delete template “Event ${name}”?` });
  await confirm.getByRole('button', { name: 'Delete template' }).click();
  await expect(confirm.getByRole('link', { name: 'Summer fair' })).toBeVisible();
  await expect(confirm.getByRole('button', { name: 'Delete template' })).toBeDisabled();
  // The refused button gave the focus back to Cancel, not to the page behind the dialog.
  await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await expect(confirm.getByRole('alert')).toContainText('Nothing was deleted.');
  await confirm.getByRole('button', { name: 'Cancel' }).click();

  // In the trash, the page still holds the delete back (it would come back without its template), and says where.
  const trashed = await api.delete(`/cms/rest/pages/by-path/demo/${name}-page`);
  expect(trashed.status()).toBe(200);
  const { trashId } = (await trashed.json()) as { trashId: string };
  await page.goto('/templates');
  await page.getByRole('button', { name: `Actions for Event ${name}` }).click();
  await page.getByRole('menuitem', { name: 'Delete…' }).click();
  const again = page.getByRole('alertdialog', { name: `Delete template “Event ${name}”?` });
  await again.getByRole('button', { name: 'Delete template' }).click();
  const inTrash = again.getByRole('list', { name: 'In the trash' });
  await expect(inTrash).toContainText(`Summer fair deleted from demo/${name}-page`);
  await expect(again.getByRole('link', { name: 'Trash' })).toHaveAttribute('href', '/trash');
  await expect(again.getByRole('button', { name: 'Delete template' })).toBeDisabled();
  await again.getByRole('button', { name: 'Cancel' }).click();
  // Gone for good, it no longer does.
  expect((await api.delete(`/cms/rest/trash/${trashId}`)).status()).toBe(200);
  await page.getByRole('button', { name: `Actions for Event ${name}` }).click();
  await page.getByRole('menuitem', { name: 'Delete…' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete template' }).click();
  await expect(page.getByRole('region', { name: 'Notifications' })).toContainText(`Deleted template “Event ${name}”`);
  expect((await api.get(`/cms/rest/templates/${name}`)).status()).toBe(404);
  await api.dispose();
});

test('an editor is offered neither a new site nor templates', async ({ browser, playwright }) => {
  const baseURL = test.info().project.use.baseURL!;
  const api = await adminApi(playwright, baseURL);
  const editor = await createUser(api, 'editor', 'Editor');
  const context = await browser.newContext({ baseURL, storageState: SIGNED_OUT });
  const page = await context.newPage();
  await page.goto('/sign-in');
  await signInThroughForm(page, editor.username, editor.password);
  await expect(page.getByRole('heading', { level: 1, name: 'Sites' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Home' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'New site' })).toHaveCount(0);
  const menu = page.getByRole('navigation', { name: 'Main' });
  await expect(menu.getByRole('link', { name: 'Sites' })).toBeVisible();
  await expect(menu.getByRole('link', { name: 'Templates' })).toHaveCount(0);

  await page.goto('/templates');
  await expect(page.getByText('Admins only')).toBeVisible();
  await expect(page.getByRole('link', { name: 'New template' })).toHaveCount(0);
  await context.close();
  expect((await api.delete(`/cms/rest/users/${editor.username}`)).status()).toBe(200);
  await api.dispose();
});

test('a template named “new” opens like any other; creating one has a URL no name can take', async ({
  page,
  playwright,
}) => {
  const api = await adminApi(playwright, test.info().project.use.baseURL!);
  const made = await api.put('/cms/rest/templates/new', {
    data: {
      label: 'Newsletter',
      description: 'A template whose name is new',
      regions: [{ name: 'main', editable: true }],
    },
  });
  expect(made.status()).toBe(201);
  await page.goto('/templates/new');
  await expect(page.getByRole('heading', { level: 1, name: /Newsletter/ })).toBeVisible();
  await page.goto('/templates');
  await page.getByRole('link', { name: 'New template' }).click();
  await expect(page).toHaveURL(/\/templates\?new$/);
  await expect(page.getByRole('heading', { level: 1, name: 'New template' })).toBeVisible();
  expect((await api.delete('/cms/rest/templates/new')).status()).toBe(200);
  await api.dispose();
});
