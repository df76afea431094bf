import { expect, test, type Page } from '@playwright/test';
import { seriousViolations } from './support/axe';

/** Waits until nothing on the screen says it is loading. */
async function settled(page: Page, heading: string) {
  await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: /Loading/ })).toHaveCount(0);
}

for (const colorScheme of ['light', 'dark'] as const) {
  test(`the folder table, Sites, Templates and account screens have no serious or critical accessibility violations (${colorScheme} theme)`, async ({
    page,
  }) => {
    await page.emulateMedia({ colorScheme });
    await page.goto('/sites/demo/articles');
    await settled(page, 'articles');
    await expect(page.getByRole('table', { name: /Contents of articles/ })).toContainText('by admin');
    await page.getByRole('button', { name: 'Last modified' }).click();
    expect(await seriousViolations(page)).toEqual([]);

    await page.goto('/sites');
    await settled(page, 'Sites');
    await page.getByRole('button', { name: 'New site' }).click();
    await expect(
      page.getByRole('dialog', { name: 'New site' }).getByRole('button', { name: /Home page template/ }),
    ).toContainText(/\w/);
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');

    await page.goto('/templates');
    await settled(page, 'Templates');
    expect(await seriousViolations(page)).toEqual([]);
    await page.goto('/templates/article');
    await settled(page, 'Article');
    expect(await seriousViolations(page)).toEqual([]);

    await page.goto('/account');
    await settled(page, 'Your account');
    await page.getByRole('button', { name: 'Change password' }).click();
    await expect(page.getByText('Enter your current password.')).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
  });
}
