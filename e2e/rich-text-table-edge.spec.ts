import { expect, test, type Page } from '@playwright/test';

/*
 * Rich text that starts or ends with a table: a paragraph can always be added before or after it from the
 * keyboard, and what the editor shows is what it saves.
 */

/** What the gallery says the form sends: every field that is set. */
async function formValues(page: Page): Promise<Record<string, string>> {
  return JSON.parse((await page.getByTestId('kit-values').textContent()) ?? '{}') as Record<string, string>;
}

test('an editor types after and before a table that ends and starts the rich text, and it is saved as shown', async ({
  page,
}) => {
  await page.goto('/kit/widgets/cmsRichText');
  await page.getByRole('button', { name: 'Start empty (as a new asset)' }).click();
  await expect(page.getByRole('button', { name: 'Fill with samples' })).toBeVisible();
  const text = page.getByRole('textbox', { name: 'Text' });
  await text.click();
  await page.getByRole('button', { name: 'Table', exact: true }).click();
  await page.getByRole('menuitem', { name: 'Insert a table' }).click();
  await expect(text.locator('table')).toBeVisible();
  await page.keyboard.type('Day');

  // Ctrl+End leads past the table; typing there starts a paragraph after it (not in a cell, not outside the text).
  await page.keyboard.press('Control+End');
  await page.keyboard.type('After the table');
  // Ctrl+Home likewise before it.
  await page.keyboard.press('Control+Home');
  await page.keyboard.type('Before the table');

  const shown = text.locator(':scope > p');
  await expect(shown).toHaveText(['Before the table', 'After the table']);
  await expect(text.locator('table th, table td').first()).toHaveText('Day');
  await expect(text.locator('table')).not.toContainText('table');
  await page.screenshot({ path: 'test-results/rich-text-table-edges.png' });

  const html = (await formValues(page)).text ?? '';
  expect(html).toMatch(/^<p>Before the table<\/p><table>.*<th><p>Day<\/p><\/th>.*<\/table><p>After the table<\/p>$/);

  // Moving to an edge alone changes nothing: no empty paragraph is added until something is typed.
  await page.keyboard.press('Control+End');
  await page.keyboard.press('Control+Home');
  expect((await formValues(page)).text).toBe(html);
});
