import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { SIGNED_OUT } from './support/env';
import { signInThroughForm } from './support/sign-in';

/** Serious and critical WCAG 2.1 A/AA violations on the page as it is now, listed readably. */
async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

for (const colorScheme of ['light', 'dark'] as const) {
  test.describe(`in the ${colorScheme} theme`, () => {
    test.use({ colorScheme });

    test.describe('signed out', () => {
      test.use({ storageState: SIGNED_OUT });

      test('the sign-in screen has no serious or critical accessibility violations', async ({ page }) => {
        await page.goto('/sign-in');
        await expect(page.getByRole('heading', { level: 1, name: 'Sign in to Folio' })).toBeVisible();
        expect(await seriousViolations(page)).toEqual([]);

        // With the inline error showing, too.
        await signInThroughForm(page, 'nobody', 'wrong-password');
        await expect(page.getByRole('alert')).toBeVisible();
        expect(await seriousViolations(page)).toEqual([]);
      });
    });

    test('the app frame with the sites screen has no serious or critical accessibility violations', async ({
      page,
    }) => {
      await page.goto('/sites');
      await expect(page.getByRole('heading', { level: 1, name: 'Sites' })).toBeVisible();
      await expect(page.getByRole('status').filter({ hasText: 'Loading' })).toHaveCount(0);
      expect(await seriousViolations(page)).toEqual([]);
    });

    test('the users screen and its new-user dialog have no serious or critical accessibility violations', async ({
      page,
    }) => {
      await page.goto('/users');
      await expect(page.getByRole('rowheader', { name: /^admin/ })).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);

      await page.getByRole('button', { name: 'New user' }).click();
      await expect(page.getByRole('dialog', { name: 'New user' })).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
    });
  });
}

test('the theme switch persists the chosen theme across reloads', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto('/sites');
  const html = page.locator('html');
  await expect(html).not.toHaveAttribute('data-theme', /.*/);

  await page.getByRole('radio', { name: 'Dark theme' }).click();
  await expect(html).toHaveAttribute('data-theme', 'dark');
  const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const dark = await background();

  await page.reload();
  await expect(html).toHaveAttribute('data-theme', 'dark');
  expect(await background()).toBe(dark);

  await page.getByRole('radio', { name: 'System theme' }).click();
  await expect(html).not.toHaveAttribute('data-theme', /.*/);
  expect(await background()).not.toBe(dark);
});

test('keyboard users can reach every part of the frame and see where focus is', async ({ page }) => {
  await page.goto('/sites');
  await expect(page.getByRole('heading', { level: 1, name: 'Sites' })).toBeVisible();

  // The first Tab reaches the skip link, which moves focus to the main area.
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to main content' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('main')).toBeFocused();

  // Navigating moves focus to the new screen's heading; every focused control shows a ring.
  const users = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Users' });
  await users.focus();
  const ring = await users.evaluate((el) => getComputedStyle(el).boxShadow);
  expect(ring).not.toBe('none');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'Users' })).toBeFocused();
});
