import { expect, test } from '@playwright/test';
import { adminApi } from './support/users';

/*
 * No raw values where people read: the page preview shows an event's start in the reader's locale (not the
 * stored `YYYY-MM-DD hh:mm:ss.s`), site cards show no ids, the Editing kit keeps its JSON behind "Show JSON",
 * and an empty rendered form says so instead of showing a blank box.
 */

const FOLDER = 'demo/e2e-raw-values';
const PAGE_PATH = `${FOLDER}/event`;

test.use({ locale: 'en-GB', timezoneId: 'Europe/London' });

test.beforeAll(async ({ baseURL, playwright }) => {
  const api = await adminApi(playwright, baseURL!);
  expect([200, 204, 404]).toContain(
    (await api.delete(`/cms/rest/folders/by-path/${FOLDER}?includeSubFolders=true`)).status(),
  );
  expect((await api.put(`/cms/rest/folders/by-path/${FOLDER}`, { data: {} })).status()).toBeLessThan(300);
  const event = {
    type: 'cmsEvent',
    asset: { fields: { displaytitle: 'Open day', start_time: '2026-06-15 09:30:00.0', location: 'Main hall' } },
  };
  const page = {
    templateName: 'two-column',
    displayName: 'Event page',
    body: [{ name: 'main', type: 'PAGE', widgets: [event] }],
  };
  const res = await api.put(`/cms/rest/pages/by-path/${PAGE_PATH}`, { data: page });
  expect(res.status(), await res.text()).toBe(201);
  await api.dispose();
});

test.afterAll(async ({ baseURL, playwright }) => {
  const api = await adminApi(playwright, baseURL!);
  expect([200, 204]).toContain(
    (await api.delete(`/cms/rest/folders/by-path/${FOLDER}?includeSubFolders=true`)).status(),
  );
  await api.dispose();
});

test('dates, ids and JSON are not shown raw', async ({ page }) => {
  // The page preview: the event's start in the reader's locale.
  await page.goto(`/pages/${PAGE_PATH}`);
  await page.getByRole('radio', { name: 'Preview', exact: true }).click();
  const preview = page.frameLocator('iframe[title="Preview of Event page"]');
  await expect(preview.locator('[data-region="main"]')).toContainText('15 Jun 2026, 09:30 · Main hall');
  await expect(preview.locator('[data-region="main"]')).not.toContainText('09:30:00');

  // Site cards: a name and a title, no id.
  const sites = (await (await page.request.get('/cms/rest/sites')).json()) as { id: string }[];
  expect(sites.length).toBeGreaterThan(0);
  await page.goto('/sites');
  const cards = page.locator('.site-card');
  await expect(cards.first()).toBeVisible();
  await expect(cards.locator('dt', { hasText: /^Id$/ })).toHaveCount(0);
  for (const site of sites) {
    await expect(page.locator('main')).not.toContainText(site.id);
  }

  // The Editing kit: the JSON is there when asked for, behind a closed disclosure.
  await page.goto('/kit/widgets/cmsForm');
  await expect(page.getByTestId('kit-values')).toBeHidden();
  await page.getByText('Show JSON', { exact: true }).click();
  await expect(page.getByTestId('kit-values')).toBeVisible();

  // An empty rendered form says there is nothing to preview, not a blank box.
  await page.getByRole('button', { name: 'Start empty (as a new asset)' }).click();
  await page
    .getByRole('tablist', { name: 'Rendered form: code or preview' })
    .getByRole('tab', { name: 'Preview' })
    .click();
  await expect(page.getByText('Nothing to preview yet: the HTML is empty.')).toBeVisible();
  await expect(page.locator('iframe[title^="Preview of rendered form"]')).toHaveCount(0);
});
