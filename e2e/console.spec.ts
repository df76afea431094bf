import { expect, test, type ConsoleMessage, type Page } from '@playwright/test';
import { SIGNED_OUT } from './support/env';

/**
 * Collects what the browser console says from now on: errors and warnings (React's, React Router's, the app's)
 * and failed requests, which Chromium logs as errors too. Answers the list, readably.
 */
function watchConsole(page: Page): string[] {
  const said: string[] = [];
  page.on('console', (message: ConsoleMessage) => {
    if (message.type() === 'error' || message.type() === 'warning') {
      const at = message.location();
      said.push(`${message.type()}: ${message.text()}${at.url ? ` (${at.url}:${at.lineNumber})` : ''}`);
    }
  });
  page.on('pageerror', (error) => said.push(`uncaught: ${error.message}`));
  page.on('response', (response) => {
    if (response.status() >= 400)
      said.push(`HTTP ${response.status()}: ${response.request().method()} ${response.url()}`);
  });
  return said;
}

/** Waits until a screen has settled: its heading is there and nothing says it is loading. */
async function settled(page: Page, heading: string | RegExp) {
  await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: /Loading|Counting|Looking up/ })).toHaveCount(0);
  // Lazy screens and the tree's listings may still be on their way after the heading shows.
  await page.waitForLoadState('networkidle');
}

/** Every screen of the app, each loaded in full (a fresh page load, as a bookmark or a reload does). */
const SCREENS: { path: string; heading: string | RegExp }[] = [
  { path: '/sites', heading: 'Sites' },
  { path: '/sites/demo', heading: 'Home' },
  { path: '/sites/demo/about', heading: 'About us' },
  { path: '/sites/demo/articles', heading: 'articles' },
  { path: '/sites/demo/folio-docs', heading: 'Documentation' },
  { path: '/pages/demo/about/index', heading: 'About us' },
  { path: '/pages/demo/articles/welcome', heading: 'Welcome to Folio' },
  { path: '/assets', heading: /Asset library|Assets/ },
  { path: '/assets/images', heading: /images/i },
  { path: '/templates', heading: 'Templates' },
  { path: '/templates?new', heading: 'New template' },
  { path: '/templates/article', heading: 'Article' },
  { path: '/users', heading: 'Users' },
  { path: '/account', heading: 'Your account' },
  { path: '/kit', heading: /kit/i },
  { path: '/no-such-screen', heading: 'Not found' },
];

test('every screen loads without an error or a warning in the browser console', async ({ page }) => {
  test.setTimeout(120_000);
  const said = watchConsole(page);
  for (const screen of SCREENS) {
    await page.goto(screen.path);
    await settled(page, screen.heading);
    expect(said, `the console while loading ${screen.path}`).toEqual([]);
  }

  // And moving between screens inside the app, the way people do.
  await page.goto('/sites');
  await settled(page, 'Sites');
  const menu = page.getByRole('navigation', { name: 'Main' });
  for (const [link, heading] of [
    ['Templates', 'Templates'],
    ['Users', 'Users'],
    ['Asset library', /Asset library|Assets/],
    ['Editing kit', /kit/i],
    ['Sites', 'Sites'],
  ] as const) {
    await menu.getByRole('link', { name: link }).click();
    await settled(page, heading);
  }
  await page.getByRole('link', { name: 'Home' }).first().click();
  await settled(page, 'Home');
  expect(said, 'the console while moving between screens').toEqual([]);
});

test.describe('signed out', () => {
  test.use({ storageState: SIGNED_OUT });

  test('the sign-in screen loads without an error or a warning in the browser console', async ({ page }) => {
    const said = watchConsole(page);
    await page.goto('/sites');
    await expect(page.getByRole('heading', { level: 1, name: 'Sign in to Folio' })).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect(said).toEqual([]);
  });
});
