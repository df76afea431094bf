import { expect, test, type Page } from '@playwright/test';
import { SIGNED_OUT } from './support/env';
import { expectSignedInAs, signInThroughForm } from './support/sign-in';
import { adminApi, createUser } from './support/users';

const tree = (page: Page) => page.getByRole('tree', { name: 'Sites and asset library' });
const treeItem = (page: Page, name: string) => tree(page).getByRole('treeitem', { name, exact: true });

/** Opens the site `demo` in the tree (its chevron) and waits for its children. */
async function openDemo(page: Page) {
  await page.goto('/sites/demo');
  const row = treeItem(page, 'Home (demo), site');
  if ((await row.getAttribute('aria-expanded')) !== 'true') await row.locator('button[slot="chevron"]').click();
  await expect(row).toHaveAttribute('aria-expanded', 'true');
}

test('an item another editor creates appears in my tree, and goes when they delete it', async ({
  page,
  browser,
  playwright,
  baseURL,
}) => {
  const api = await adminApi(playwright, baseURL!);
  const editor = await createUser(api, 'live-editor', 'Editor');
  const name = `live-${Date.now().toString(36)}`;

  // I (admin) look at the site's tree.
  await openDemo(page);

  // Someone else creates a folder: it appears in my tree without a reload.
  const asEditor = `Basic ${Buffer.from(`${editor.username}:${editor.password}`).toString('base64')}`;
  const created = await api.put(`/cms/rest/folders/by-path/demo/${name}`, {
    data: {},
    headers: { authorization: asEditor },
  });
  expect(created.status(), await created.text()).toBe(201);
  await expect(treeItem(page, `${name}, folder`)).toBeVisible();

  // The editor, in a browser of their own, deletes it through the explorer.
  const other = await browser.newContext({ storageState: SIGNED_OUT });
  const theirs = await other.newPage();
  await theirs.goto('/sign-in');
  await signInThroughForm(theirs, editor.username, editor.password);
  await expectSignedInAs(theirs, editor.username);
  await openDemo(theirs);
  const row = treeItem(theirs, `${name}, folder`);
  await row.click({ button: 'right' });
  await theirs.getByRole('menu').getByRole('menuitem', { name: 'Delete…' }).click();
  const confirm = theirs.getByRole('alertdialog', { name: `Delete folder “${name}”?` });
  await confirm.getByRole('button', { name: 'Delete folder' }).click();
  await expect(confirm).toBeHidden();
  await expect(treeItem(theirs, `${name}, folder`)).toHaveCount(0);

  // It goes from my tree too, without a reload.
  await expect(treeItem(page, `${name}, folder`)).toHaveCount(0);
  await other.close();
  await api.dispose();
});

test('an open page editor says at once when someone else saved the page', async ({ page, playwright, baseURL }) => {
  const api = await adminApi(playwright, baseURL!);
  const editor = await createUser(api, 'live-saver', 'Editor');
  const name = `live-page-${Date.now().toString(36)}`;
  // A folder of its own: other specs rename and delete the demo's folders.
  const folder = `${name}-f`;
  expect((await api.put(`/cms/rest/folders/by-path/demo/${folder}`, { data: {} })).status()).toBe(201);
  const created = await api.put(`/cms/rest/pages/by-path/demo/${folder}/${name}`, {
    data: { templateName: 'article', displayName: 'Before' },
  });
  expect(created.status(), await created.text()).toBe(201);

  await page.goto(`/pages/demo/${folder}/${name}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Before' })).toBeVisible();

  const basic = `Basic ${Buffer.from(`${editor.username}:${editor.password}`).toString('base64')}`;
  const saved = await api.put(`/cms/rest/pages/by-path/demo/${folder}/${name}`, {
    data: { templateName: 'article', displayName: 'After' },
    headers: { authorization: basic },
  });
  expect(saved.status(), await saved.text()).toBe(200);

  const banner = page.getByRole('status').filter({ hasText: `Saved by ${editor.username} at` });
  await expect(banner).toBeVisible();
  // Their version, with the way to load it.
  await banner.getByRole('button', { name: 'See the changes' }).click();
  // The conflict dialog names who saved and when.
  const dialog = page.getByRole('dialog', { name: new RegExp(`^${editor.username} saved this at `) });
  await expect(dialog).toContainText('After');
  await api.dispose();
});

test('a save made while the tab was still connecting its event stream is not missed', async ({
  page,
  playwright,
  baseURL,
}) => {
  const api = await adminApi(playwright, baseURL!);
  const editor = await createUser(api, 'late-saver', 'Editor');
  const name = `late-page-${Date.now().toString(36)}`;
  const folder = `${name}-f`;
  expect((await api.put(`/cms/rest/folders/by-path/demo/${folder}`, { data: {} })).status()).toBe(201);
  const url = `/cms/rest/pages/by-path/demo/${folder}/${name}`;
  expect((await api.put(url, { data: { templateName: 'article', displayName: 'Before' } })).status()).toBe(201);

  // The stream connects only after the page was read and someone else saved it.
  let connect!: () => void;
  const saved = new Promise<void>((resolve) => (connect = resolve));
  const streams: string[] = [];
  await page.route('**/cms/rest/events**', async (route) => {
    streams.push(route.request().url());
    await saved;
    await route.continue();
  });
  await page.goto(`/pages/demo/${folder}/${name}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Before' })).toBeVisible();
  const basic = `Basic ${Buffer.from(`${editor.username}:${editor.password}`).toString('base64')}`;
  const res = await api.put(url, {
    data: { templateName: 'article', displayName: 'After' },
    headers: { authorization: basic },
  });
  expect(res.status(), await res.text()).toBe(200);
  connect();

  await expect(page.getByRole('status').filter({ hasText: `Saved by ${editor.username} at` })).toBeVisible();
  // It started where the log stood when the session was read.
  expect(streams[0]).toMatch(/\/cms\/rest\/events\?after=\d+$/);
  await api.dispose();
});
