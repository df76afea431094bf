import { expect, test, type Page } from '@playwright/test';
import { adminApi } from './support/users';

/*
 * A person clicks a rich text field's text and types at once: every key arrives, in order, where the caret went,
 * even while the field is still becoming the editor (the editor's code loading, a lite card drawn whole). Each test
 * holds the editor's code back until the keys were typed, so the keys always land in that window.
 */

test.describe.configure({ mode: 'serial' });

const FOLDER = 'demo/type-ahead-e2e';
const richText = (text: string) => ({ type: 'cmsRichText', asset: { fields: { text } } });

test.beforeAll(async ({ baseURL, playwright }) => {
  const api = await adminApi(playwright, baseURL!);
  expect([200, 204, 404]).toContain(
    (await api.delete(`/cms/rest/folders/by-path/${FOLDER}?includeSubFolders=true&purge=true`)).status(),
  );
  expect((await api.put(`/cms/rest/folders/by-path/${FOLDER}`, { data: {} })).status()).toBeLessThan(300);
  await api.dispose();
});

/**
 * Opens a page of its own with `texts` as rich text widgets in `main`, the editor's code held back: answers how to
 * let it load. The browser is kept busy too (no idle callback comes), so the cards past the first few stay lite.
 */
async function openHeldBack(page: Page, baseURL: string, playwright: Parameters<typeof adminApi>[0], name: string) {
  const texts = Array.from({ length: 8 }, (_, i) => `<p>${i === 0 ? 'Alpha' : `Widget ${i + 1}`}</p>`);
  const api = await adminApi(playwright, baseURL);
  const res = await api.put(`/cms/rest/pages/by-path/${FOLDER}/${name}`, {
    data: {
      templateName: 'two-column',
      displayName: name,
      body: [{ name: 'main', type: 'PAGE', widgets: texts.map(richText) }],
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  await api.dispose();
  await page.addInitScript(() => {
    window.requestIdleCallback = () => 0;
    window.cancelIdleCallback = () => {};
  });
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  let asked = false;
  await page.route(/\/assets\/rich-text-control-[\w-]+\.js$/, async (route) => {
    asked = true;
    await released;
    await route.continue();
  });
  await page.goto(`/pages/${FOLDER}/${name}`);
  await expect(main(page).getByRole('textbox', { name: 'Text' })).toHaveCount(texts.length, { timeout: 20_000 });
  await expect.poll(() => asked).toBe(true);
  return release;
}

const main = (page: Page) => page.getByRole('region', { name: /^main\b/ });
/** The field's editor (tiptap's editable element), once it has taken over from the static view. */
const editorOf = (page: Page, card: number) =>
  main(page).getByRole('article').nth(card).locator('[contenteditable="true"][role="textbox"]');

test('text, End, Home, arrows, Backspace and Enter typed right after a click all arrive where the caret went', async ({
  page,
  baseURL,
  playwright,
}) => {
  const release = await openHeldBack(page, baseURL!, playwright, 'clicked');
  // At the very start of "Alpha": End must be followed for the words to go after it.
  await main(page)
    .getByRole('article')
    .nth(0)
    .getByText('Alpha')
    .click({ position: { x: 1, y: 4 } });
  await page.keyboard.press('End');
  await page.keyboard.type(' and mre');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.type('o');
  await page.keyboard.press('End');
  await page.keyboard.press('Enter');
  await page.keyboard.type('Second linex');
  await page.keyboard.press('Backspace');
  await page.keyboard.press('Home');
  await page.keyboard.type('A ');
  release();

  const editor = editorOf(page, 0);
  await expect(editor).toBeFocused();
  await expect(editor.locator('p')).toHaveText(['Alpha and more', 'A Second line']);
  // The caret stays where the keys left it: the next key, typed to the editor itself, goes there too.
  await page.keyboard.type('!');
  await expect(editor.locator('p')).toHaveText(['Alpha and more', 'A !Second line']);
  await page.keyboard.press('Control+s');
  await expect(page.getByText('All changes saved')).toBeVisible();
  const saved = (await (await page.request.get(`/cms/rest/pages/by-path/${FOLDER}/clicked`)).json()) as {
    body: { name: string; widgets: { asset: { fields: Record<string, string> } }[] }[];
  };
  const widgets = saved.body.find((r) => r.name === 'main')!.widgets;
  expect(widgets[0]!.asset.fields.text).toBe('<p>Alpha and more</p><p>A !Second line</p>');
});

test('keys typed right after the focus goes into a lite card’s text arrive at its start', async ({
  page,
  baseURL,
  playwright,
}) => {
  const release = await openHeldBack(page, baseURL!, playwright, 'lite');
  const card = main(page).getByRole('article').nth(6);
  await expect(card).toHaveAttribute('data-lite', '');
  await card.getByRole('textbox', { name: 'Text' }).focus();
  await page.keyboard.type('Seen: ');
  await expect(card).not.toHaveAttribute('data-lite');
  release();

  const editor = editorOf(page, 6);
  await expect(editor).toBeFocused();
  await expect(editor).toHaveText('Seen: Widget 7');
});

test('Escape or a click elsewhere before the editor takes over drops what was typed; Escape reaches the page', async ({
  page,
  baseURL,
  playwright,
}) => {
  const release = await openHeldBack(page, baseURL!, playwright, 'dropped');
  await main(page).getByRole('article').nth(0).getByText('Alpha').click();
  await page.keyboard.type('lost');
  await page.evaluate(() =>
    window.addEventListener('keydown', (e) => {
      if (e.key === 'Escape') document.body.dataset.escape = e.defaultPrevented ? 'swallowed' : 'reached';
    }),
  );
  await page.keyboard.press('Escape');
  await expect(page.locator('body')).toHaveAttribute('data-escape', 'reached');

  await main(page).getByRole('article').nth(1).getByText('Widget 2').click();
  await page.keyboard.type('gone');
  await page.getByRole('heading', { level: 1, name: 'dropped' }).click();
  await page.keyboard.type('too');
  release();

  await expect(editorOf(page, 1)).toBeVisible();
  await expect(editorOf(page, 0)).toHaveText('Alpha');
  await expect(editorOf(page, 1)).toHaveText('Widget 2');
});
