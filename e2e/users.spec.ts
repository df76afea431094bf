import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { E2E_ADMIN_PASSWORD, SIGNED_OUT } from './support/env';
import { signInThroughForm } from './support/sign-in';
import { adminApi, createUser } from './support/users';

const basic = (username: string, password: string) =>
  `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;

/** Who the server says `username` is when signing in with `password` over HTTP Basic (status and role). */
async function whoAmI(request: APIRequestContext, username: string, password: string) {
  const res = await request.get('/cms/rest/auth/me', {
    headers: { authorization: basic(username, password), 'x-requested-with': 'XMLHttpRequest' },
  });
  return { status: res.status(), role: res.ok() ? ((await res.json()) as { role: string }).role : undefined };
}

function userRow(page: Page, username: string) {
  return page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: new RegExp(`^${username}`) }) });
}

async function openUserAction(page: Page, username: string, action: string) {
  await page.getByRole('button', { name: `Actions for ${username}` }).click();
  await page.getByRole('menuitem', { name: action }).click();
}

test('an admin creates a user, changes their role, resets their password and deletes them after confirming', async ({
  page,
  playwright,
}) => {
  const api = await playwright.request.newContext({ baseURL: test.info().project.use.baseURL });
  const username = `e2e-${Date.now().toString(36)}`;

  await page.goto('/users');
  await expect(page.getByRole('heading', { level: 1, name: 'Users' })).toBeVisible();
  await expect(userRow(page, 'admin')).toContainText('you');

  // Create, with the password typed twice.
  await page.getByRole('button', { name: 'New user' }).click();
  const create = page.getByRole('dialog', { name: 'New user' });
  await create.getByLabel('Username').fill(username);
  await create.getByLabel('Initial password').fill('first-password-1');
  await create.getByLabel('Repeat password').fill('first-password-1');
  await create.getByRole('button', { name: 'Create user' }).click();
  await expect(create).toBeHidden();
  await expect(page.getByRole('region', { name: 'Notifications' })).toContainText(`User ${username} created`);
  await expect(userRow(page, username)).toContainText('Viewer');
  expect(await whoAmI(api, username, 'first-password-1')).toEqual({ status: 200, role: 'Viewer' });

  // Change the role.
  await openUserAction(page, username, 'Change role…');
  const changeRole = page.getByRole('dialog', { name: `Change the role of ${username}` });
  await changeRole.getByRole('button', { name: /Role/ }).click();
  await page.getByRole('option', { name: 'Editor' }).click();
  await changeRole.getByRole('button', { name: 'Change role' }).click();
  await expect(changeRole).toBeHidden();
  await expect(userRow(page, username)).toContainText('Editor');
  // Focus returns to where the user started: the row's actions button.
  await expect(page.getByRole('button', { name: `Actions for ${username}` })).toBeFocused();
  expect(await whoAmI(api, username, 'first-password-1')).toEqual({ status: 200, role: 'Editor' });

  // Reset the password: the old one stops working.
  await openUserAction(page, username, 'Reset password…');
  const reset = page.getByRole('dialog', { name: `Reset the password of ${username}` });
  await reset.getByLabel('New password').fill('second-password-2');
  await reset.getByLabel('Repeat password').fill('second-password-2');
  await reset.getByRole('button', { name: 'Reset password' }).click();
  await expect(reset).toBeHidden();
  expect((await whoAmI(api, username, 'first-password-1')).status).toBe(401);
  expect(await whoAmI(api, username, 'second-password-2')).toEqual({ status: 200, role: 'Editor' });

  // Delete: cancelling keeps the user; confirming deletes them.
  await openUserAction(page, username, 'Delete…');
  const confirm = page.getByRole('alertdialog', { name: `Delete user ${username}?` });
  await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toBeHidden();
  await expect(userRow(page, username)).toHaveCount(1);

  await openUserAction(page, username, 'Delete…');
  await confirm.getByRole('button', { name: 'Delete user' }).click();
  await expect(confirm).toBeHidden();
  await expect(userRow(page, username)).toHaveCount(0);
  // The row is gone, so focus lands on the next sensible control instead of being lost.
  await expect(page.getByRole('button', { name: 'New user' })).toBeFocused();
  expect((await whoAmI(api, username, 'second-password-2')).status).toBe(401);
  await api.dispose();
});

test('the new-user form refuses a taken name and mismatched passwords before anything changes', async ({ page }) => {
  await page.goto('/users');
  await page.getByRole('button', { name: 'New user' }).click();
  const create = page.getByRole('dialog', { name: 'New user' });

  await create.getByLabel('Username').fill('admin');
  await create.getByLabel('Initial password').fill('a-long-password');
  await create.getByLabel('Repeat password').fill('another-password');
  await create.getByRole('button', { name: 'Create user' }).click();
  await expect(create.getByText('The passwords do not match.')).toBeVisible();

  await create.getByLabel('Repeat password').fill('a-long-password');
  await create.getByRole('button', { name: 'Create user' }).click();
  // PUT would overwrite the existing admin: the form refuses the name instead.
  await expect(create.getByText('is already taken by another user')).toBeVisible();
  await expect(create).toBeVisible();

  await page.keyboard.press('Escape');
  await expect(create).toBeHidden();
  await expect(page.getByRole('button', { name: 'New user' })).toBeFocused();
});

test('an admin cannot change their own role or delete themselves from the Users screen', async ({ page }) => {
  await page.goto('/users');
  await page.getByRole('button', { name: 'Actions for admin' }).click();
  await expect(page.getByRole('menuitem', { name: 'Change role…' })).toBeDisabled();
  await expect(page.getByRole('menuitem', { name: 'Delete…' })).toBeDisabled();
  await expect(page.getByRole('menuitem', { name: 'Reset password…' })).toBeEnabled();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('button', { name: 'Actions for admin' })).toBeFocused();
});

test('an admin resetting their own password on the Users screen gives the current one first', async ({
  playwright,
  browser,
}) => {
  const baseURL = test.info().project.use.baseURL!;
  const api = await adminApi(playwright, baseURL);
  // An admin of its own: the seeded one's sessions serve every other test.
  const me = await createUser(api, 'second-admin', 'Admin');
  const newPassword = `${me.password}-2`;
  const context = await browser.newContext({ baseURL, storageState: SIGNED_OUT });
  const page = await context.newPage();
  await page.goto('/sign-in');
  await signInThroughForm(page, me.username, me.password);
  await expect(page.getByRole('heading', { level: 1, name: 'Sites' })).toBeVisible();
  await page.goto('/users');

  await openUserAction(page, me.username, 'Reset password…');
  const reset = page.getByRole('dialog', { name: `Reset the password of ${me.username}` });
  await expect(reset).toContainText('enter your current password first');
  await reset.getByLabel('New password').fill(newPassword);
  await reset.getByLabel('Repeat password').fill(newPassword);
  await reset.getByRole('button', { name: 'Reset password' }).click();
  await expect(reset.getByText('Enter your current password.')).toBeVisible();

  // A wrong one is said on its field, and nothing changes.
  await reset.getByLabel('Your current password').fill('not-my-password');
  await reset.getByRole('button', { name: 'Reset password' }).click();
  await expect(reset.getByText('Your current password is wrong.')).toBeVisible();
  await expect(reset.getByLabel('Your current password')).toBeFocused();
  expect(await whoAmI(api, me.username, me.password)).toEqual({ status: 200, role: 'Admin' });

  await reset.getByLabel('Your current password').fill(me.password);
  await reset.getByRole('button', { name: 'Reset password' }).click();
  await expect(reset).toBeHidden();
  expect((await whoAmI(api, me.username, me.password)).status).toBe(401);
  expect(await whoAmI(api, me.username, newPassword)).toEqual({ status: 200, role: 'Admin' });

  await context.close();
  expect((await api.delete(`/cms/rest/users/${me.username}`)).status()).toBe(200);
  await api.dispose();
});

test('a non-admin sees no Users navigation and is told the screen is for admins', async ({ playwright, browser }) => {
  const baseURL = test.info().project.use.baseURL!;
  const admin = await playwright.request.newContext({
    baseURL,
    extraHTTPHeaders: { authorization: basic('admin', E2E_ADMIN_PASSWORD), 'x-requested-with': 'XMLHttpRequest' },
  });
  const username = `viewer-${Date.now().toString(36)}`;
  const created = await admin.put(`/cms/rest/users/${username}`, {
    data: { role: 'Viewer', password: 'viewer-password' },
  });
  expect(created.status()).toBe(201);

  const context = await browser.newContext({ baseURL, storageState: SIGNED_OUT });
  const page = await context.newPage();
  await page.goto('/sign-in');
  await signInThroughForm(page, username, 'viewer-password');
  await expect(page.getByRole('heading', { level: 1, name: 'Sites' })).toBeVisible();
  await expect(page.getByRole('banner')).toContainText('Viewer');
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Users' })).toHaveCount(0);

  await page.goto('/users');
  await expect(page.getByRole('alert')).toContainText('Only admins manage users.');

  await context.close();
  expect((await admin.delete(`/cms/rest/users/${username}`)).status()).toBe(200);
  await admin.dispose();
});
