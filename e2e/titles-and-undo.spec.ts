import { expect, test, type Page } from '@playwright/test';
import { SIGNED_OUT } from './support/env';
import { signInThroughForm } from './support/sign-in';
import { adminApi, createUser } from './support/users';

const tree = (page: Page) => page.getByRole('tree', { name: 'Sites and asset library' });
const treeItem = (page: Page, name: string) => tree(page).getByRole('treeitem', { name, exact: true });
const notifications = (page: Page) => page.getByRole('region', { name: 'Notifications' });

/** Every request that answered 404 from now on (after a rename, move or delete the app must not ask for the old path). */
function watchNotFound(page: Page): string[] {
  const seen: string[] = [];
  page.on('response', (res) => {
    if (res.status() === 404) seen.push(`${res.request().method()} ${new URL(res.url()).pathname}`);
  });
  return seen;
}

test('an editor finds “About us” and “Welcome” by their titles, in any case', async ({ browser, playwright }) => {
  const baseURL = test.info().project.use.baseURL!;
  const api = await adminApi(playwright, baseURL);
  const editor = await createUser(api, 'finder', 'Editor');
  const context = await browser.newContext({ baseURL, storageState: SIGNED_OUT });
  const page = await context.newPage();
  await page.goto('/sign-in');
  await signInThroughForm(page, editor.username, editor.password);
  await expect(page.getByRole('heading', { level: 1, name: 'Sites' })).toBeVisible();

  const find = page.getByRole('combobox', { name: 'Find by title or name' });
  await find.fill('about us');
  const options = page.getByRole('listbox').getByRole('option');
  // The section and its landing page are both called "About us"; each says what it is and where.
  await expect(options.filter({ hasText: 'Section “about” in demo' })).toHaveCount(1);
  await expect(options.filter({ hasText: 'Landing page' }).or(options.filter({ hasText: 'Page “index”' }))).toHaveCount(
    1,
  );
  await options.filter({ hasText: 'Section “about” in demo' }).click();
  await expect(page).toHaveURL(/\/sites\/demo\/about$/);
  await expect(page.getByRole('heading', { level: 1, name: 'About us' })).toBeVisible();
  await expect(treeItem(page, 'About us (about), section')).toHaveAttribute('aria-selected', 'true');

  await find.fill('WELCOME');
  await expect(page.getByRole('option', { name: 'Welcome to Folio' })).toBeVisible();
  await expect(page.getByRole('option', { name: 'Welcome to the Folio demo' })).toBeVisible();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: /^Welcome to/ })).toBeVisible();
  await expect(page).toHaveURL(/\/pages\/demo\/(articles\/welcome|index)$/);

  await context.close();
  expect((await api.delete(`/cms/rest/users/${editor.username}`)).status()).toBe(200);
  await api.dispose();
});

