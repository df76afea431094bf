import { expect, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { ADMIN_STORAGE_STATE } from './support/env';
import { signInThroughForm } from './support/sign-in';
import { adminApi, createUser } from './support/users';

/*
 * Working together on one page from two browsers: who else has it open shows, the first change takes the check-out
 * lease, someone else can take it over with a warning and the holder is told, and a late save's conflict dialog
 * names who saved and marks the words that changed.
 */

let api: APIRequestContext;
let bob: { username: string; password: string };
const FOLDER = 'demo/e2e-leases';
const PAGE = `${FOLDER}/together`;

test.beforeAll(async ({ baseURL, playwright }) => {
  api = await adminApi(playwright, baseURL!);
  await api.delete(`/cms/rest/folders/by-path/${FOLDER}?includeSubFolders=true`);
  expect((await api.put(`/cms/rest/folders/by-path/${FOLDER}`, { data: {} })).status()).toBeLessThan(300);
  bob = await createUser(api, 'bob', 'Editor');
});
test.beforeEach(async () => {
  await api.delete(`/cms/rest/pages/by-path/${PAGE}`);
  const res = await api.put(`/cms/rest/pages/by-path/${PAGE}`, {
    data: { templateName: 'article', displayName: 'Opening hours of the shop' },
  });
  expect(res.status(), await res.text()).toBe(201);
});
test.afterAll(async () => {
  await api.delete(`/cms/rest/folders/by-path/${FOLDER}?includeSubFolders=true`);
  await api.dispose();
});

/** Bob in a browser of his own (no admin session). */
async function bobsPage(browser: Browser, baseURL: string): Promise<Page> {
  const context = await browser.newContext({ baseURL, storageState: { cookies: [], origins: [] } });
  const page = await context.newPage();
  await page.goto('/sign-in');
  await signInThroughForm(page, bob.username, bob.password);
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
  return page;
}

/** Admin's first change on `page` takes the check-out lease (the page's workflow names him). */
async function changeAndHold(page: Page) {
  await editDisplayName(page, 'Opening hours');
  await expect
    .poll(async () => (await (await api.get(`/cms/rest/pages/by-path/${PAGE}`)).json()).workflow.checkedOutUser)
    .toBe('admin');
}

/** Bob opens the page admin holds: admin shows as editing, and the fields are read-only. */
async function openAsReader(browser: Browser, baseURL: string): Promise<Page> {
  const other = await bobsPage(browser, baseURL);
  await other.goto(`/pages/${PAGE}`);
  await expect(other.getByText(/^admin is editing since /)).toBeVisible();
  await other.getByRole('tab', { name: 'Properties' }).click();
  await expect(other.getByLabel('Display name')).not.toBeEditable();
  return other;
}

async function editDisplayName(page: Page, value: string) {
  await page.getByRole('tab', { name: 'Properties' }).click();
  const name = page.getByLabel('Display name');
  await name.fill(value);
}

test('presence shows, the first change takes the lease, and a takeover is told to the holder', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  await page.goto(`/pages/${PAGE}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Opening hours of the shop' })).toBeVisible();
  // Opening takes nothing.
  const before = await (await api.get(`/cms/rest/leases/page/${PAGE}`)).json();
  expect(before.lease).toBeNull();

  // Admin's first change takes the lease.
  await changeAndHold(page);

  // Bob opens it: he sees admin there, editing, read-only, and may take over behind a warning.
  const other = await openAsReader(browser, baseURL!);
  await expect(other.getByRole('list', { name: 'Who else has this page open' })).toContainText('admin is editing');
  await other.getByRole('button', { name: 'Take over…' }).click();
  const confirm = other.getByRole('alertdialog', { name: 'Take over from admin?' });
  await expect(confirm).toContainText('they lose their check-out');
  await confirm.getByRole('button', { name: 'Take over' }).click();
  await expect(confirm).toBeHidden();
  await expect(other.getByText(/^admin is editing since /)).toBeHidden();
  await expect(other.getByLabel('Display name')).toBeEditable();
  await expect
    .poll(async () => (await (await api.get(`/cms/rest/pages/by-path/${PAGE}`)).json()).workflow.checkedOutUser)
    .toBe(bob.username);

  // Admin's editor learns it at once (the lease's live event, not the next 30 s renewal), says so, and is read-only.
  await expect(page.getByText(`${bob.username} took over this page`)).toBeVisible({ timeout: 10_000 });
  await expect(page.getByLabel('Display name')).not.toBeEditable();
  await expect(page.getByRole('list', { name: 'Who else has this page open' })).toContainText(
    `${bob.username} is editing`,
  );
  await other.context().close();
});

test('a late save shows who saved, when, and the changed words; keep both is the default', async ({ page }) => {
  await page.goto(`/pages/${PAGE}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Opening hours of the shop' })).toBeVisible();
  // Bob saves a new title while admin has the page open without a change yet.
  const bobApi = await page.context().request;
  const bobAuth = `Basic ${Buffer.from(`${bob.username}:${bob.password}`).toString('base64')}`;
  const put = await bobApi.put(`/cms/rest/pages/by-path/${PAGE}`, {
    headers: { authorization: bobAuth, 'x-requested-with': 'XMLHttpRequest' },
    data: { templateName: 'article', displayName: 'Opening hours of the corner shop' },
  });
  expect(put.status(), await put.text()).toBe(200);

  // Admin changes another field and saves: the conflict dialog names bob and marks his words.
  await page.getByRole('tab', { name: 'Properties' }).click();
  await page.getByLabel('Summary').fill('When we are open.');
  await page.getByRole('button', { name: /^Save/ }).click();
  const dialog = page.getByRole('dialog', { name: new RegExp(`^${bob.username} saved this at `) });
  await expect(dialog).toBeVisible();
  await expect(dialog.locator('ins', { hasText: 'corner' })).toBeVisible();
  await expect(dialog).toContainText('Opening hours of the corner shop');
  await expect(dialog.getByRole('button', { name: 'Overwrite with mine' })).toHaveCount(0);
  const keep = dialog.getByRole('button', { name: 'Keep both' });
  await expect(keep).toBeFocused();
  await keep.click();
  await expect(dialog).toBeHidden();
  await expect
    .poll(async () => {
      const stored = await (await api.get(`/cms/rest/pages/by-path/${PAGE}`)).json();
      return [stored.displayName, stored.summary];
    })
    .toEqual(['Opening hours of the corner shop', 'When we are open.']);
});

test("closing the holder's tab ends the lease: the reader may edit at once", async ({ browser, baseURL }) => {
  test.setTimeout(120_000);
  // Admin, in a tab of his own, changes the page: he holds the lease.
  const adminContext = await browser.newContext({ baseURL, storageState: ADMIN_STORAGE_STATE });
  const holder = await adminContext.newPage();
  await holder.goto(`/pages/${PAGE}`);
  await expect(holder.getByRole('heading', { level: 1, name: 'Opening hours of the shop' })).toBeVisible();
  await changeAndHold(holder);

  // Bob sees it read-only.
  const other = await openAsReader(browser, baseURL!);

  // Admin closes his tab (pagehide sends the release): bob's editor learns it from the live event.
  await holder.close({ runBeforeUnload: true });
  await expect(other.getByText(/^admin is editing since /)).toBeHidden({ timeout: 10_000 });
  await expect(other.getByLabel('Display name')).toBeEditable();
  const lease = await (await api.get(`/cms/rest/leases/page/${PAGE}`)).json();
  expect(lease.lease).toBeNull();
  await other.context().close();
  await adminContext.close();
});
