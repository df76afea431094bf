import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { adminApi } from './support/users';

/*
 * Building templates in the app, keyboard only: the widgets of fixed regions, where new regions go and moving
 * them, and switching a page's template while choosing where each region's content goes.
 */

interface StoredTemplate {
  regions: {
    name: string;
    editable: boolean;
    widgets: { type: string; asset: { fields: Record<string, string> } }[];
  }[];
}
interface StoredPage {
  templateName: string;
  body: { name: string; widgets: { id?: string; type: string; asset: { fields: Record<string, string> } }[] }[];
}

// Long flows with rich text and several saves: more than the default 30 s on a busy machine.
test.describe.configure({ timeout: 90_000 });

const suffix = () => Date.now().toString(36);

/** Focuses an element and presses a key on it, as a keyboard user would after tabbing there. */
async function press(target: Locator, key: string) {
  await target.focus();
  await target.press(key);
}

async function getJson<T>(api: APIRequestContext, url: string): Promise<T> {
  const res = await api.get(url);
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as T;
}

/** Opens the new template's editor and types its label and name. */
async function newTemplate(page: Page, label: string, name: string) {
  await page.goto('/templates');
  await press(page.getByRole('link', { name: 'New template' }), 'Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'New template' })).toBeVisible();
  await expect(page.getByLabel('Label')).toBeFocused();
  await page.keyboard.type(label);
  await page.getByLabel('Name', { exact: true }).fill(name);
}

test('an admin gives a new template’s header and footer widgets, and pages made from it show them', async ({
  page,
  playwright,
}) => {
  const api = await adminApi(playwright, test.info().project.use.baseURL!);
  const name = `letter-${suffix()}`;
  await newTemplate(page, `Letter ${name}`, name);

  // The header gets a rich text widget, chosen from the menu of widget types by typing its name.
  const header = page.getByRole('listitem').filter({ has: page.getByLabel('Name of region 1') });
  await press(header.getByRole('button', { name: 'Add widget to header' }), 'Enter');
  await expect(page.getByRole('menu')).toBeVisible();
  await page.keyboard.type('Rich text');
  await page.keyboard.press('Enter');
  await expect(header.getByRole('heading', { name: /Rich text widget, 1 of 1 in header/ })).toBeFocused();
  await header.getByRole('textbox', { name: 'Text' }).focus();
  await page.keyboard.type('Acme Corporation');

  // The footer gets a simple text widget.
  const footer = page.getByRole('listitem').filter({ has: page.getByLabel('Name of region 3') });
  await press(footer.getByRole('button', { name: 'Add widget to footer' }), 'Enter');
  await page.keyboard.type('Simple text');
  await page.keyboard.press('Enter');
  await footer.getByRole('textbox', { name: 'Text' }).focus();
  await page.keyboard.type('© Acme');
  await page.screenshot({ path: test.info().outputPath('template-widgets.png'), fullPage: true });
  await press(page.getByRole('button', { name: 'Create template' }), 'Enter');
  await expect(page).toHaveURL(new RegExp(`/templates/${name}$`));

  const stored = await getJson<StoredTemplate>(api, `/cms/rest/templates/${name}`);
  expect(stored.regions.map((r) => [r.name, r.widgets.map((w) => w.type)])).toEqual([
    ['header', ['cmsRichText']],
    ['main', []],
    ['footer', ['cmsSimpleText']],
  ]);
  expect(stored.regions[0]!.widgets[0]!.asset.fields.text).toContain('Acme Corporation');
  expect(stored.regions[2]!.widgets[0]!.asset.fields.text).toBe('© Acme');

  // The editor shows them again after a reload, and a page made from the template shows them.
  await page.reload();
  await expect(page.getByRole('textbox', { name: 'Text' }).first()).toContainText('Acme Corporation');
  const pagePath = `demo/${name}-page`;
  const made = await api.put(`/cms/rest/pages/by-path/${pagePath}`, {
    data: { templateName: name, displayName: 'Spring letter' },
  });
  expect(made.status()).toBe(201);
  const shown = await getJson<StoredPage>(api, `/cms/rest/pages/by-path/${pagePath}`);
  expect(shown.body.find((r) => r.name === 'header')!.widgets[0]!.asset.fields.text).toContain('Acme Corporation');
  await page.goto(`/pages/${pagePath}`);
  const headerRegion = page.getByRole('region', { name: /^header/ });
  await expect(headerRegion).toContainText('Acme Corporation');
  await expect(page.getByRole('region', { name: /^footer/ })).toContainText('© Acme');

  expect((await api.delete(`/cms/rest/pages/by-path/${pagePath}?purge=true`)).status()).toBe(200);
  expect((await api.delete(`/cms/rest/templates/${name}`)).status()).toBe(200);
  await api.dispose();
});

test('an admin adds regions before the footer or where they choose, and moves them with the keyboard', async ({
  page,
  playwright,
}) => {
  const api = await adminApi(playwright, test.info().project.use.baseURL!);
  const name = `event-${suffix()}`;
  await newTemplate(page, `Event ${name}`, name);

  // By default a new region goes before the footer.
  const where = page.getByRole('button', { name: /Where the new region goes/ });
  await expect(where).toContainText('Between “main” and “footer”');
  await press(page.getByRole('button', { name: 'Add region' }), 'Enter');
  await expect(page.getByLabel('Name of region 3')).toBeFocused();
  await page.keyboard.type('map');
  await expect(page.getByLabel('Name of region 4')).toHaveValue('footer');

  // Or where the person says: at the top.
  await press(where, 'Enter');
  await page.getByRole('option', { name: 'At the top, before “header”' }).press('Enter');
  await expect(where).toContainText('At the top, before “header”');
  await press(page.getByRole('button', { name: 'Add region' }), 'Enter');
  await expect(page.getByLabel('Name of region 1')).toBeFocused();
  await page.keyboard.type('banner');

  // Alt+↑ moves "map" above "main", the focus staying in its name; the buttons do the same.
  await page.getByLabel('Name of region 4').focus();
  await expect(page.getByLabel('Name of region 4')).toHaveValue('map');
  await page.keyboard.press('Alt+ArrowUp');
  await expect(page.getByLabel('Name of region 3')).toHaveValue('map');
  await expect(page.getByLabel('Name of region 3')).toBeFocused();
  await press(page.getByRole('button', { name: 'Move region “banner” down' }), 'Enter');
  await expect(page.getByRole('button', { name: 'Move region “banner” down' })).toBeFocused();
  await expect(page.getByLabel('Name of region 2')).toHaveValue('banner');
  await page.screenshot({ path: test.info().outputPath('template-regions.png'), fullPage: true });

  await press(page.getByRole('button', { name: 'Create template' }), 'Enter');
  await expect(page).toHaveURL(new RegExp(`/templates/${name}$`));
  const stored = await getJson<StoredTemplate>(api, `/cms/rest/templates/${name}`);
  expect(stored.regions.map((r) => [r.name, r.editable])).toEqual([
    ['header', false],
    ['banner', true],
    ['map', true],
    ['main', true],
    ['footer', false],
  ]);
  expect((await api.delete(`/cms/rest/templates/${name}`)).status()).toBe(200);
  await api.dispose();
});

test('an editor switches a page’s template and chooses where each region’s content goes', async ({
  page,
  playwright,
}) => {
  const api = await adminApi(playwright, test.info().project.use.baseURL!);
  const id = suffix();
  const from = `cols-${id}`;
  const to = `mag-${id}`;
  const putTemplate = (name: string, label: string, regions: object[]) =>
    api.put(`/cms/rest/templates/${name}`, { data: { label, regions } });
  expect(
    (
      await putTemplate(from, `Columns ${id}`, [
        { name: 'main', editable: true },
        { name: 'sidebar', editable: true },
        { name: 'notes', editable: true },
      ])
    ).status(),
  ).toBe(201);
  expect(
    (
      await putTemplate(to, `Magazine ${id}`, [
        { name: 'header', editable: false },
        { name: 'story', editable: true },
        { name: 'aside', editable: true },
        { name: 'notes', editable: true },
      ])
    ).status(),
  ).toBe(201);
  const pagePath = `demo/switch-${id}`;
  const rich = (text: string) => ({ type: 'cmsRichText', asset: { fields: { text } } });
  const made = await api.put(`/cms/rest/pages/by-path/${pagePath}`, {
    data: {
      templateName: from,
      displayName: 'Switching page',
      body: [
        { name: 'main', widgets: [rich('<p>Story one</p>'), rich('<p>Story two</p>')] },
        { name: 'sidebar', widgets: [rich('<p>Side</p>')] },
        { name: 'notes', widgets: [rich('<p>Old notes</p>')] },
      ],
    },
  });
  expect(made.status(), await made.text()).toBe(201);
  const before = (await made.json()) as StoredPage;
  const idsOf = (p: StoredPage, region: string) => p.body.find((r) => r.name === region)!.widgets.map((w) => w.id);

  await page.goto(`/pages/${pagePath}`);
  await press(page.getByRole('tab', { name: 'Properties' }), 'Enter');
  await press(page.getByRole('button', { name: new RegExp(`Columns ${id}\\s*Template`) }), 'Enter');
  await page.getByRole('option', { name: new RegExp(`^Magazine ${id}`) }).press('Enter');
  const ask = page.getByRole('alertdialog', { name: `Switch to the template “Magazine ${id}”?` });
  // Same name ("notes") is kept; the rest would be dropped until the person says where it goes.
  const choice = (region: string) => ask.getByRole('button', { name: new RegExp(`Content of “${region}”`) });
  await expect(choice('main')).toContainText('Drop it');
  await expect(choice('notes')).toContainText('“notes”');
  await expect(ask).toContainText('main — 2 widgets');
  await expect(ask).toContainText('sidebar — 1 widget');
  await expect(ask.getByRole('button', { name: 'Switch and drop 2 regions' })).toBeVisible();

  await press(choice('main'), 'Enter');
  await page.getByRole('option', { name: '“story”' }).press('Enter');
  await press(choice('sidebar'), 'Enter');
  await page.getByRole('option', { name: '“aside”' }).press('Enter');
  // And the old notes are dropped on purpose.
  await press(choice('notes'), 'Enter');
  await page.getByRole('option', { name: /Drop it/ }).press('Enter');
  await expect(ask).toContainText('notes — 1 widget');
  await page.screenshot({ path: test.info().outputPath('template-switch.png') });
  await press(ask.getByRole('button', { name: 'Switch and drop 1 region' }), 'Enter');
  await expect(ask).toBeHidden();
  await expect(page.getByRole('region', { name: 'Notifications' })).toContainText('Dropped the content of notes.');

  const after = await getJson<StoredPage>(api, `/cms/rest/pages/by-path/${pagePath}`);
  expect(after.templateName).toBe(to);
  const texts = (region: string) => after.body.find((r) => r.name === region)!.widgets.map((w) => w.asset.fields.text);
  expect(texts('story')).toEqual(['<p>Story one</p>', '<p>Story two</p>']);
  expect(texts('aside')).toEqual(['<p>Side</p>']);
  expect(texts('notes')).toEqual([]);
  // The same widgets, moved (not copies).
  expect(idsOf(after, 'story')).toEqual(idsOf(before, 'main'));

  expect((await api.delete(`/cms/rest/pages/by-path/${pagePath}?purge=true`)).status()).toBe(200);
  for (const t of [from, to]) expect((await api.delete(`/cms/rest/templates/${t}`)).status()).toBe(200);
  await api.dispose();
});
