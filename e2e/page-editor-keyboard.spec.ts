import { expect, test, type Page } from '@playwright/test';
import { adminApi } from './support/users';

/*
 * The page editor from the keyboard: Ctrl+Z is the page's own undo wherever no field has the focus, Ctrl+S saves
 * from every field, a save that cannot go through says where and takes the focus there, discarding asks first,
 * and the focus never drops to the page after an action.
 */

test.describe.configure({ mode: 'serial' });

const FOLDER = 'demo/keyboard-e2e';
const richText = (text: string) => ({ type: 'cmsRichText', asset: { fields: { text } } });

/** Opens a page of its own for a test, with two rich text widgets in `main`, once its editors have loaded. */
async function openPage(page: Page, baseURL: string, playwright: Parameters<typeof adminApi>[0], name: string) {
  const api = await adminApi(playwright, baseURL);
  const res = await api.put(`/cms/rest/pages/by-path/${FOLDER}/${name}`, {
    data: {
      templateName: 'two-column',
      displayName: name,
      body: [{ name: 'main', type: 'PAGE', widgets: [richText('<p>Alpha</p>'), richText('<p>Beta</p>')] }],
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  await api.dispose();
  await page.goto(`/pages/${FOLDER}/${name}`);
  // The rich text editors load after the page: their arrival moves what is below them.
  await expect(page.getByRole('region', { name: /^main\b/ }).getByRole('textbox', { name: 'Text' })).toHaveCount(2, {
    timeout: 20_000,
  });
}

test.beforeAll(async ({ baseURL, playwright }) => {
  const api = await adminApi(playwright, baseURL!);
  expect([200, 204, 404]).toContain(
    (await api.delete(`/cms/rest/folders/by-path/${FOLDER}?includeSubFolders=true&purge=true`)).status(),
  );
  expect((await api.put(`/cms/rest/folders/by-path/${FOLDER}`, { data: {} })).status()).toBeLessThan(300);
  await api.dispose();
});

const region = (page: Page, name: string) => page.getByRole('region', { name: new RegExp(`^${name}\\b`) });
const cards = (page: Page, name: string) => region(page, name).getByRole('article');
const notifications = (page: Page) => page.getByRole('region', { name: 'Notifications' });

/** Opens a widget's menu and chooses `item`. */
async function widgetMenu(page: Page, card: ReturnType<typeof cards>, item: string) {
  await card.getByRole('button', { name: /More actions/ }).click();
  await page.getByRole('menuitem', { name: item }).click();
}

test('Ctrl+Z after removing a widget brings it back and leaves the text typed in another widget alone', async ({
  page,
  baseURL,
  playwright,
}) => {
  await openPage(page, baseURL!, playwright, 'undo');
  const alpha = cards(page, 'main').nth(0).getByRole('textbox', { name: 'Text' });
  await alpha.click();
  await page.keyboard.press('End');
  await page.keyboard.type(' and more');
  await expect(alpha).toContainText('Alpha and more');

  // Remove Beta: focus goes to the widget before it (there is none after), never to the page.
  await widgetMenu(page, cards(page, 'main').nth(1), 'Remove');
  await expect(cards(page, 'main')).toHaveCount(1);
  await expect(cards(page, 'main').nth(0)).toBeFocused();
  await expect(page.getByRole('button', { name: 'Undo: Removed the Rich text widget from main' })).toBeVisible();

  // Ctrl+Z outside a field is the page's undo: Beta is back, focused; Alpha keeps what was typed.
  await page.keyboard.press('Control+z');
  await expect(cards(page, 'main')).toHaveCount(2);
  await expect(cards(page, 'main').nth(1)).toContainText('Beta');
  await expect(cards(page, 'main').nth(1)).toBeFocused();
  await expect(alpha).toContainText('Alpha and more');

  // Ctrl+Shift+Z does it again; Ctrl+Z once more brings it back.
  await page.keyboard.press('Control+Shift+z');
  await expect(cards(page, 'main')).toHaveCount(1);
  await page.keyboard.press('Control+z');
  await expect(cards(page, 'main')).toHaveCount(2);
  await expect(alpha).toContainText('Alpha and more');

  // A move is a step too, undone from the button that moved it.
  await cards(page, 'main').nth(1).getByRole('button', { name: 'Move up' }).click();
  await expect(cards(page, 'main').nth(0)).toContainText('Beta');
  await expect(cards(page, 'main').nth(0).getByRole('button', { name: 'Move down' })).toBeFocused();
  await page.keyboard.press('Control+z');
  await expect(cards(page, 'main').nth(0)).toContainText('Alpha and more');
  await expect(cards(page, 'main').nth(1)).toContainText('Beta');

  // Then the typing in Alpha, as one step: the header's Undo says so, and takes it back.
  const undo = page.getByRole('button', { name: 'Undo: Edited the Rich text widget in main' });
  await undo.click();
  await expect(cards(page, 'main').nth(0)).toContainText('Alpha');
  await expect(cards(page, 'main').nth(0)).not.toContainText('and more');
  await expect(page.getByText('All changes saved')).toBeVisible();
});

test('removing the last widget of a region leaves the focus on its Add button', async ({
  page,
  baseURL,
  playwright,
}) => {
  await openPage(page, baseURL!, playwright, 'remove-all');
  await widgetMenu(page, cards(page, 'main').nth(0), 'Remove');
  await expect(cards(page, 'main').nth(0)).toContainText('Beta');
  // The next widget takes the place, and the focus.
  await expect(cards(page, 'main').nth(0)).toBeFocused();
  await widgetMenu(page, cards(page, 'main').nth(0), 'Remove');
  await expect(cards(page, 'main')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Add widget to main' })).toBeFocused();
  // The newest toast's Undo is the same history: the last removal comes back.
  await notifications(page).getByRole('button', { name: 'Undo' }).first().click();
  await expect(cards(page, 'main')).toHaveCount(1);
  await expect(cards(page, 'main').nth(0)).toContainText('Beta');
  await expect(cards(page, 'main').nth(0)).toBeFocused();
});

test('after choosing an image the focus is on the widget’s image button, however long the choice took', async ({
  page,
  baseURL,
  playwright,
}) => {
  await openPage(page, baseURL!, playwright, 'image');
  await page.getByRole('button', { name: 'Add widget to sidebar' }).click();
  const palette = page.getByRole('dialog', { name: 'Add a widget to “sidebar”' });
  await palette.getByRole('searchbox', { name: 'Find a widget type' }).fill('Image');
  await page.keyboard.press('Enter');
  const picker = page.getByRole('dialog', { name: 'Choose an image' });
  await expect(picker).toBeVisible();
  // A person looks around the library for a while before choosing.
  await page.waitForTimeout(3_500);
  await picker.getByRole('row', { name: /^hero\.jpg, Image/ }).click();
  await picker.getByRole('button', { name: 'Choose', exact: true }).click();
  await expect(picker).toBeHidden();
  const card = cards(page, 'sidebar').nth(0);
  await expect(card.getByRole('img', { name: 'Green hills under a blue sky' })).toBeVisible();
  await expect(card.getByRole('button', { name: 'Choose another image…' })).toBeFocused();

  // Choosing again and cancelling: the focus is back on the same button.
  await page.keyboard.press('Enter');
  await expect(picker).toBeVisible();
  await picker.getByRole('button', { name: 'Cancel' }).click();
  await expect(card.getByRole('button', { name: 'Choose another image…' })).toBeFocused();
});

test('Ctrl+S saves from a poll’s choice; a poll that cannot be saved is named, focused and marked in the outline', async ({
  page,
  baseURL,
  playwright,
}) => {
  await openPage(page, baseURL!, playwright, 'poll');
  await page.getByRole('button', { name: 'Add widget to sidebar' }).click();
  const palette = page.getByRole('dialog', { name: 'Add a widget to “sidebar”' });
  await palette.getByRole('searchbox', { name: 'Find a widget type' }).fill('Poll');
  await page.keyboard.press('Enter');
  const poll = cards(page, 'sidebar').nth(0);
  await poll.getByLabel('Question text').fill('Which format do you need?');
  await poll.getByRole('textbox', { name: 'Choice 1' }).fill('Print');

  // Ctrl+S in the first choice, the second still empty: not saved, and the app says where and goes there.
  await poll.getByRole('textbox', { name: 'Choice 1' }).press('Control+s');
  const alert = page.getByRole('main').getByRole('alert').filter({ hasText: 'Not saved' });
  await expect(alert).toContainText('Poll in sidebar — Question and answers');
  await expect(notifications(page)).toContainText('Poll in sidebar — Question and answers');
  await expect(poll.getByRole('textbox', { name: 'Choice 2' })).toBeFocused();
  const outline = page.getByRole('navigation', { name: 'Page outline' });
  await expect(outline.getByRole('button', { name: /^Poll.*1 problem/ })).toBeVisible();

  // Fixed, and Ctrl+S from the choice saves; the mark goes.
  await page.keyboard.type('Web');
  await expect(outline.getByRole('button', { name: /^Poll.*1 problem/ })).toHaveCount(0);
  await page.keyboard.press('Control+s');
  await expect(page.getByText('All changes saved')).toBeVisible();
  const saved = (await (await page.request.get(`/cms/rest/pages/by-path/${FOLDER}/poll`)).json()) as {
    body: { name: string; widgets: { asset: { fields: Record<string, string> } }[] }[];
  };
  const sidebar = saved.body.find((r) => r.name === 'sidebar')!;
  expect(JSON.parse(sidebar.widgets[0]!.asset.fields.pollQuestion!)).toMatchObject({
    answerChoices: ['Print', 'Web'],
  });
});

test('Discard changes asks first, saying the browser copy goes too; Cancel keeps every edit', async ({
  page,
  baseURL,
  playwright,
}) => {
  await openPage(page, baseURL!, playwright, 'discard');
  await page.getByRole('tab', { name: 'Properties' }).click();
  await page.getByLabel('Summary').fill('Typed and nearly lost.');
  await expect(page.getByText('1 unsaved change · kept in this browser')).toBeVisible();

  await page.getByRole('button', { name: 'Discard changes' }).click();
  const ask = page.getByRole('alertdialog', { name: 'Discard 1 unsaved change?' });
  await expect(ask).toContainText('the copy of them kept in this browser');
  await ask.getByRole('button', { name: 'Cancel' }).click();
  await expect(ask).toBeHidden();
  await expect(page.getByLabel('Summary')).toHaveValue('Typed and nearly lost.');
  await expect(page.getByText('1 unsaved change · kept in this browser')).toBeVisible();

  await page.getByRole('button', { name: 'Discard changes' }).click();
  await ask.getByRole('button', { name: 'Discard changes' }).click();
  await expect(page.getByText('All changes saved')).toBeVisible();
  await expect(page.getByLabel('Summary')).toHaveValue('');
  await expect(page.getByRole('heading', { level: 1, name: 'discard' })).toBeFocused();
  // Nothing is offered back after a reload: the browser copy went with the edits.
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'discard' })).toBeVisible();
  await expect(page.getByText('All changes saved')).toBeVisible();
  await expect(page.getByRole('dialog', { name: 'Restore your unsaved changes?' })).toHaveCount(0);
});

test('the palette puts Image first for “image”, moves with the arrow keys, and adds a shared asset from the library', async ({
  page,
  baseURL,
  playwright,
}) => {
  await openPage(page, baseURL!, playwright, 'palette');
  await page.getByRole('button', { name: 'Add widget to sidebar' }).click();
  const palette = page.getByRole('dialog', { name: 'Add a widget to “sidebar”' });
  const search = palette.getByRole('searchbox', { name: 'Find a widget type' });
  await expect(search).toBeFocused();
  await search.fill('image');
  const options = palette.getByRole('listbox').getByRole('option');
  await expect(options.first()).toHaveAccessibleName('Image');
  await expect(options.first()).toHaveAttribute('aria-selected', 'true');
  const names = await options.evaluateAll((els) => els.map((el) => el.querySelector('.palette__label')!.textContent));
  expect(names.indexOf('Image list')).toBeLessThan(names.indexOf('Rich text'));

  // Down and Up move the highlight; the search keeps the focus and points at it.
  await page.keyboard.press('ArrowDown');
  await expect(options.nth(1)).toHaveAttribute('aria-selected', 'true');
  await expect(search).toHaveAttribute('aria-activedescendant', (await options.nth(1).getAttribute('id'))!);
  await page.keyboard.press('ArrowUp');
  await expect(options.first()).toHaveAttribute('aria-selected', 'true');

  // A shared asset of the library by its name: Enter adds a widget linked to it.
  await search.fill('hero');
  const fromLibrary = palette.getByRole('group', { name: 'From the library' });
  await expect(fromLibrary.getByRole('option', { name: 'hero.jpg' })).toBeVisible();
  await expect(fromLibrary.getByRole('option', { name: 'hero.jpg' })).toHaveAccessibleDescription(/^Image in images/);
  while ((await fromLibrary.getByRole('option', { name: 'hero.jpg' }).getAttribute('aria-selected')) !== 'true')
    await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(palette).toBeHidden();
  const card = cards(page, 'sidebar').nth(0);
  await expect(card.getByRole('img', { name: 'Green hills under a blue sky' })).toBeVisible();
  await expect(card).toBeFocused();
  await page.keyboard.press('Control+s');
  await expect(page.getByText('All changes saved')).toBeVisible();
  const saved = (await (await page.request.get(`/cms/rest/pages/by-path/${FOLDER}/palette`)).json()) as {
    body: { name: string; widgets: { type: string; asset: { name?: string; folderPath?: string } }[] }[];
  };
  const sidebar = saved.body.find((r) => r.name === 'sidebar')!;
  expect(sidebar.widgets[0]).toMatchObject({
    type: 'cmsImage',
    asset: { name: 'hero.jpg', folderPath: 'Assets/images' },
  });
});
