import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Locator, type Page } from '@playwright/test';
import sharp from 'sharp';
import { E2E_ADMIN_PASSWORD, SIGNED_OUT } from './support/env';
import { signInThroughForm } from './support/sign-in';
import { adminApi } from './support/users';

/*
 * The page editor in real Chromium against the real server: an editor builds a page, shares content, takes it
 * through the workflow, and nothing they typed is lost — not to another editor's save, a reload or an ended
 * session.
 */

test.describe.configure({ mode: 'serial' });

/** Serious and critical WCAG 2.1 A/AA violations on the page as it is now, listed readably. */
async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** The pages of this spec, in a folder of their own (other specs move and rename the demo's). */
const PAGE = '/pages/demo/editor-e2e/press-kit';
const PAGE_PATH = 'demo/editor-e2e/press-kit';
/** A draft image of this spec's (the demo's own are published): the approval offers it with the page. */
const PHOTO_FOLDER = 'Assets/editor-e2e';
const PHOTO = 'press-photo.png';
const PHOTO_ALT = 'Photographers at the press desk';
const SECOND_PATH = 'demo/editor-e2e/second';
const THIRD_PATH = 'demo/editor-e2e/third';

test.beforeAll(async ({ baseURL, playwright }) => {
  const api = await adminApi(playwright, baseURL!);
  // A retry starts again from nothing: what a failed attempt left behind goes first.
  expect([200, 204, 404]).toContain(
    (await api.delete('/cms/rest/folders/by-path/demo/editor-e2e?includeSubFolders=true&purge=true')).status(),
  );
  expect((await api.put('/cms/rest/folders/by-path/demo/editor-e2e', { data: {} })).status()).toBeLessThan(300);
  const create = (path: string, data: object) => api.put(`/cms/rest/pages/by-path/${path}`, { data });
  expect((await create(PAGE_PATH, { templateName: 'landing', displayName: 'Press kit' })).status()).toBe(201);
  expect((await create(SECOND_PATH, { templateName: 'article', displayName: 'Second page' })).status()).toBe(201);
  const richText = (text: string) => ({ type: 'cmsRichText', asset: { fields: { text } } });
  const third = {
    templateName: 'two-column',
    displayName: 'Third page',
    body: [{ name: 'main', type: 'PAGE', widgets: [richText('<p>Alpha</p>'), richText('<p>Beta</p>')] }],
  };
  expect((await create(THIRD_PATH, third)).status()).toBe(201);
  expect([200, 204, 404]).toContain(
    (await api.delete(`/cms/rest/folders/by-path/${PHOTO_FOLDER}?includeSubFolders=true&purge=true`)).status(),
  );
  const photo = await sharp({ create: { width: 16, height: 12, channels: 3, background: '#35608a' } })
    .png()
    .toBuffer();
  const uploaded = await api.post(`/cms/rest/assets/binary/${PHOTO_FOLDER}/${PHOTO}`, {
    multipart: { file: { name: PHOTO, mimeType: 'image/png', buffer: photo } },
  });
  expect(uploaded.status(), await uploaded.text()).toBe(201);
  const described = await api.put(`/cms/rest/assets/by-path/${PHOTO_FOLDER}/${PHOTO}`, {
    data: { fields: { alttext: PHOTO_ALT } },
  });
  expect(described.status(), await described.text()).toBe(200);
  await api.dispose();
});

/** The region section of the editor named `name`. */
const region = (page: Page, name: string) => page.getByRole('region', { name: new RegExp(`^${name}\\b`) });

/** The widget cards of a region, in order. */
const cards = (page: Page, name: string) => region(page, name).getByRole('article');

/** Adds a widget of `label` to the region through the palette, searching for it. */
async function addWidget(page: Page, regionName: string, label: string) {
  await page.getByRole('button', { name: `Add widget to ${regionName}` }).click();
  const palette = page.getByRole('dialog', { name: `Add a widget to “${regionName}”` });
  await expect(palette).toBeVisible();
  await palette.getByRole('searchbox', { name: 'Find a widget type' }).fill(label);
  await palette.getByRole('option', { name: label, exact: true }).click();
  await expect(palette).toBeHidden();
}

/** Saves with the keyboard shortcut and waits for the editor to say everything is saved. */
async function saveWithShortcut(page: Page) {
  await page.keyboard.press('Control+s');
  await expect(page.getByText('All changes saved')).toBeVisible();
}

/** The page as the server holds it (the browser's own session). */
async function serverPage(page: Page, path = PAGE_PATH) {
  const res = await page.request.get(`/cms/rest/pages/by-path/${path}`);
  expect(res.status()).toBe(200);
  return (await res.json()) as {
    workflow: { state: string };
    displayName: string;
    body: {
      name: string;
      widgets: { type: string; asset: { fields: Record<string, string>; name?: string; folderPath?: string } }[];
    }[];
  };
}

test('an editor opens a page from the tree and builds it: rich text, raw HTML, an image and a poll, reordered, saved with Ctrl+S', async ({
  page,
}) => {
  test.setTimeout(60_000);
  await page.goto('/sites');
  const tree = page.getByRole('tree', { name: 'Sites and asset library' });
  await tree
    .getByRole('treeitem', { name: 'Home (demo), site', exact: true })
    .locator('button[slot="chevron"]')
    .click();
  await tree
    .getByRole('treeitem', { name: 'editor-e2e, folder', exact: true })
    .locator('button[slot="chevron"]')
    .click();
  await tree.getByRole('treeitem', { name: 'Press kit (press-kit), page', exact: true }).click();
  await expect(page).toHaveURL(/\/pages\/demo\/editor-e2e\/press-kit$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Press kit' })).toBeVisible();
  // The way back is in view and can be clicked (nothing covers it).
  const crumbs = page.getByRole('navigation', { name: 'Breadcrumbs' });
  await crumbs.getByRole('link', { name: 'editor-e2e' }).click({ trial: true, timeout: 2_000 });
  // The page itself by its title, as everywhere else.
  await expect(crumbs.locator('[aria-current="page"]')).toHaveText('Press kit');

  // The template's regions in order, each named; the ones the template fills are read-only.
  await expect(page.locator('[data-region-heading]')).toHaveText([
    /^header/,
    /^banner/,
    /^feature-1/,
    /^feature-2/,
    /^feature-3/,
    /^footer/,
  ]);
  await expect(region(page, 'header')).toContainText('From the template · not editable here');

  // Rich text with a heading, a list and a link.
  await addWidget(page, 'banner', 'Rich text');
  const text = cards(page, 'banner').first().getByRole('textbox', { name: 'Text' });
  await expect(text).toBeFocused();
  await page.keyboard.type('Press contacts');
  await cards(page, 'banner').first().getByRole('button', { name: 'Text style' }).click();
  await page.getByRole('option', { name: 'Heading 2' }).click();
  await text.click();
  await page.keyboard.press('End');
  await page.keyboard.press('Enter');
  await cards(page, 'banner').first().getByRole('button', { name: 'Bulleted list' }).click();
  await page.keyboard.type('Logos and photos');
  await page.keyboard.press('Enter');
  await page.keyboard.type('Fact sheet');
  await page.keyboard.press('Shift+Home');
  await page.keyboard.press('Control+k');
  const linkDialog = page.getByRole('dialog', { name: 'Add a link' });
  await linkDialog.getByLabel('Address').fill('https://example.org/facts');
  await linkDialog.getByRole('button', { name: 'Add link' }).click();
  await expect(text.getByRole('link', { name: 'Fact sheet' })).toBeVisible();

  // Raw HTML.
  await addWidget(page, 'banner', 'Raw HTML');
  const html = cards(page, 'banner').nth(1).getByRole('textbox', { name: 'HTML' });
  await expect(html).toBeVisible();
  await html.click();
  // The code editor closes the tag as it is opened.
  await page.keyboard.type('<p class="note">Embargo until Monday');

  // An image from the library.
  await addWidget(page, 'banner', 'Image');
  const picker = page.getByRole('dialog', { name: 'Choose an image' });
  await expect(picker).toBeVisible();
  await picker.getByRole('searchbox', { name: 'Search the asset library' }).fill('press-photo');
  await picker.getByRole('row', { name: /^press-photo\.png, Image/ }).click();
  await picker.getByRole('button', { name: 'Choose', exact: true }).click();
  await expect(picker).toBeHidden();
  await expect(cards(page, 'banner').nth(2).getByRole('img', { name: PHOTO_ALT })).toBeVisible();

  // A poll.
  await addWidget(page, 'banner', 'Poll');
  const poll = cards(page, 'banner').nth(3);
  await poll.getByLabel('Unique name').fill('press-poll');
  await poll.getByLabel('Question text').fill('Which format do you need?');
  await poll.getByRole('textbox', { name: 'Choice 1' }).fill('Print');
  await poll.getByRole('textbox', { name: 'Choice 2' }).fill('Web');

  // Reorder from the keyboard: the poll moves up above the image; focus stays on the button.
  await poll.getByRole('button', { name: 'Move up' }).focus();
  await page.keyboard.press('Enter');
  const moved = cards(page, 'banner').nth(2);
  await expect(moved.getByRole('heading', { level: 3 })).toContainText('Poll');
  await expect(moved.getByRole('button', { name: 'Move up' })).toBeFocused();
  await expect(page.getByText(/\d+ unsaved changes? · kept in this browser/)).toBeVisible();

  // The outline lists the widgets in order, and going to one focuses it.
  const outline = page.getByRole('navigation', { name: 'Page outline' });
  await expect(outline.getByRole('button', { name: /^Rich text/ })).toBeVisible();
  await outline.getByRole('button', { name: /^Raw HTML/ }).click();
  await expect(cards(page, 'banner').nth(1).getByRole('textbox', { name: 'HTML' })).toBeFocused();

  await saveWithShortcut(page);

  // What the server holds: the four widgets, in the new order, with their content.
  const saved = await serverPage(page);
  const banner = saved.body.find((r) => r.name === 'banner')!;
  expect(banner.widgets.map((w) => w.type)).toEqual(['cmsRichText', 'cmsRawHtml', 'cmsPoll', 'cmsImage']);
  expect(banner.widgets[0]!.asset.fields.text).toMatch(
    /<h2>Press contacts<\/h2><ul><li><p>Logos and photos<\/p><\/li><li><p><a [^>]*href="https:\/\/example\.org\/facts"/,
  );
  expect(banner.widgets[1]!.asset.fields.html).toBe('<p class="note">Embargo until Monday</p>');
  expect(JSON.parse(banner.widgets[2]!.asset.fields.pollQuestion!)).toMatchObject({
    question: 'Which format do you need?',
    answerChoices: ['Print', 'Web'],
  });
  expect(banner.widgets[3]!.asset).toMatchObject({ name: PHOTO, folderPath: PHOTO_FOLDER });

  // After a reload everything is there.
  await page.reload();
  await expect(cards(page, 'banner')).toHaveCount(4);
  await expect(cards(page, 'banner').first().getByRole('heading', { level: 2, name: 'Press contacts' })).toBeVisible();
  await expect(cards(page, 'banner').nth(2).getByLabel('Question text')).toHaveValue('Which format do you need?');
  await expect(cards(page, 'banner').nth(3).getByRole('img', { name: PHOTO_ALT })).toBeVisible();
  await expect(page.getByText('All changes saved')).toBeVisible();
});

test('an editor makes the rich text shared, finds it in the asset library and links it from a second page', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await page.goto(PAGE);
  const richText = cards(page, 'banner').first();
  await richText.getByRole('button', { name: /More actions/ }).click();
  await page.getByRole('menuitem', { name: 'Make shared…' }).click();
  const share = page.getByRole('dialog', { name: /Make this rich text shared/ });
  await share.getByLabel('Name').fill('press-contacts');
  await share.getByRole('button', { name: 'Make shared' }).click();
  await expect(share).toBeHidden();
  await expect(richText).toContainText('Becomes the shared asset Assets/shared/press-contacts when you save.');
  await saveWithShortcut(page);
  await expect(richText).toContainText('Shared asset Assets/shared/press-contacts');
  await expect(richText.getByRole('link', { name: 'Edit in asset library' })).toBeVisible();

  // In the asset library.
  await page.goto('/assets/shared');
  await expect(page.getByText('press-contacts')).toBeVisible();

  // Linked from a second page.
  await page.goto(`/pages/${SECOND_PATH}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Second page' })).toBeVisible();
  await addWidget(page, 'body', 'Rich text');
  const added = cards(page, 'body').last();
  await added.getByRole('button', { name: /More actions/ }).click();
  await page.getByRole('menuitem', { name: 'Link shared asset…' }).click();
  const picker = page.getByRole('dialog', { name: /Link a shared rich text/ });
  await picker.getByRole('searchbox', { name: 'Search the asset library' }).fill('press-contacts');
  await picker.getByRole('row', { name: /^press-contacts,/ }).click();
  await picker.getByRole('button', { name: 'Choose', exact: true }).click();
  await saveWithShortcut(page);
  await expect(added).toContainText('Shared asset Assets/shared/press-contacts');
  await expect(added).toContainText('1 other page uses it.');
  const second = await serverPage(page, SECOND_PATH);
  expect(second.body.find((r) => r.name === 'body')!.widgets.at(-1)!.asset).toMatchObject({
    name: 'press-contacts',
    folderPath: 'Assets/shared',
  });
});

test('an editor submits the page for review, then approves it with its draft shared assets', async ({ page }) => {
  await page.goto(PAGE);
  await expect(page.getByText('Draft', { exact: true })).toBeVisible();
  await page.getByRole('group', { name: 'Workflow' }).getByRole('button', { name: 'Submit for review' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'All changes saved' })).toBeVisible();
  await expect(page.getByText('Review', { exact: true })).toBeVisible();
  expect((await serverPage(page)).workflow.state).toBe('Review');

  await page.getByRole('group', { name: 'Workflow' }).getByRole('button', { name: 'Approve' }).click();
  const dialog = page.getByRole('dialog', { name: 'Approve the shared assets too?' });
  await expect(dialog).toContainText('Assets/shared/press-contacts');
  await expect(dialog).toContainText(`${PHOTO_FOLDER}/${PHOTO}`);
  await expectButtonsInside(dialog);
  await page.setViewportSize({ width: 1024, height: 640 });
  await expectButtonsInside(dialog);
  await dialog.getByRole('button', { name: /Approve page and 2 assets/ }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Public', { exact: true })).toBeVisible();
  expect((await serverPage(page)).workflow.state).toBe('Public');
  const asset = await page.request.get('/cms/rest/assets/by-path/Assets/shared/press-contacts');
  expect(((await asset.json()) as { workflow: { state: string } }).workflow.state).toBe('Public');
});

test('two editors change the same page: the second save shows what the first changed, and overwrites only when chosen', async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000);
  await page.goto(PAGE);
  const other = await browser.newContext({ storageState: await page.context().storageState() });
  const them = await other.newPage();
  await them.goto(PAGE);

  // They change the display name and save first.
  await them.getByRole('tab', { name: 'Properties' }).click();
  await them.getByLabel('Display name').fill('Press kit (theirs)');
  await them.keyboard.press('Control+s');
  await expect(them.getByText('All changes saved')).toBeVisible();

  // I change the display name too, and the raw HTML.
  await page.getByRole('tab', { name: 'Properties' }).click();
  await page.getByLabel('Display name').fill('Press kit (mine)');
  await page.keyboard.press('Control+s');
  // The dialog names who saved and when (both editors are admin here).
  const conflict = page.getByRole('dialog', { name: /^admin saved this at / });
  await expect(conflict).toBeVisible();
  await expect(conflict.getByRole('region', { name: 'Properties' })).toContainText('Display name');
  await expect(conflict).toContainText('Press kit (theirs)');
  await expect(conflict).toContainText('Press kit (mine)');
  expect((await serverPage(page)).displayName).toBe('Press kit (theirs)');

  // Cancel keeps editing, nothing saved; then overwrite deliberately.
  await conflict.getByRole('button', { name: 'Cancel (keep editing)' }).click();
  await expect(conflict).toBeHidden();
  expect((await serverPage(page)).displayName).toBe('Press kit (theirs)');
  await page.keyboard.press('Control+s');
  await conflict.getByRole('button', { name: 'Overwrite with mine' }).click();
  await expect(conflict).toBeHidden();
  await expect(page.getByText('All changes saved')).toBeVisible();
  expect((await serverPage(page)).displayName).toBe('Press kit (mine)');
  await other.close();
});

test('a reload with unsaved edits offers to restore them, saying when they were made', async ({ page }) => {
  await page.goto(PAGE);
  await page.getByRole('tab', { name: 'Properties' }).click();
  await page.getByLabel('Summary').fill('Everything the press needs.');
  await expect(page.getByText(/1 unsaved change · kept in this browser/)).toBeVisible();
  // The draft is written a moment after typing stops.
  await page.waitForFunction(async () => {
    const dbs = await indexedDB.databases();
    return dbs.some((d) => d.name === 'folio-drafts');
  });
  await page.waitForTimeout(600);
  page.once('dialog', (d) => void d.accept());
  await page.reload();

  const offer = page.getByRole('dialog', { name: 'Restore your unsaved changes?' });
  await expect(offer).toBeVisible();
  await expect(offer).toContainText(/just now|minute/);
  await expect(offer).toContainText('The server copy has not changed since');
  await offer.getByRole('button', { name: 'Restore my changes' }).click();
  await page.getByRole('tab', { name: 'Properties' }).click();
  await expect(page.getByLabel('Summary')).toHaveValue('Everything the press needs.');
  await saveWithShortcut(page);

  await page.reload();
  await expect(page.getByRole('dialog', { name: 'Restore your unsaved changes?' })).toHaveCount(0);
});

test('leaving the editor with unsaved changes asks first; leaving keeps them as a draft', async ({ page }) => {
  await page.goto(`/pages/${SECOND_PATH}`);
  await page.getByRole('tab', { name: 'Properties' }).click();
  await page.getByLabel('Summary').fill('Typed, then the tree was used.');
  await page.getByRole('link', { name: 'Sites', exact: true }).click();
  const guard = page.getByRole('dialog', { name: 'Leave without saving?' });
  await expect(guard).toContainText('they stay in this browser as a draft');
  await guard.getByRole('button', { name: 'Stay here' }).click();
  await expect(page).toHaveURL(new RegExp(`/pages/${SECOND_PATH}$`));
  await expect(page.getByLabel('Summary')).toHaveValue('Typed, then the tree was used.');

  await page.getByRole('link', { name: 'Sites', exact: true }).click();
  await guard.getByRole('button', { name: 'Leave and keep a draft' }).click();
  await expect(page).toHaveURL(/\/sites$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Sites' })).toBeVisible();
  await page.goBack();
  await expect(page).toHaveURL(new RegExp(`/pages/${SECOND_PATH}$`));
  const offer = page.getByRole('dialog', { name: 'Restore your unsaved changes?' });
  await expect(offer).toBeVisible();
  await offer.getByRole('button', { name: 'Discard them' }).click();
  await page.getByRole('tab', { name: 'Properties' }).click();
  await expect(page.getByLabel('Summary')).toHaveValue('');
});

test('a session that ends mid-edit signs in again in a dialog, and the save goes through', async ({ browser }) => {
  // A session of its own: ending it must not end the one the other specs share.
  const context = await browser.newContext({ storageState: SIGNED_OUT });
  const page = await context.newPage();
  await page.goto('/sign-in');
  await signInThroughForm(page, 'admin', E2E_ADMIN_PASSWORD);
  await expect(page.getByRole('heading', { level: 1, name: 'Sites' })).toBeVisible();
  await page.goto(PAGE);
  await page.getByRole('tab', { name: 'Properties' }).click();
  await page.getByLabel('Browser title').fill('Press kit · Folio');

  // The session ends on the server (as after the idle timeout).
  const me = (await (await page.request.get('/cms/rest/auth/me')).json()) as { csrfToken: string };
  await page.request.post('/cms/rest/auth/logout', { headers: { 'x-csrf-token': me.csrfToken } });

  await page.keyboard.press('Control+s');
  const dialog = page.getByRole('dialog', { name: 'Sign in again to continue' });
  await expect(dialog).toBeVisible();
  await expect(page).toHaveURL(/\/pages\/demo\/editor-e2e\/press-kit$/);
  await dialog.getByLabel('Password', { exact: true }).fill(E2E_ADMIN_PASSWORD);
  await dialog.getByLabel('Password', { exact: true }).press('Enter');
  await expect(dialog).toBeHidden();
  await expect(page.getByText('All changes saved')).toBeVisible();
  await expect(page.getByLabel('Browser title')).toHaveValue('Press kit · Folio');
  const res = await page.request.get(`/cms/rest/pages/by-path/${PAGE_PATH}`);
  expect(((await res.json()) as { seo: { browserTitle: string } }).seo.browserTitle).toBe('Press kit · Folio');
  await context.close();
});

test('an editor rearranges widgets by drag and drop and menus, removes one with Undo, previews, and switches the template', async ({
  page,
}) => {
  test.setTimeout(60_000);
  await page.goto(`/pages/${THIRD_PATH}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Third page' })).toBeVisible();
  const main = () => cards(page, 'main');
  await expect(main()).toHaveCount(2);
  await expect(main().nth(1)).toContainText('Beta');

  // Drag and drop: Beta's handle onto Alpha puts Beta first.
  // A person's drag: press on the handle, move in steps, let go over Alpha's header.
  // Both in sight below the editor's sticky header: Beta's top about 600 px down the window.
  await main()
    .nth(1)
    .evaluate((el) => el.closest('main')!.scrollBy(0, el.getBoundingClientRect().top - 600));
  const from = (await main().nth(1).locator('.widget-card__grip').boundingBox())!;
  const to = (await main().nth(0).locator('.widget-card__header').boundingBox())!;
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(from.x + 30, from.y - 20, { steps: 5 });
  await page.mouse.move(to.x + 100, to.y + to.height / 2, { steps: 10 });
  await page.mouse.up();
  await expect(main().nth(0)).toContainText('Beta');
  await expect(main().nth(1)).toContainText('Alpha');

  // Move to another region, from the widget's menu.
  await main()
    .nth(1)
    .getByRole('button', { name: /More actions/ })
    .click();
  await page.getByRole('menuitem', { name: 'Move to region “sidebar”' }).click();
  await expect(cards(page, 'sidebar')).toHaveCount(1);
  await expect(cards(page, 'sidebar').first()).toContainText('Alpha');

  // Duplicate, remove the copy, undo, remove it again.
  await main()
    .first()
    .getByRole('button', { name: /More actions/ })
    .click();
  await page.getByRole('menuitem', { name: 'Duplicate' }).click();
  await expect(main()).toHaveCount(2);
  await main()
    .nth(1)
    .getByRole('button', { name: /More actions/ })
    .click();
  await page.getByRole('menuitem', { name: 'Remove' }).click();
  await expect(main()).toHaveCount(1);
  const notifications = page.getByRole('region', { name: 'Notifications' });
  await notifications.getByRole('button', { name: 'Undo' }).click();
  await expect(main()).toHaveCount(2);
  await main()
    .nth(1)
    .getByRole('button', { name: /More actions/ })
    .click();
  await page.getByRole('menuitem', { name: 'Remove' }).click();
  await expect(main()).toHaveCount(1);

  await saveWithShortcut(page);
  const saved = await serverPage(page, THIRD_PATH);
  const textsOf = (name: string) => saved.body.find((r) => r.name === name)!.widgets.map((w) => w.asset.fields.text);
  expect(textsOf('main')).toEqual(['<p>Beta</p>']);
  expect(textsOf('sidebar')).toEqual(['<p>Alpha</p>']);

  // The preview shows the page's regions and widgets in a sandboxed frame.
  await page.getByRole('radio', { name: 'Preview', exact: true }).click();
  const preview = page.frameLocator('iframe[title="Preview of Third page"]');
  await expect(preview.locator('[data-region="main"]')).toContainText('Beta');
  await expect(preview.locator('[data-region="sidebar"]')).toContainText('Alpha');
  expect(await page.locator('iframe[title="Preview of Third page"]').getAttribute('sandbox')).toBe('allow-same-origin');
  await page.getByRole('radio', { name: 'Edit', exact: true }).click();

  // Switching the template names the regions whose content would be dropped, and asks first.
  await page.getByRole('tab', { name: 'Properties' }).click();
  await page.getByRole('button', { name: /Two columns\s*Template/ }).click();
  await page.getByRole('option', { name: /^Article/ }).click();
  const ask = page.getByRole('alertdialog', { name: 'Switch to the template “Article”?' });
  await expect(ask).toContainText('main — 1 widget');
  await expect(ask).toContainText('sidebar — 1 widget');
  await ask.getByRole('button', { name: 'Cancel' }).click();
  expect((await serverPage(page, THIRD_PATH)).body.map((r) => r.name)).toContain('main');
  await page.getByRole('button', { name: /Two columns\s*Template/ }).click();
  await page.getByRole('option', { name: /^Article/ }).click();
  await ask.getByRole('button', { name: 'Switch and drop 2 regions' }).click();
  await expect(ask).toBeHidden();
  await expect(page.getByText('template article')).toBeVisible();
  expect((await serverPage(page, THIRD_PATH)).body.map((r) => r.name)).toEqual(['header', 'title', 'body', 'footer']);
});

for (const colorScheme of ['light', 'dark'] as const) {
  test(`the page editor has no serious or critical accessibility violations in the ${colorScheme} theme`, async ({
    page,
  }) => {
    await page.emulateMedia({ colorScheme });
    await page.goto('/pages/demo/index');
    await expect(page.getByRole('heading', { level: 1, name: 'Welcome to the Folio demo' })).toBeVisible();
    await expect(page.getByRole('status').filter({ hasText: 'Loading' })).toHaveCount(0);
    await expect(page.getByRole('textbox', { name: 'Text' }).first()).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole('tab', { name: 'Properties' }).click();
    await expect(page.getByLabel('Display name')).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole('tab', { name: 'Content' }).click();
    await page.getByRole('button', { name: 'Add widget to content' }).click();
    await expect(page.getByRole('dialog', { name: /Add a widget/ })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
  });
}

/** Every button of a dialog lies inside the dialog's visible box (none clipped off its edges). */
async function expectButtonsInside(dialog: Locator) {
  const box = (await dialog.locator('xpath=..').boundingBox())!;
  const buttons = await dialog.getByRole('button').all();
  expect(buttons.length).toBeGreaterThan(0);
  for (const button of buttons) {
    const b = (await button.boundingBox())!;
    expect(b.x, await button.innerText()).toBeGreaterThanOrEqual(box.x);
    expect(b.y).toBeGreaterThanOrEqual(box.y);
    expect(b.x + b.width, await button.innerText()).toBeLessThanOrEqual(box.x + box.width);
    expect(b.y + b.height).toBeLessThanOrEqual(box.y + box.height);
  }
}
