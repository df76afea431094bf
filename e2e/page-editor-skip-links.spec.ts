import { expect, test, type Page } from '@playwright/test';
import { adminApi } from './support/users';

/*
 * The page editor from the top of the page with the keyboard alone: a skip link goes straight into the first
 * widget's text, and the outline is one Tab stop however long the page (its arrow keys move through it), so Tab
 * alone also reaches the content in a few presses instead of one per widget.
 */

test.describe.configure({ mode: 'serial' });

const FOLDER = 'demo/skip-links-e2e';
const WIDGETS = 12;
const richText = (n: number) => ({ type: 'cmsRichText', asset: { fields: { text: `<p>Paragraph ${n}</p>` } } });

test.beforeAll(async ({ baseURL, playwright }) => {
  const api = await adminApi(playwright, baseURL!);
  expect([200, 204, 404]).toContain(
    (await api.delete(`/cms/rest/folders/by-path/${FOLDER}?includeSubFolders=true&purge=true`)).status(),
  );
  expect((await api.put(`/cms/rest/folders/by-path/${FOLDER}`, { data: {} })).status()).toBeLessThan(300);
  const res = await api.put(`/cms/rest/pages/by-path/${FOLDER}/long`, {
    data: {
      templateName: 'two-column',
      displayName: 'A long page',
      body: [{ name: 'main', type: 'PAGE', widgets: Array.from({ length: WIDGETS }, (_, i) => richText(i + 1)) }],
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  const empty = await api.put(`/cms/rest/pages/by-path/${FOLDER}/empty`, {
    data: { templateName: 'two-column', displayName: 'An empty page' },
  });
  expect(empty.status(), await empty.text()).toBe(201);
  await api.dispose();
});

async function open(page: Page) {
  await page.goto(`/pages/${FOLDER}/long`);
  await expect(page.locator('.regions').getByText(`Paragraph ${WIDGETS}`)).toBeVisible();
}

/** What has the focus, as a person would name it (the first widget's text is "text 1"). */
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return 'body';
    const card = el.closest('.regions [data-widget-key]');
    if (card && el.closest('[contenteditable="true"], [data-rich-text-static]')) {
      const cards = [...document.querySelectorAll('.regions [data-widget-key]')];
      return `text ${cards.indexOf(card) + 1}`;
    }
    if (el.closest('.page-outline [data-outline-item]')) return 'outline';
    return el.getAttribute('aria-label') ?? el.textContent?.trim().slice(0, 40) ?? el.tagName;
  });

test('the second skip link goes into the first widget’s text, and typing goes there', async ({ page }) => {
  await open(page);
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to main content' })).toBeFocused();
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to the content editor' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.screenshot({ path: test.info().outputPath('skip-link.png') });
  await page.keyboard.press('Enter');
  const first = page.locator('.regions [data-widget-key]').first();
  await expect(first.locator('[contenteditable="true"]')).toBeFocused();
  await page.keyboard.type('Typed here. ');
  await expect(first).toContainText('Typed here. Paragraph 1');
  await page.screenshot({ path: test.info().outputPath('after-skip.png') });
});

test('on a page with no widgets the skip link goes to the first region’s Add button', async ({ page }) => {
  await page.goto(`/pages/${FOLDER}/empty`);
  await expect(page.getByRole('heading', { level: 1, name: 'An empty page' })).toBeVisible();
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to the content editor' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.locator('.regions [data-add-widget]').first()).toBeFocused();
});

test('Tab alone reaches the first widget’s text in a few presses: the outline is one stop', async ({ page }) => {
  await open(page);
  const stops: string[] = [];
  for (let i = 0; i < 60 && stops.at(-1) !== 'text 1'; i++) {
    await page.keyboard.press('Tab');
    stops.push(await focused(page));
  }
  expect(stops).toContain('text 1');
  // One stop in the outline (it lists the region and twelve widgets), not thirteen.
  expect(
    stops.filter((s) => s === 'outline'),
    stops.join(' → '),
  ).toHaveLength(1);
  // The frame, the tree (one stop), the page's header, the outline and the tabs: 27 stops on this page, where the
  // outline's stop per widget made 39 (and 77 on a fifty-widget page).
  expect(stops.length, stops.join(' → ')).toBeLessThan(30);
});

test('in the outline the arrow keys move and Enter goes to the widget; Tab leaves it', async ({ page }) => {
  await open(page);
  const outline = page.getByRole('navigation', { name: 'Page outline' });
  const items = outline.locator('[data-outline-item]');
  const widgets = outline.locator('[data-outline-item^="widget:"]');
  await widgets.first().focus();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await expect(widgets.nth(2)).toBeFocused();
  await page.keyboard.press('ArrowUp');
  await expect(widgets.nth(1)).toBeFocused();
  await page.keyboard.press('End');
  await expect(items.last()).toBeFocused();
  await page.keyboard.press('Home');
  await expect(items.first()).toBeFocused();
  // The stop stays where the person was: Tab out and Shift+Tab back lands on the same widget.
  await widgets.first().focus();
  await page.keyboard.press('Tab');
  expect(await focused(page)).not.toBe('outline');
  await page.keyboard.press('Shift+Tab');
  await expect(widgets.first()).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.locator('.regions [data-widget-key]').first().locator('[contenteditable="true"]')).toBeFocused();
});
