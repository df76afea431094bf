import { expect, test } from '@playwright/test';
import { SIGNED_OUT } from './support/env';
import { signInThroughForm } from './support/sign-in';
import { adminApi, createUser } from './support/users';

test.use({ storageState: SIGNED_OUT });

test('a user changes their own password and signs in with it; the old one no longer works', async ({
  page,
  playwright,
}) => {
  const api = await adminApi(playwright, test.info().project.use.baseURL!);
  const user = await createUser(api, 'writer', 'Contributor');
  const newPassword = `${user.password}-2`;

  await page.goto('/sign-in');
  await signInThroughForm(page, user.username, user.password);
  await expect(page.getByRole('heading', { level: 1, name: 'Sites' })).toBeVisible();

  // The signed-in name in the header leads to the account.
  await page
    .getByRole('banner')
    .getByRole('link', { name: new RegExp(`^${user.username}: your account`) })
    .click();
  await expect(page.getByRole('heading', { level: 1, name: 'Your account' })).toBeVisible();

  // A wrong current password is said on its field; nothing changes and the session stays.
  await page.getByLabel('Current password').fill('not-my-password');
  await page.getByLabel('New password', { exact: true }).fill(newPassword);
  await page.getByLabel('Repeat the new password').fill(newPassword);
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText('The current password is wrong.')).toBeVisible();
  await expect(page.getByLabel('Current password')).toBeFocused();

  await page.getByLabel('Current password').fill(user.password);
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByRole('region', { name: 'Notifications' })).toContainText('Password changed');
  await expect(page.getByLabel('Current password')).toHaveValue('');

  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/sign-in$/);
  await signInThroughForm(page, user.username, user.password);
  await expect(page.getByText('Wrong username or password.')).toBeVisible();
  await signInThroughForm(page, user.username, newPassword);
  await expect(page.getByRole('heading', { level: 1, name: 'Sites' })).toBeVisible();

  expect((await api.delete(`/cms/rest/users/${user.username}`)).status()).toBe(200);
  await api.dispose();
});