test('an editor moves a page with the keyboard and undoes it; the page keeps its id and nothing asks for old paths', async ({
  page,
  playwright,
}) => {
  test.setTimeout(90_000);
  const api = await adminApi(playwright, test.info().project.use.baseURL!);
  const folder = `minutes-${Date.now().toString(36)}`;
  expect((await api.put(`/cms/rest/folders/by-path/demo/${folder}`, { data: {} })).status()).toBe(201);
  const created = await api.put(`/cms/rest/pages/by-path/demo/${folder}/notes`, {
    data: { templateName: 'article', displayName: 'Meeting notes' },
  });
  expect(created.status()).toBe(201);
  const id = ((await created.json()) as { id: string }).id;
  const notFound = watchNotFound(page);

  await page.goto(`/pages/demo/${folder}/notes`);
  await expect(page.getByRole('heading', { level: 1, name: 'Meeting notes' })).toBeVisible();
  const row = treeItem(page, 'Meeting notes (notes), page');
  await expect(row).toHaveAttribute('aria-selected', 'true');

  // Keyboard: the row's menu (Shift+F10), "Move to…" by typing, the picker has the focus on the page's folder.
  await row.focus();
  await page.keyboard.press('Shift+F10');
  await expect(page.getByRole('menu')).toBeVisible();
  await page.keyboard.type('Move');
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Move page “Meeting notes”' });
  await expect(dialog.getByText('Choose where the page goes.')).toBeVisible();
  const picker = dialog.getByRole('tree', { name: 'Move to' });
  await expect(picker.getByRole('treeitem', { name: `${folder}, folder` })).toBeFocused();
  await page.keyboard.type('News');
  await expect(picker.getByRole('treeitem', { name: 'News (news), section' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(dialog.getByText(/goes into “demo\/news”/)).toBeVisible();
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await expect(dialog.getByRole('button', { name: 'Move here' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();

  // The screen follows the page, the focus is back on it in the tree, and the toast offers Undo.
  await expect(page).toHaveURL(/\/pages\/demo\/news\/notes$/);
  await expect(treeItem(page, 'Meeting notes (notes), page')).toBeFocused();
  await expect(notifications(page)).toContainText('Moved “Meeting notes” into “News”');
  expect(((await (await api.get('/cms/rest/pages/by-path/demo/news/notes')).json()) as { id: string }).id).toBe(id);

  await notifications(page).getByRole('button', { name: 'Undo' }).click();
  await expect(notifications(page)).toContainText(`Moved “Meeting notes” back to “demo/${folder}”`);
  await expect(page).toHaveURL(new RegExp(`/pages/demo/${folder}/notes$`));
  await expect(treeItem(page, 'Meeting notes (notes), page')).toBeVisible();
  const back = await api.get(`/cms/rest/pages/by-path/demo/${folder}/notes`);
  expect(back.status()).toBe(200);
  expect(((await back.json()) as { id: string }).id).toBe(id);
  expect((await api.get('/cms/rest/pages/by-path/demo/news/notes')).status()).toBe(404);

  // A rename, undone: the old name again.
  await page.goto(`/sites/demo/${folder}`);
  await expect(page.getByRole('heading', { level: 1, name: folder })).toBeVisible();
  await page.getByRole('button', { name: 'Rename' }).click();
  const rename = page.getByRole('dialog', { name: `Rename folder “${folder}”` });
  await rename.getByLabel('Name', { exact: true }).fill(`${folder}-old`);
  await rename.getByRole('button', { name: 'Rename' }).click();
  await expect(page).toHaveURL(new RegExp(`/sites/demo/${folder}-old$`));
  await notifications(page).getByRole('button', { name: 'Undo' }).first().click();
  await expect(page).toHaveURL(new RegExp(`/sites/demo/${folder}$`));
  await expect(page.getByRole('heading', { level: 1, name: folder })).toBeVisible();

  // The table of the folder: title, name, kind, state, who changed it.
  const table = page.getByRole('table', { name: new RegExp(`Contents of ${folder}`) });
  const pageRow = table.getByRole('row', { name: /Meeting notes/ });
  await expect(pageRow).toContainText('notes');
  await expect(pageRow).toContainText('Page');
  await expect(pageRow).toContainText('Draft');
  await expect(pageRow).toContainText('by admin');

  // Deleting the page puts it in the trash, and the toast says so; deleting the then empty folder can be undone.
  await pageRow.getByRole('button', { name: 'Actions for Meeting notes' }).click();
  await page.getByRole('menuitem', { name: 'Delete…' }).click();
  const confirmPage = page.getByRole('alertdialog', { name: 'Delete page “Meeting notes”?' });
  await confirmPage.getByRole('button', { name: 'Delete page' }).click();
  await expect(notifications(page)).toContainText('It is in the trash');
  await expect(page.getByText('Nothing here yet')).toBeVisible();
  await expect(page.getByRole('main').getByRole('button', { name: 'New page' })).toBeVisible();

  await page.getByRole('button', { name: 'Delete' }).click();
  const confirmFolder = page.getByRole('alertdialog', { name: `Delete folder “${folder}”?` });
  await expect(confirmFolder).toContainText(`“${folder}” is empty.`);
  await confirmFolder.getByRole('button', { name: 'Delete folder' }).click();
  await expect(page).toHaveURL(/\/sites\/demo$/);
  await expect(notifications(page)).toContainText('Undo puts it back where it was.');
  // The newest toast (the folder's) comes first; the page's, with an Undo of its own, is below it.
  await notifications(page).getByRole('button', { name: 'Undo' }).first().click();
  await expect(notifications(page)).toContainText(`Brought back folder “${folder}”`);
  await expect(treeItem(page, `${folder}, folder`)).toBeVisible();
  expect((await api.get(`/cms/rest/folders/by-path/demo/${folder}`)).status()).toBe(200);

  // No screen, tree row or dialog asked for a path that no longer existed.
  expect(notFound).toEqual([]);
  expect((await api.delete(`/cms/rest/folders/by-path/demo/${folder}`)).status()).toBe(200);
  await api.dispose();
});

test('an admin deletes an empty section and brings it back as it was: its place, properties and landing page', async ({
  page,
  playwright,
}) => {
  const api = await adminApi(playwright, test.info().project.use.baseURL!);
  const name = `events-${Date.now().toString(36)}`;
  const put = await api.put(`/cms/rest/folders/by-path/demo/${name}`, {
    data: { sectionInfo: { displayTitle: 'Events', templateName: 'article', targetWindow: '_blank', navClass: 'hot' } },
  });
  expect(put.status()).toBe(201);
  await api.put(`/cms/rest/pages/by-path/demo/${name}/index`, {
    data: { templateName: 'article', displayName: 'All our events', summary: 'What is on' },
  });
  // First in the navigation.
  const site = (await (await api.get('/cms/rest/folders/by-path/demo')).json()) as {
    subsections: { name: string; type: string; href: string }[];
  };
  const order = [name, ...site.subsections.map((e) => e.name).filter((n) => n !== name)];
  const entry = (n: string) => site.subsections.find((e) => e.name === n)!;
  expect((await api.put('/cms/rest/folders/by-path/demo', { data: { subsections: order.map(entry) } })).status()).toBe(
    200,
  );

  await page.goto(`/sites/demo/${name}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Events' })).toBeVisible();
  await page.getByRole('button', { name: 'Delete' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Delete section “Events”?' });
  await expect(confirm).toContainText('holds nothing but its landing page, which goes with it');
  await confirm.getByRole('button', { name: 'Delete section' }).click();
  await expect(page).toHaveURL(/\/sites\/demo$/);
  await notifications(page).getByRole('button', { name: 'Undo' }).click();
  await expect(notifications(page)).toContainText('Brought back section “Events”');

  const back = (await (await api.get(`/cms/rest/folders/by-path/demo/${name}`)).json()) as {
    sectionInfo: Record<string, unknown>;
  };
  expect(back.sectionInfo).toMatchObject({
    displayTitle: 'Events',
    templateName: 'article',
    targetWindow: '_blank',
    navClass: 'hot',
  });
  const landing = (await (await api.get(`/cms/rest/pages/by-path/demo/${name}/index`)).json()) as {
    displayName: string;
    summary: string;
  };
  expect([landing.displayName, landing.summary]).toEqual(['All our events', 'What is on']);
  const after = (await (await api.get('/cms/rest/folders/by-path/demo')).json()) as typeof site;
  expect(after.subsections.map((e) => e.name)).toEqual(order);
  await expect(
    page
      .getByRole('table', { name: /Contents of Home/ })
      .getByRole('row')
      .nth(1),
  ).toContainText('Events');

  expect((await api.delete(`/cms/rest/folders/by-path/demo/${name}`)).status()).toBe(200);
  await api.dispose();
});
