import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { SIGNED_OUT } from './support/env';
import { signInThroughForm } from './support/sign-in';
import { ADMIN_AUTHORIZATION } from './support/users';

const JSON_HEADERS = { 'x-requested-with': 'XMLHttpRequest' };

const tree = (page: Page) => page.getByRole('tree', { name: 'Sites and asset library' });
const treeItem = (page: Page, name: string) => tree(page).getByRole('treeitem', { name, exact: true });
/** The accessible names of the children of a tree item that are shown, in order. */
async function childrenOf(page: Page, parentPath: string): Promise<string[]> {
  const depth = parentPath.split('/').length;
  return tree(page)
    .locator(`[role="treeitem"][aria-level="${depth + 1}"]`)
    .evaluateAll(
      (rows, prefix) =>
        rows
          .filter((r) => (r.getAttribute('data-path') ?? '').startsWith(`${prefix}/`))
          .map((r) => r.getAttribute('aria-label') ?? ''),
      parentPath,
    );
}

/** Opens an item's context menu with a right click and chooses an action. */
async function contextAction(page: Page, item: Locator, action: string) {
  await item.click({ button: 'right' });
  await page.getByRole('menu').getByRole('menuitem', { name: action }).click();
}

/** Opens a tree item with the keyboard (focus it, Right arrow) and waits for its children. */
async function expand(page: Page, name: string) {
  const row = treeItem(page, name);
  if ((await row.getAttribute('aria-expanded')) === 'true') return;
  await row.locator('button[slot="chevron"]').click();
  await expect(row).toHaveAttribute('aria-expanded', 'true');
}

async function folderJson(page: Page, path: string) {
  const res = await page.request.get(`/cms/rest/folders/by-path/${path}`, { headers: JSON_HEADERS });
  expect(res.status(), `GET ${path}`).toBe(200);
  return (await res.json()) as {
    subsections?: { name: string; type: string; href: string }[];
    subfolders?: { name: string }[];
    pages?: { name: string }[];
    sectionInfo?: { templateName?: string; externalLinkUrl?: string; linkTarget?: { href: string } };
  };
}

/** Serious and critical WCAG 2.1 A/AA violations on the page as it is now, listed readably. */
async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

