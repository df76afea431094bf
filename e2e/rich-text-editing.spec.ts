import { expect, test, type Page } from '@playwright/test';

/*
 * Rich text in real Chromium: a table that starts or ends the text (a paragraph can always be added before or after
 * it from the keyboard, and what the editor shows is what it saves), and links to pages and files picked from the
 * sites and the asset library.
 */

/** What the gallery says the form sends: every field that is set. */
async function formValues(page: Page): Promise<Record<string, string>> {
  return JSON.parse((await page.getByTestId('kit-values').textContent()) ?? '{}') as Record<string, string>;
}

/** The editing kit's rich text form, started empty, with the cursor in its text. */
async function startEmptyRichText(page: Page) {
  await page.goto('/kit/widgets/cmsRichText');
  await page.getByRole('button', { name: 'Start empty (as a new asset)' }).click();
  // The form is made anew, empty: type only once it is there.
  await expect(page.getByRole('button', { name: 'Fill with samples' })).toBeVisible();
  const text = page.getByRole('textbox', { name: 'Text' });
  await text.click();
  return text;
}

test('an editor types after and before a table that ends and starts the rich text, and it is saved as shown', async ({
  page,
}) => {
  const text = await startEmptyRichText(page);
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

test('an editor links words to a page picked from the sites, and to a file from the asset library', async ({
  page,
}) => {
  const text = await startEmptyRichText(page);
  await page.keyboard.type('Our news');
  await page.keyboard.press('Shift+Home');
  await page.keyboard.press('Control+k');
  const linkDialog = page.getByRole('dialog', { name: 'Add a link' });
  await linkDialog.getByRole('button', { name: 'Choose a page…' }).click();
  const picker = page.getByRole('dialog', { name: 'Link to a page' });
  await expect(picker).toBeVisible();
  await picker.getByRole('treeitem', { name: 'Home (demo), site' }).press('ArrowRight');
  await picker.getByRole('treeitem', { name: /^Welcome to the Folio demo/ }).click();
  await expect(picker).toContainText('Chosen: demo/index');
  await picker.getByRole('button', { name: 'Choose', exact: true }).click();
  await expect(picker).toBeHidden();
  await expect(linkDialog.getByLabel('Address')).toHaveValue('/cms/rest/pages/by-path/demo/index');
  await linkDialog.getByRole('button', { name: 'Add link' }).click();
  await expect(text.getByRole('link', { name: 'Our news' })).toHaveAttribute(
    'href',
    '/cms/rest/pages/by-path/demo/index',
  );

  // With nothing selected, a file picked from the library is linked under its own name.
  await page.keyboard.press('End');
  await page.keyboard.type(' and ');
  await page.keyboard.press('Control+k');
  await linkDialog.getByRole('button', { name: 'Choose a file…' }).click();
  const files = page.getByRole('dialog', { name: 'Link to a file from the asset library' });
  await files.getByRole('row', { name: /^hero\.jpg, Image/ }).click();
  await files.getByRole('button', { name: 'Choose', exact: true }).click();
  await linkDialog.getByRole('button', { name: 'Add link' }).click();
  await expect(text.getByRole('link', { name: 'hero.jpg' })).toHaveAttribute(
    'href',
    /\/cms\/rest\/assets\/binary\/Assets\/images\/hero\.jpg$/,
  );
  const html = (await formValues(page)).text ?? '';
  expect(html).toContain('<a href="/cms/rest/pages/by-path/demo/index">Our news</a>');
});
