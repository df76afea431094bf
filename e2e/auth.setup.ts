import { expect, test as setup } from '@playwright/test';
import { ADMIN_STORAGE_STATE, E2E_ADMIN_PASSWORD } from './support/env';
import { expectSignedInAs, signInThroughForm } from './support/sign-in';

setup.use({ storageState: { cookies: [], origins: [] } });

setup('sign in once as the seeded admin', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveURL(/\/sign-in$/);
  await signInThroughForm(page, 'admin', E2E_ADMIN_PASSWORD);
  await expect(page.getByRole('heading', { level: 1, name: 'Sites' })).toBeVisible();
  await expectSignedInAs(page, 'admin');
  await page.context().storageState({ path: ADMIN_STORAGE_STATE });
});