test('an admin shapes the demo site in the explorer, and all of it is still there after a reload', async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto('/sites');
  const demo = treeItem(page, 'Home (demo), site');
  await expect(demo).toBeVisible();

  // Expand the demo site by keyboard: Tab into the tree, Right arrow opens the focused site.
  await page.getByRole('searchbox', { name: 'Filter loaded items by title or name' }).focus();
  await page.keyboard.press('Tab');
  await expect(demo).toBeFocused();
  await page.keyboard.press('ArrowRight');
  await expect(demo).toHaveAttribute('aria-expanded', 'true');
  await expect(treeItem(page, 'About us (about), section')).toBeVisible();
  await page.keyboard.press('ArrowDown');
  await expect(treeItem(page, 'About us (about), section')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/sites\/demo\/about$/);
  await expect(page.getByRole('heading', { level: 1, name: 'About us' })).toBeVisible();
  await expect(treeItem(page, 'About us (about), section')).toHaveAttribute('aria-selected', 'true');

  // A section with a landing page made from the "landing" template.
  await contextAction(page, demo, 'New section…');
  let dialog = page.getByRole('dialog', { name: 'New section in “Home”' });
  await dialog.getByLabel('Display title').fill('Press room');
  await expect(dialog.getByLabel('Name', { exact: true })).toHaveValue('press-room');
  await dialog.getByRole('button', { name: /Landing page template/ }).click();
  await page.getByRole('option', { name: /Landing page/ }).click();
  await dialog.getByRole('button', { name: 'Create section' }).click();
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(/\/sites\/demo\/press-room$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Press room' })).toBeVisible();
  const pressRoom = treeItem(page, 'Press room (press-room), section');
  await expect(pressRoom).toHaveAttribute('aria-selected', 'true');
  await expand(page, 'Press room (press-room), section');
  await expect(treeItem(page, 'Press room (index), landing page').last()).toBeVisible();
  const landing = await page.request.get('/cms/rest/pages/by-path/demo/press-room/index', { headers: JSON_HEADERS });
  expect(((await landing.json()) as { templateName: string }).templateName).toBe('landing');

  // A folder, through the row's "…" button.
  await pressRoom.hover();
  await page.getByRole('button', { name: 'Actions for press-room' }).click();
  await page.getByRole('menuitem', { name: 'New folder…' }).click();
  dialog = page.getByRole('dialog', { name: 'New folder in “Press room”' });
  await dialog.getByLabel('Name', { exact: true }).fill('kits');
  await dialog.getByRole('button', { name: 'Create folder' }).click();
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(/\/sites\/demo\/press-room\/kits$/);
  const kits = treeItem(page, 'kits, folder');
  await expect(kits).toBeVisible();

  // A page in that folder, from the folder's screen; the template comes from the service's list.
  await page.getByRole('button', { name: 'New', exact: true }).click();
  await page.getByRole('menuitem', { name: 'Page' }).click();
  dialog = page.getByRole('dialog', { name: 'New page in “kits”' });
  await dialog.getByLabel('Display name').fill('Media kit');
  await dialog.getByRole('button', { name: /Template$/ }).click();
  await page.getByRole('option', { name: /^Article/ }).click();
  await dialog.getByRole('button', { name: 'Create page' }).click();
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(/\/pages\/demo\/press-room\/kits\/media-kit$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Media kit' })).toBeVisible();
  await expect(page.getByText('article', { exact: true })).toBeVisible();
  await expect(treeItem(page, 'Media kit (media-kit), page')).toHaveAttribute('aria-selected', 'true');

  // An external link: the URL must be an absolute http(s) address.
  await contextAction(page, demo, 'New external link…');
  dialog = page.getByRole('dialog', { name: 'New external link in “Home”' });
  await dialog.getByLabel('Display title').fill('Folio on GitHub');
  await dialog.getByLabel('URL').fill('ftp://example.org/folio');
  await dialog.getByRole('button', { name: 'Create external link' }).click();
  await expect(dialog.getByText('The URL must be an absolute http:// or https:// URL.')).toBeVisible();
  await dialog.getByLabel('URL').fill('https://github.com/example/folio');
  await dialog.getByRole('button', { name: 'Create external link' }).click();
  await expect(dialog).toBeHidden();
  await expect(treeItem(page, 'Folio on GitHub (folio-on-github), external link')).toBeVisible();

  // A section link whose target is picked in a tree.
  await contextAction(page, demo, 'New section link…');
  dialog = page.getByRole('dialog', { name: 'New section link in “Home”' });
  const picker = dialog.getByRole('tree', { name: 'Target section' });
  await picker.getByRole('treeitem', { name: 'About us (about), section' }).locator('button[slot="chevron"]').click();
  await picker.getByRole('treeitem', { name: 'Our team (team), section' }).click();
  await expect(dialog.getByText('Leads to “demo/about/team”.')).toBeVisible();
  await dialog.getByLabel('Display title').fill('Meet the team');
  await dialog.getByLabel('Name', { exact: true }).fill('team-link');
  await dialog.getByRole('button', { name: 'Create section link' }).click();
  await expect(dialog).toBeHidden();
  await expect(treeItem(page, 'Meet the team (team-link), section link')).toBeVisible();

  // Rename inline with F2.
  await kits.click();
  await expect(page).toHaveURL(/\/sites\/demo\/press-room\/kits$/);
  await kits.focus();
  await page.keyboard.press('F2');
  const nameField = tree(page).getByRole('textbox', { name: 'New name for kits, folder' });
  await expect(nameField).toBeFocused();
  await nameField.fill('media-kits');
  await nameField.press('Enter');
  await expect(treeItem(page, 'media-kits, folder')).toBeVisible();
  // The screen showing the renamed folder follows it to its new address.
  await expect(page).toHaveURL(/\/sites\/demo\/press-room\/media-kits$/);

  // Move a folder by drag and drop: "articles" onto the section "press-room".
  await treeItem(page, 'articles, folder').dragTo(pressRoom);
  await expect(page.getByRole('region', { name: 'Notifications' })).toContainText('Moved “articles” into “Press room”');
  await expect.poll(() => childrenOf(page, 'demo/press-room')).toContain('articles, folder');
  expect(await childrenOf(page, 'demo')).not.toContain('articles, folder');

  // Move another with the keyboard's "Move to…": "media-kits" into the section "news".
  const mediaKits = treeItem(page, 'media-kits, folder');
  await mediaKits.focus();
  await page.keyboard.press('Shift+F10');
  await page.getByRole('menuitem', { name: 'Move to…' }).click();
  dialog = page.getByRole('dialog', { name: 'Move folder “media-kits”' });
  const target = dialog.getByRole('tree', { name: 'Move to' });
  // A cycle is refused before anything is sent.
  await target.getByRole('treeitem', { name: 'Press room (press-room), section' }).click();
  await expect(dialog.getByText('“media-kits” is already in “press-room”.')).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Move here' })).toBeDisabled();
  await target.getByRole('treeitem', { name: 'News (news), section' }).click();
  await dialog.getByRole('button', { name: 'Move here' }).click();
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(/\/sites\/demo\/news\/media-kits$/);
  await expect(treeItem(page, 'media-kits, folder')).toHaveAttribute('aria-selected', 'true');

  // Reorder two sections: "news" above "about", by drag and drop (drop on the upper edge of "about")…
  const about = treeItem(page, 'About us (about), section');
  await treeItem(page, 'News (news), section').dragTo(about, { targetPosition: { x: 60, y: 3 } });
  await expect
    .poll(() => childrenOf(page, 'demo'))
    .toEqual(expect.arrayContaining(['News (news), section', 'About us (about), section']));
  await expect
    .poll(async () => (await childrenOf(page, 'demo')).slice(0, 2))
    .toEqual(['News (news), section', 'About us (about), section']);
  // …and "press-room" up by one with the keyboard (Alt+↑).
  await pressRoom.focus();
  await page.keyboard.press('Alt+ArrowUp');
  await expect
    .poll(async () => (await childrenOf(page, 'demo')).filter((n) => /section|link/.test(n)))
    .toEqual([
      'News (news), section',
      'About us (about), section',
      'Press room (press-room), section',
      'Documentation (folio-docs), external link',
      'Folio on GitHub (folio-on-github), external link',
      'Meet the team (team-link), section link',
    ]);

  // Delete a non-empty folder, after a confirmation that names what goes.
  await contextAction(page, demo, 'New folder…');
  dialog = page.getByRole('dialog', { name: 'New folder in “Home”' });
  await dialog.getByLabel('Name', { exact: true }).fill('drafts');
  await dialog.getByRole('button', { name: 'Create folder' }).click();
  await expect(page).toHaveURL(/\/sites\/demo\/drafts$/);
  await page.getByRole('button', { name: 'New', exact: true }).click();
  await page.getByRole('menuitem', { name: 'Folder' }).click();
  dialog = page.getByRole('dialog', { name: 'New folder in “drafts”' });
  await dialog.getByLabel('Name', { exact: true }).fill('old');
  await dialog.getByRole('button', { name: 'Create folder' }).click();
  await expect(page).toHaveURL(/\/sites\/demo\/drafts\/old$/);
  await contextAction(page, treeItem(page, 'drafts, folder'), 'Delete…');
  const confirm = page.getByRole('alertdialog', { name: 'Delete folder “drafts”?' });
  await expect(confirm).toContainText('Everything inside demo/drafts goes with it: 1 folder.');
  const deleteButton = confirm.getByRole('button', { name: 'Delete folder' });
  await expect(deleteButton).toBeDisabled();
  await confirm.getByText('Delete “drafts” and everything inside it').click();
  await deleteButton.click();
  await expect(confirm).toBeHidden();
  await expect(treeItem(page, 'drafts, folder')).toHaveCount(0);
  // The screen of the deleted folder's content went back to the site.
  await expect(page).toHaveURL(/\/sites\/demo$/);

  // Everything is stored: after a reload the tree shows it again (opened where it was), and so does the service.
  await page.reload();
  await expect(treeItem(page, 'Home (demo), site')).toHaveAttribute('aria-expanded', 'true');
  await expect
    .poll(async () => (await childrenOf(page, 'demo')).filter((n) => /section|link/.test(n)))
    .toEqual([
      'News (news), section',
      'About us (about), section',
      'Press room (press-room), section',
      'Documentation (folio-docs), external link',
      'Folio on GitHub (folio-on-github), external link',
      'Meet the team (team-link), section link',
    ]);
  await expand(page, 'Press room (press-room), section');
  await expect
    .poll(() => childrenOf(page, 'demo/press-room'))
    .toEqual(['articles, folder', 'Press room (index), landing page']);
  await expand(page, 'News (news), section');
  await expand(page, 'media-kits, folder');
  await expect(treeItem(page, 'Media kit (media-kit), page')).toBeVisible();
  expect(await childrenOf(page, 'demo')).not.toContain('drafts, folder');

  const site = await folderJson(page, 'demo');
  expect(site.subsections?.map((s) => s.name)).toEqual([
    'news',
    'about',
    'press-room',
    'folio-docs',
    'folio-on-github',
    'team-link',
  ]);
  expect(site.subfolders?.map((f) => f.name)).toEqual([]);
  const link = await folderJson(page, 'demo/team-link');
  expect(link.sectionInfo?.linkTarget?.href).toBe('/cms/rest/folders/by-path/demo/about/team');
  const github = await folderJson(page, 'demo/folio-on-github');
  expect(github.sectionInfo?.externalLinkUrl).toBe('https://github.com/example/folio');
  expect((await folderJson(page, 'demo/press-room/articles')).pages?.map((p) => p.name)).toEqual([
    'getting-started',
    'press-kit',
    'welcome',
  ]);
  expect((await folderJson(page, 'demo/news/media-kits')).pages?.map((p) => p.name)).toEqual(['media-kit']);
  const gone = await page.request.get('/cms/rest/folders/by-path/demo/drafts', { headers: JSON_HEADERS });
  expect(gone.status()).toBe(404);
});

test('the URL is the item’s path: deep links open the tree down to the item, and the back button works', async ({
  page,
}) => {
  await page.goto('/sites/demo/about/team');
  await expect(page.getByRole('heading', { level: 1, name: 'Our team' })).toBeVisible();
  const team = treeItem(page, 'Our team (team), section');
  await expect(team).toHaveAttribute('aria-selected', 'true');
  await expect(treeItem(page, 'About us (about), section')).toHaveAttribute('aria-expanded', 'true');
  const crumbs = page.getByRole('navigation', { name: 'Breadcrumbs' });
  await expect(crumbs.getByRole('link')).toHaveText(['Home', 'About us', 'Our team']);

  await treeItem(page, 'About us (about), section').click();
  await expect(page).toHaveURL(/\/sites\/demo\/about$/);
  await crumbs.getByRole('link', { name: 'Home' }).click();
  await expect(page).toHaveURL(/\/sites\/demo$/);
  await page.goBack();
  await expect(page).toHaveURL(/\/sites\/demo\/about$/);
  await page.goBack();
  await expect(page).toHaveURL(/\/sites\/demo\/about\/team$/);
  await expect(team).toHaveAttribute('aria-selected', 'true');

  // An asset folder opens in the asset library; a page with its summary.
  await page.goto('/assets/images');
  await expect(page.getByRole('heading', { level: 1, name: 'images' })).toBeVisible();
  await expect(page.getByRole('grid', { name: 'Assets in images' })).toContainText('logo.png');
  await expect(treeItem(page, 'images, asset folder')).toHaveAttribute('aria-selected', 'true');
});

test('find searches every site on the server; the filter narrows what the tree has loaded', async ({ page }) => {
  await page.goto('/sites');
  await expect(treeItem(page, 'Home (demo), site')).toBeVisible();
  const find = page.getByRole('combobox', { name: 'Find by title or name' });
  await find.fill('getting');
  await page.getByRole('option', { name: 'Getting started' }).click();
  await expect(page).toHaveURL(/\/pages\/demo\/.*getting-started$/);
  await expect(treeItem(page, 'Getting started (getting-started), page')).toHaveAttribute('aria-selected', 'true');

  const filter = page.getByRole('searchbox', { name: 'Filter loaded items by title or name' });
  await filter.fill('start');
  // Only the match and the containers leading to it stay.
  await expect(treeItem(page, 'Getting started (getting-started), page')).toBeVisible();
  await expect(treeItem(page, 'About us (about), section')).toHaveCount(0);
  await expect(treeItem(page, 'Assets, asset library')).toHaveCount(0);
  await expect(page.getByText('1 loaded item matches')).toBeVisible();
  await filter.fill('');
  await expect(treeItem(page, 'Assets, asset library')).toBeVisible();
});

test('the find field keeps what is typed before its code has loaded, and the header does not move', async ({
  page,
}) => {
  // The explorer's code (tree, find field) held back until the text is typed.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/explorer-lazy-[^/]*\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto('/sites');
  await expect(page.getByRole('heading', { level: 1, name: 'Sites' })).toBeVisible();
  const box = page.getByRole('textbox', { name: 'Find by title or name', exact: true });
  const search = page.getByRole('button', { name: /^Search/ });
  const searchAt = await search.boundingBox();
  // The text starts after the search icon, in the box as in the field.
  const textStart = (input: Locator) =>
    input.evaluate((el) => el.getBoundingClientRect().left + parseFloat(getComputedStyle(el).paddingLeft));
  const iconEnd = async () =>
    (await page.getByRole('banner').locator('.find-field .search-field__icon').boundingBox())!;
  let icon = await iconEnd();
  expect(await textStart(box)).toBeGreaterThan(icon.x + icon.width);
  await box.focus();
  await page.keyboard.type('getting st');
  release();
  const find = page.getByRole('combobox', { name: 'Find by title or name', exact: true });
  await expect(find).toBeFocused();
  await expect(find).toHaveValue('getting st');
  expect(await search.boundingBox()).toEqual(searchAt);
  icon = await iconEnd();
  expect(await textStart(find)).toBeGreaterThan(icon.x + icon.width);
  await page.keyboard.type('a');
  await page.getByRole('option', { name: 'Getting started' }).click();
  await expect(page).toHaveURL(/\/pages\/demo\/.*getting-started$/);
});

test('a Viewer reads the explorer but is offered nothing that changes anything', async ({ playwright, browser }) => {
  const baseURL = test.info().project.use.baseURL!;
  const admin = await playwright.request.newContext({
    baseURL,
    extraHTTPHeaders: {
      authorization: ADMIN_AUTHORIZATION,
      ...JSON_HEADERS,
    },
  });
  const username = `reader-${Date.now().toString(36)}`;
  expect(
    (
      await admin.put(`/cms/rest/users/${username}`, { data: { role: 'Viewer', password: 'reader-password' } })
    ).status(),
  ).toBe(201);

  const context = await browser.newContext({ baseURL, storageState: SIGNED_OUT });
  const page = await context.newPage();
  await page.goto('/sign-in');
  await signInThroughForm(page, username, 'reader-password');
  await expect(page.getByRole('heading', { level: 1, name: 'Sites' })).toBeVisible();
  await expand(page, 'Home (demo), site');
  await treeItem(page, 'About us (about), section').click();
  await expect(page.getByRole('heading', { level: 1, name: 'About us' })).toBeVisible();

  // No "…" buttons, nothing draggable, a context menu that only opens, no toolbar, read-only properties.
  await expect(tree(page).getByRole('button', { name: /^Actions for/ })).toHaveCount(0);
  await expect(tree(page).locator('[draggable="true"]')).toHaveCount(0);
  await treeItem(page, 'About us (about), section').click({ button: 'right' });
  await expect(page.getByRole('menu').getByRole('menuitem')).toHaveText(['OpenEnter']);
  await page.keyboard.press('Escape');
  await page.keyboard.press('F2');
  await expect(page.getByRole('textbox', { name: /New name/ })).toHaveCount(0);
  await expect(page.getByRole('toolbar')).toHaveCount(0);
  for (const name of ['New', 'Rename', 'Move to…', 'Delete', 'Save properties']) {
    await expect(page.getByRole('button', { name, exact: true })).toHaveCount(0);
  }
  await expect(page.getByRole('main').getByRole('textbox')).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Move .* (up|down)$/ })).toHaveCount(0);

  await context.close();
  expect((await admin.delete(`/cms/rest/users/${username}`)).status()).toBe(200);
  await admin.dispose();
});

