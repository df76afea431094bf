import { expect, test } from '@playwright/test';
import { E2E_ADMIN_PASSWORD, SIGNED_OUT } from './support/env';
import { expectSignedInAs, signInThroughForm } from './support/sign-in';

// These flows sign in themselves, starting without a session.
test.use({ storageState: SIGNED_OUT });

test('a new user signs in with the seeded admin, sees the demo site, signs out', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveURL(/\/sign-in$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Sign in to Folio' })).toBeVisible();

  await signInThroughForm(page, 'admin', E2E_ADMIN_PASSWORD);

  await expect(page).toHaveURL(/\/sites$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Sites' })).toBeVisible();
  await expectSignedInAs(page, 'admin');
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sites' })).toHaveAttribute(
    'aria-current',
    'page',
  );
  // The demo content seeded on first start: the site named "demo".
  const sites = page.getByRole('list', { name: 'Sites' });
  await expect(sites.getByRole('listitem').filter({ has: page.locator('code', { hasText: /^demo$/ }) })).toHaveCount(1);

  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/sign-in$/);
  await expect(page.getByText('You have signed out.')).toBeVisible();

  // The session really ended on the server: the app asks for sign-in again after a reload.
  await page.goto('/sites');
  await expect(page).toHaveURL(/\/sign-in\?next=%2Fsites$/);
  const me = await page.request.get('/cms/rest/auth/me', { headers: { 'x-requested-with': 'XMLHttpRequest' } });
  expect(me.status()).toBe(401);
});

test('a wrong password shows an inline error without reloading the page', async ({ page }) => {
  await page.goto('/sign-in');
  // A marker that a full page load would wipe out.
  await page.evaluate(() => ((window as unknown as { folioMarker: string }).folioMarker = 'still-here'));

  await signInThroughForm(page, 'admin', 'not-the-password');

  const alert = page.getByRole('alert');
  await expect(alert).toContainText('Sign-in failed');
  await expect(alert).toContainText('Wrong username or password.');
  await expect(page).toHaveURL(/\/sign-in$/);
  expect(await page.evaluate(() => (window as unknown as { folioMarker?: string }).folioMarker)).toBe('still-here');
  // The username stays, the password is cleared and focused for the next try.
  await expect(page.getByLabel('Username')).toHaveValue('admin');
  await expect(page.getByLabel('Password', { exact: true })).toHaveValue('');
  await expect(page.getByLabel('Password', { exact: true })).toBeFocused();

  // Correcting the password signs in.
  await page.getByLabel('Password', { exact: true }).fill(E2E_ADMIN_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Sites' })).toBeVisible();
});

test('a deep link leads through sign-in and back to where the user was going', async ({ page }) => {
  await page.goto('/users');
  await expect(page).toHaveURL(/\/sign-in\?next=%2Fusers$/);
  await signInThroughForm(page, 'admin', E2E_ADMIN_PASSWORD);
  await expect(page).toHaveURL(/\/users$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Users' })).toBeVisible();
});

test('when the session ends, the next call asks to sign in again in a dialog and carries on on the same screen', async ({
  page,
  context,
}) => {
  await page.goto('/sign-in');
  await signInThroughForm(page, 'admin', E2E_ADMIN_PASSWORD);
  await expect(page.getByRole('heading', { level: 1, name: 'Sites' })).toBeVisible();
  // Let the sites screen and the explorer tree (it loads after the frame and reads the sites too) finish loading
  // first, so the 401 comes from the navigation below and not from one of them.
  await expect(page.getByRole('list', { name: 'Sites' }).or(page.getByText('No sites yet'))).toBeVisible();
  await expect(
    page
      .getByRole('tree', { name: 'Sites and asset library' })
      .getByRole('treeitem', { name: 'Home (demo), site', exact: true }),
  ).toBeVisible();

  // The session cookie disappears (as when the server ends an idle session); the app has not noticed yet.
  await context.clearCookies();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Users' }).click();

  // Nothing on the screen is lost: the user signs in again over it (the username is known).
  const dialog = page.getByRole('dialog', { name: 'Sign in again to continue' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText('Your session has ended.')).toBeVisible();
  await expect(page).toHaveURL(/\/users$/);
  await expect(dialog.getByLabel('Username')).toHaveValue('admin');
  await dialog.getByLabel('Password', { exact: true }).fill(E2E_ADMIN_PASSWORD);
  await dialog.getByLabel('Password', { exact: true }).press('Enter');
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(/\/users$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Users' })).toBeVisible();
  await expect(page.getByRole('rowheader', { name: /^admin/ })).toBeVisible();
});
