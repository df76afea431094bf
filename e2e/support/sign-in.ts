import { expect, type Page } from '@playwright/test';

/** Fills and submits the sign-in form the way a person does (labels, Enter key). */
export async function signInThroughForm(page: Page, username: string, password: string) {
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Password', { exact: true }).press('Enter');
}

/** Asserts the app frame shows `username` as the signed-in user. */
export async function expectSignedInAs(page: Page, username: string) {
  await expect(page.getByRole('banner')).toContainText(username);
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
}