for (const colorScheme of ['light', 'dark'] as const) {
  test(`the explorer has no serious or critical accessibility violations (${colorScheme} theme)`, async ({ page }) => {
    await page.emulateMedia({ colorScheme });
    await page.goto('/sites/demo/about');
    await expect(page.getByRole('heading', { level: 1, name: 'About us' })).toBeVisible();
    await expand(page, 'About us (about), section');
    await expect(treeItem(page, 'Our team (team), section')).toBeVisible();
    await expect(page.getByRole('status').filter({ hasText: 'Loading' })).toHaveCount(0);
    expect(await seriousViolations(page)).toEqual([]);

    await treeItem(page, 'About us (about), section').click({ button: 'right' });
    await expect(page.getByRole('menu')).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');

    await page.getByRole('button', { name: 'Move to…' }).click();
    await expect(page.getByRole('dialog', { name: 'Move section “About us”' }).getByRole('tree')).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');

    await page.getByRole('button', { name: 'New', exact: true }).click();
    await page.getByRole('menuitem', { name: 'Section link' }).click();
    await expect(page.getByRole('dialog', { name: 'New section link in “About us”' }).getByRole('tree')).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');

    await page.goto('/pages/demo/about/index');
    await expect(page.getByRole('heading', { level: 1, name: 'About us' })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Page outline' })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
  });
}
