import AxeBuilder from '@axe-core/playwright';
import { expect, request, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import sharp from 'sharp';
import { SIGNED_OUT } from './support/env';
import { signInThroughForm } from './support/sign-in';
import { ADMIN_AUTHORIZATION } from './support/users';

/*
 * The asset library against the real server in Chromium: uploads (drop, file chooser, progress, cancel), alt
 * text and publishing, replacing a file, new non-binary assets, bulk publishing, deleting an asset a page uses,
 * a folder of 5,000 assets, the keyboard, and axe in both themes. Each test works in a folder of its own.
 */

let api: APIRequestContext;

test.beforeAll(async ({ baseURL }) => {
  api = await request.newContext({
    baseURL,
    extraHTTPHeaders: {
      authorization: ADMIN_AUTHORIZATION,
      'x-requested-with': 'XMLHttpRequest',
    },
  });
});

// Each test works in folders of its own (`Assets/e2e-…`); they go afterwards, so the specs after this one find
// the library (and the explorer's tree) as the seed left it.
test.afterEach(async () => {
  await api.delete('/cms/rest/pages/by-path/demo/e2e-uses-logo');
  const library = await api.get('/cms/rest/folders/by-path/Assets');
  const { subfolders = [] } = (await library.json()) as { subfolders?: { name: string }[] };
  for (const { name } of subfolders.filter((f) => f.name.startsWith('e2e-'))) {
    const res = await api.delete(`/cms/rest/folders/by-path/Assets/${enc(name)}?includeSubFolders=true`);
    expect(res.status(), `delete Assets/${name}`).toBe(200);
  }
});

test.afterAll(async () => {
  await api.dispose();
});

const enc = (path: string) => path.split('/').map(encodeURIComponent).join('/');

/** A PNG of the given size, made on the fly. */
function png(width: number, height: number, colour = '#c0392b'): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: colour } })
    .png()
    .toBuffer();
}

/** A small valid PDF. */
function pdf(): Buffer {
  return Buffer.from(
    '%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\n' +
      'trailer\n<< /Root 1 0 R >>\n%%EOF\n',
    'latin1',
  );
}

async function uploadThroughApi(path: string, content: Buffer, mimeType = 'image/png') {
  const res = await api.post(`/cms/rest/assets/binary/${enc(path)}`, {
    multipart: { file: { name: path.split('/').pop()!, mimeType, buffer: content } },
  });
  expect(res.status(), await res.text()).toBe(201);
  return res.json() as Promise<{ id: string }>;
}

async function assetJson(path: string) {
  const res = await api.get(`/cms/rest/assets/by-path/${enc(path)}`);
  return { status: res.status(), body: res.status() === 200 ? await res.json() : null };
}

async function putAsset(path: string, body: object) {
  const res = await api.put(`/cms/rest/assets/by-path/${enc(path)}`, { data: body });
  expect(res.status(), await res.text()).toBeLessThan(300);
}

/** The library's grid of a folder. */
const grid = (page: Page, folder: string) => page.getByRole('grid', { name: `Assets in ${folder}` });
const card = (page: Page, folder: string, name: string) => grid(page, folder).locator(`[data-path$="/${name}"]`);
const trayRow = (page: Page, name: string) => page.locator('.upload-row', { hasText: name });

async function openLibrary(page: Page, folder: string) {
  await page.goto(`/assets/${enc(folder)}`);
  await expect(page.getByRole('heading', { level: 1, name: folder.split('/').pop() })).toBeVisible();
}

/** Drops files on the folder view the way a browser does: a DataTransfer with the files, dragenter, drop. */
async function dropFiles(page: Page, target: Locator, files: { name: string; type: string; base64: string }[]) {
  const transfer = await page.evaluateHandle((list) => {
    const dt = new DataTransfer();
    for (const f of list) {
      const bytes = Uint8Array.from(atob(f.base64), (c) => c.charCodeAt(0));
      dt.items.add(new File([bytes], f.name, { type: f.type }));
    }
    return dt;
  }, files);
  await target.dispatchEvent('dragenter', { dataTransfer: transfer });
  await expect(page.getByText(/^Drop to upload to/)).toBeVisible();
  await target.dispatchEvent('drop', { dataTransfer: transfer });
}

/** How many unsaved-edit drafts this browser keeps (kit/saving's IndexedDB store). */
function draftCount(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        const open = indexedDB.open('folio-drafts');
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains('drafts')) return resolve(0);
          const count = db.transaction('drafts').objectStore('drafts').count();
          count.onsuccess = () => resolve(count.result);
          count.onerror = () => resolve(0);
        };
        open.onerror = () => resolve(0);
      }),
  );
}

/** Serious and critical WCAG 2.1 A/AA violations on the page as it is now, listed readably. */
async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

test('an editor uploads three images and a PDF by dropping them and with the file chooser, each to done', async ({
  page,
}) => {
  await putAsset('Assets/e2e-upload/readme', { type: 'cmsSimpleTextAsset', fields: { text: 'Folder for uploads' } });
  await openLibrary(page, 'e2e-upload');
  const [a, b] = await Promise.all([png(320, 200), png(64, 64, '#2980b9')]);
  await dropFiles(page, page.locator('.asset-library'), [
    { name: 'dropped-one.png', type: 'image/png', base64: a.toString('base64') },
    { name: 'dropped-two.png', type: 'image/png', base64: b.toString('base64') },
  ]);

  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Upload files' }).click();
  await (
    await chooser
  ).setFiles([
    { name: 'chosen.png', mimeType: 'image/png', buffer: await png(800, 600, '#27ae60') },
    { name: 'report.pdf', mimeType: 'application/pdf', buffer: pdf() },
  ]);

  for (const name of ['dropped-one.png', 'dropped-two.png', 'chosen.png', 'report.pdf']) {
    await expect(trayRow(page, name)).toContainText('Uploaded', { timeout: 15_000 });
    await expect(card(page, 'e2e-upload', name)).toBeVisible();
  }
  await expect(page.getByRole('heading', { name: '4 uploaded' })).toBeVisible();
  expect((await assetJson('Assets/e2e-upload/chosen.png')).body.image).toMatchObject({ width: 800, height: 600 });
  expect((await assetJson('Assets/e2e-upload/report.pdf')).body.type).toBe('cmsFileAsset');

  // The uploads go on, and stay in view, elsewhere in the app.
  await page.getByRole('link', { name: 'Sites' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Sites' })).toBeVisible();
  await expect(trayRow(page, 'chosen.png')).toContainText('Uploaded');
});

test('an editor cancels a large upload midway and no asset is created', async ({ page }) => {
  await putAsset('Assets/e2e-cancel/readme', { type: 'cmsSimpleTextAsset', fields: { text: 'Folder for a cancel' } });
  await openLibrary(page, 'e2e-cancel');
  // A slow line, so the upload is caught in the middle.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 20,
    downloadThroughput: -1,
    uploadThroughput: 256 * 1024,
  });
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Upload files' }).click();
  await (
    await chooser
  ).setFiles([{ name: 'big.bin', mimeType: 'application/octet-stream', buffer: Buffer.alloc(8 * 1024 * 1024, 7) }]);

  const bar = trayRow(page, 'big.bin').getByRole('progressbar', { name: 'Uploading big.bin' });
  await expect
    .poll(async () => Number((await bar.getAttribute('aria-valuenow')) ?? 0), { timeout: 15_000 })
    .toBeGreaterThan(0);
  expect(Number(await bar.getAttribute('aria-valuenow'))).toBeLessThan(100);
  await page.getByRole('button', { name: 'Cancel big.bin' }).click();
  await expect(trayRow(page, 'big.bin')).toContainText('Cancelled — nothing was created');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: -1,
  });

  expect((await assetJson('Assets/e2e-cancel/big.bin')).status).toBe(404);
  await page.reload();
  await expect(card(page, 'e2e-cancel', 'readme')).toBeVisible();
  await expect(card(page, 'e2e-cancel', 'big.bin')).toHaveCount(0);
  expect((await assetJson('Assets/e2e-cancel/big.bin')).status).toBe(404);
});

test('an editor finds an image without alt text, writes it and publishes the image', async ({ page }) => {
  await uploadThroughApi('Assets/e2e-alt/mountain.png', await png(400, 300, '#16a085'));
  await uploadThroughApi('Assets/e2e-alt/described.png', await png(40, 30));
  await putAsset('Assets/e2e-alt/described.png', { fields: { alttext: 'Already described' } });
  await openLibrary(page, 'e2e-alt');

  await page.locator('label', { hasText: 'Images without alt text' }).click();
  await expect(page.getByRole('checkbox', { name: 'Images without alt text' })).toBeChecked();
  await expect(card(page, 'e2e-alt', 'mountain.png')).toBeVisible();
  await expect(card(page, 'e2e-alt', 'described.png')).toHaveCount(0);

  await card(page, 'e2e-alt', 'mountain.png').click();
  const details = page.getByRole('dialog', { name: /mountain\.png/ });
  await expect(details).toBeVisible();
  await details.getByRole('textbox', { name: 'Alternative text' }).fill('A green mountain under a clear sky');
  await details.getByRole('button', { name: 'Save' }).click();
  await expect(details.getByText('No changes')).toBeVisible();
  await details.getByRole('button', { name: 'Publish' }).click();
  await expect(details.getByRole('region', { name: 'Workflow' }).getByText('Public', { exact: true })).toBeVisible();

  const { body } = await assetJson('Assets/e2e-alt/mountain.png');
  expect(body.fields.alttext).toBe('A green mountain under a clear sky');
  expect(body.workflow.state).toBe('Public');
  // It no longer needs alt text.
  await details.getByRole('button', { name: 'Close the details' }).click();
  await expect(card(page, 'e2e-alt', 'mountain.png')).toHaveCount(0);
});

test('an editor replaces an image’s file: the new dimensions show and the alt text is kept', async ({ page }) => {
  const { id } = await uploadThroughApi('Assets/e2e-replace/banner.png', await png(120, 60));
  await putAsset('Assets/e2e-replace/banner.png', { fields: { alttext: 'Our banner', displaytitle: 'Banner' } });
  await page.goto('/assets/e2e-replace?asset=banner.png');
  const details = page.getByRole('dialog', { name: /banner\.png/ });
  await expect(details.getByText('120 × 60 px', { exact: true })).toBeVisible();

  const chooser = page.waitForEvent('filechooser');
  await details.getByRole('button', { name: 'Replace file…' }).click();
  await (
    await chooser
  ).setFiles([{ name: 'new-banner.png', mimeType: 'image/png', buffer: await png(640, 320, '#8e44ad') }]);

  await expect(details.getByText('640 × 320 px', { exact: true })).toBeVisible({ timeout: 15_000 });
  await expect(details.getByRole('textbox', { name: 'Alternative text' })).toHaveValue('Our banner');
  await expect(details.getByRole('textbox', { name: 'Display title' })).toHaveValue('Banner');
  await expect(details.getByRole('heading', { name: /Where it is used/ })).toBeVisible();
  const { body } = await assetJson('Assets/e2e-replace/banner.png');
  expect(body).toMatchObject({ id, fields: { alttext: 'Our banner' }, image: { width: 640, height: 320 } });
});

test('a save over someone else’s shows what they changed and overwrites only when chosen; unsaved edits survive', async ({
  page,
}) => {
  await uploadThroughApi('Assets/e2e-conflict/team.png', await png(90, 60));
  await page.goto('/assets/e2e-conflict?asset=team.png');
  const details = page.getByRole('dialog', { name: /team\.png/ });
  const alt = details.getByRole('textbox', { name: 'Alternative text' });
  await alt.fill('Our team at the summer party');

  // Someone else saves meanwhile.
  await putAsset('Assets/e2e-conflict/team.png', { fields: { alttext: 'The team', displaytitle: 'Team photo' } });
  await details.getByRole('button', { name: 'Save' }).click();
  // The dialog names who saved (here the same admin, through the API) and when.
  const conflict = page.getByRole('dialog', { name: /^admin saved this at / });
  await expect(conflict.getByText('Alternative text')).toBeVisible();
  await expect(conflict.getByText('The team', { exact: true })).toBeVisible();
  await conflict.getByRole('button', { name: 'Overwrite with mine' }).click();
  await expect(conflict).toHaveCount(0);
  const saved = (await assetJson('Assets/e2e-conflict/team.png')).body;
  expect(saved.fields).toMatchObject({ alttext: 'Our team at the summer party', displaytitle: 'Team photo' });

  // Unsaved edits: leaving asks first, and a reload offers them back.
  await alt.fill('Our team, summer 2026');
  await page.keyboard.press('Escape');
  const leave = page.getByRole('dialog', { name: 'Leave without saving?' });
  await expect(leave).toBeVisible();
  await leave.getByRole('button', { name: 'Stay here' }).click();
  await expect(alt).toHaveValue('Our team, summer 2026');
  // The draft is written to IndexedDB after a short pause in typing.
  await expect.poll(() => draftCount(page)).toBeGreaterThan(0);
  await page.reload();
  const restore = page.getByRole('dialog', { name: 'Restore your unsaved changes?' });
  await restore.getByRole('button', { name: 'Restore my changes' }).click();
  await expect(
    page.getByRole('dialog', { name: /team\.png/ }).getByRole('textbox', { name: 'Alternative text' }),
  ).toHaveValue('Our team, summer 2026');
});

test('an asset edit undone leaves no draft, and a draft of what the asset already holds is not offered', async ({
  page,
}) => {
  await uploadThroughApi('Assets/e2e-undo/logo.png', await png(40, 40));
  await putAsset('Assets/e2e-undo/logo.png', { fields: { alttext: 'Our logo' } });
  await page.goto('/assets/e2e-undo?asset=logo.png');
  const alt = page.getByRole('dialog', { name: /logo\.png/ }).getByRole('textbox', { name: 'Alternative text' });
  await expect(alt).toHaveValue('Our logo');
  await alt.fill('Our new logo');
  await expect.poll(() => draftCount(page)).toBe(1);
  // Typed back as it was: nothing is left to keep.
  await alt.fill('Our logo');
  await expect.poll(() => draftCount(page)).toBe(0);

  // Kept, and then someone saves the same text: when the asset opens again there is nothing to give back.
  await alt.fill('The 2027 logo');
  await expect.poll(() => draftCount(page)).toBe(1);
  await putAsset('Assets/e2e-undo/logo.png', { fields: { alttext: 'The 2027 logo' } });
  await page.reload();
  await expect(alt).toHaveValue('The 2027 logo');
  await expect.poll(() => draftCount(page)).toBe(0);
  await expect(page.getByRole('dialog', { name: 'Restore your unsaved changes?' })).toHaveCount(0);

  // Saved: nothing is left to keep either.
  await alt.fill('The 2028 logo');
  await expect.poll(() => draftCount(page)).toBe(1);
  await page.keyboard.press('Control+s');
  await expect
    .poll(async () => (await assetJson('Assets/e2e-undo/logo.png')).body.fields.alttext)
    .toBe('The 2028 logo');
  await expect.poll(() => draftCount(page)).toBe(0);
});

test('an editor creates a rich text asset and a poll asset from the New menu', async ({ page }) => {
  await putAsset('Assets/e2e-new/readme', { type: 'cmsSimpleTextAsset', fields: { text: 'Folder for new assets' } });
  await openLibrary(page, 'e2e-new');

  await page.getByRole('button', { name: 'New', exact: true }).click();
  await page.getByRole('menuitem', { name: 'Rich text…' }).click();
  let dialog = page.getByRole('dialog', { name: 'New rich text' });
  await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill('welcome-text');
  const editor = dialog.getByRole('textbox', { name: 'Text' });
  await editor.click();
  await page.keyboard.type('Welcome to our library');
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(page.getByRole('dialog', { name: /welcome-text/ })).toBeVisible();
  expect((await assetJson('Assets/e2e-new/welcome-text')).body).toMatchObject({
    type: 'cmsRichTextAsset',
    fields: { text: expect.stringContaining('Welcome to our library') },
  });
  await page.getByRole('button', { name: 'Close the details' }).click();

  await page.getByRole('button', { name: 'New', exact: true }).click();
  await page.getByRole('menuitem', { name: 'Poll…' }).click();
  dialog = page.getByRole('dialog', { name: 'New poll' });
  await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill('favourite-colour');
  await dialog.getByRole('textbox', { name: 'Unique name' }).fill('favourite-colour');
  await dialog.getByRole('textbox', { name: 'Question text' }).fill('Which colour do you like?');
  await dialog.getByRole('textbox', { name: 'Choice 1' }).fill('Red');
  await dialog.getByRole('textbox', { name: 'Choice 2' }).fill('Blue');
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(page.getByRole('dialog', { name: /favourite-colour/ })).toBeVisible();
  const poll = (await assetJson('Assets/e2e-new/favourite-colour')).body;
  expect(poll.type).toBe('cmsPollAsset');
  expect(JSON.parse(poll.fields.pollQuestion)).toMatchObject({
    question: 'Which colour do you like?',
    answerChoices: ['Red', 'Blue'],
  });
});

test('an editor selects assets and publishes them together, with a summary', async ({ page }) => {
  for (const n of ['one', 'two', 'three', 'four']) {
    await putAsset(`Assets/e2e-bulk/${n}`, { type: 'cmsSimpleTextAsset', fields: { text: `Text ${n}` } });
  }
  await openLibrary(page, 'e2e-bulk');
  // Sorted by name: four, one, three, two. Tick "one", then Shift-click "two": one, three and two.
  await card(page, 'e2e-bulk', 'one').hover();
  await card(page, 'e2e-bulk', 'one').locator('label.checkbox').click();
  await card(page, 'e2e-bulk', 'two').click({ modifiers: ['Shift'] });
  const bar = page.getByRole('toolbar', { name: 'Selected assets' });
  await expect(bar).toContainText('3 selected');
  await bar.getByRole('button', { name: 'Publish' }).click();
  await expect(page.getByRole('dialog', { name: 'Published 3 of 3 assets' })).toBeVisible();
  await page.getByRole('button', { name: 'Close' }).click();
  for (const n of ['one', 'three', 'two']) {
    expect((await assetJson(`Assets/e2e-bulk/${n}`)).body.workflow.state).toBe('Public');
  }
  expect((await assetJson('Assets/e2e-bulk/four')).body.workflow.state).toBe('Draft');
  await expect(card(page, 'e2e-bulk', 'two')).toContainText('Public');
});

test('deleting an asset that a page uses lists that page, and nothing is deleted until the user agrees', async ({
  page,
}) => {
  await uploadThroughApi('Assets/e2e-used/logo.png', await png(50, 50));
  const res = await api.put('/cms/rest/pages/by-path/demo/e2e-uses-logo', {
    data: {
      templateName: 'article',
      displayName: 'A page with the logo',
      body: [
        {
          name: 'body',
          type: 'PAGE',
          widgets: [{ type: 'cmsImage', asset: { name: 'logo.png', folderPath: 'Assets/e2e-used' } }],
        },
      ],
    },
  });
  expect(res.status(), await res.text()).toBeLessThan(300);
  await page.goto('/assets/e2e-used?asset=logo.png');
  const details = page.getByRole('dialog', { name: /logo\.png/ });
  await expect(details.getByRole('link', { name: 'A page with the logo' })).toBeVisible();

  await details.getByRole('button', { name: 'Delete…' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Delete logo.png?' });
  await expect(confirm.getByRole('link', { name: 'A page with the logo' })).toHaveAttribute(
    'href',
    '/pages/demo/e2e-uses-logo',
  );
  await expect(confirm.getByRole('button', { name: 'Delete and take it off that page' })).toBeVisible();
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  expect((await assetJson('Assets/e2e-used/logo.png')).status).toBe(200);

  // In bulk, the summary names the page too.
  await details.getByRole('button', { name: 'Close the details' }).click();
  await card(page, 'e2e-used', 'logo.png').hover();
  await card(page, 'e2e-used', 'logo.png').locator('label.checkbox').click();
  await page.getByRole('toolbar', { name: 'Selected assets' }).getByRole('button', { name: 'Delete…' }).click();
  await page.getByRole('button', { name: 'Delete 1 asset' }).click();
  const summary = page.getByRole('dialog', { name: 'Deleted 0 of 1 asset' });
  await expect(summary.getByRole('link', { name: 'A page with the logo' })).toBeVisible();
  expect((await assetJson('Assets/e2e-used/logo.png')).status).toBe(200);
});

test('an editor creates, renames, moves and deletes an asset folder from the library; the tree follows', async ({
  page,
}) => {
  await putAsset('Assets/e2e-folders/readme', { type: 'cmsSimpleTextAsset', fields: { text: 'x' } });
  await putAsset('Assets/e2e-target/readme', { type: 'cmsSimpleTextAsset', fields: { text: 'x' } });
  await openLibrary(page, 'e2e-folders');
  const tree = page.getByRole('tree', { name: 'Sites and asset library' });

  await page.getByRole('button', { name: 'New', exact: true }).click();
  await page.getByRole('menuitem', { name: 'Folder…' }).click();
  const create = page.getByRole('dialog', { name: /New folder/ });
  await create.getByRole('textbox', { name: 'Name' }).fill('banners');
  await create.getByRole('button', { name: 'Create asset folder' }).click();
  await expect(page).toHaveURL(/\/assets\/e2e-folders\/banners$/);
  await expect(page.getByRole('heading', { level: 1, name: 'banners' })).toBeVisible();
  await expect(tree.getByRole('treeitem', { name: 'banners, asset folder' })).toBeVisible();

  // The empty folder offers what it lacks: files (the file chooser) and a folder.
  const empty = page.locator('.state', { hasText: 'banners holds no assets yet' });
  const chooser = page.waitForEvent('filechooser');
  await empty.getByRole('button', { name: 'Upload files' }).click();
  await (await chooser).setFiles([]);
  await empty.getByRole('button', { name: 'New folder' }).click();
  await expect(page.getByRole('dialog', { name: /New folder/ })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog', { name: /New folder/ })).toBeHidden();

  await page.getByRole('button', { name: 'More actions for this folder' }).click();
  await page.getByRole('menuitem', { name: 'Rename folder…' }).click();
  const rename = page.getByRole('dialog', { name: /Rename/ });
  await rename.getByRole('textbox').first().fill('hero-banners');
  await rename.getByRole('button', { name: /Rename/ }).click();
  await expect(page).toHaveURL(/\/assets\/e2e-folders\/hero-banners$/);
  await expect(tree.getByRole('treeitem', { name: 'hero-banners, asset folder' })).toBeVisible();

  await page.getByRole('button', { name: 'More actions for this folder' }).click();
  await page.getByRole('menuitem', { name: 'Move folder to…' }).click();
  const move = page.getByRole('dialog', { name: /Move/ });
  await move.getByRole('treeitem', { name: /^e2e-target/ }).click();
  await move.getByRole('button', { name: /^Move/ }).click();
  await expect(page).toHaveURL(/\/assets\/e2e-target\/hero-banners$/);
  await expect(tree.locator('[data-path="Assets/e2e-target/hero-banners"]')).toBeVisible();

  await page.getByRole('button', { name: 'More actions for this folder' }).click();
  await page.getByRole('menuitem', { name: 'Delete folder…' }).click();
  await page
    .getByRole('alertdialog')
    .getByRole('button', { name: /^Delete/ })
    .click();
  await expect(page).toHaveURL(/\/assets\/e2e-target$/);
  const gone = await api.get('/cms/rest/folders/by-path/Assets/e2e-target/hero-banners');
  expect(gone.status()).toBe(404);
  await expect(page.getByRole('navigation', { name: 'Folders' })).toHaveCount(0);
});

test('a Viewer browses the library and reads an asset, and is offered nothing that changes it', async ({
  browser,
  baseURL,
}) => {
  await uploadThroughApi('Assets/e2e-viewer/picture.png', await png(80, 60));
  const username = `lib-reader-${Date.now().toString(36)}`;
  expect(
    (await api.put(`/cms/rest/users/${username}`, { data: { role: 'Viewer', password: 'reader-password' } })).status(),
  ).toBe(201);
  const context = await browser.newContext({ baseURL, storageState: SIGNED_OUT });
  const page = await context.newPage();
  await page.goto('/sign-in');
  await signInThroughForm(page, username, 'reader-password');
  await expect(page.getByRole('heading', { level: 1, name: 'Sites' })).toBeVisible();
  await openLibrary(page, 'e2e-viewer');
  for (const name of ['Upload files', 'New', 'More actions for this folder']) {
    await expect(page.getByRole('button', { name, exact: true })).toHaveCount(0);
  }
  await expect(card(page, 'e2e-viewer', 'picture.png').getByRole('checkbox')).toHaveCount(0);
  await card(page, 'e2e-viewer', 'picture.png').click();
  const details = page.getByRole('dialog', { name: /picture\.png/ });
  await expect(details.getByText('80 × 60 px', { exact: true })).toBeVisible();
  for (const name of ['Save', 'Publish', 'Replace file…', 'Delete…']) {
    await expect(details.getByRole('button', { name, exact: true })).toHaveCount(0);
  }
  await expect(details.getByRole('textbox', { name: 'Alternative text' })).toHaveAttribute('readonly', '');
  await context.close();
  expect((await api.delete(`/cms/rest/users/${username}`)).status()).toBe(200);
});

test('a folder of 5,000 assets scrolls to its end with a bounded number of rendered items', async ({ page }) => {
  test.setTimeout(240_000);
  const names = Array.from({ length: 5000 }, (_, i) => `note-${String(i).padStart(4, '0')}`);
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < names.length) {
        const name = names[next++]!;
        await putAsset(`Assets/e2e-many/${name}`, { type: 'cmsSimpleTextAsset', fields: { text: name } });
      }
    }),
  );
  await openLibrary(page, 'e2e-many');
  await expect(page.getByText('5,000 assets')).toBeVisible();
  const list = grid(page, 'e2e-many');
  let most = 0;
  for (let i = 0; i < 400; i++) {
    await list.evaluate((el) => el.scrollBy(0, el.clientHeight * 3));
    most = Math.max(most, await list.locator('.asset-card').count());
    if (await list.locator('[data-path="Assets/e2e-many/note-4999"]').isVisible()) break;
  }
  await expect(list.locator('[data-path="Assets/e2e-many/note-4999"]')).toBeVisible();
  expect(most).toBeGreaterThan(0);
  expect(most).toBeLessThanOrEqual(120);

  // The list view too.
  await page.getByRole('radio', { name: 'List' }).click();
  const table = page.getByRole('grid', { name: 'Assets in e2e-many' });
  await expect(table.getByRole('row', { name: /note-0000/ })).toBeVisible();
  expect(await table.getByRole('row').count()).toBeLessThanOrEqual(120);
  await page.getByRole('radio', { name: 'Grid' }).click();
});

test('an asset’s panel shows its preview and facts from the listing at once, its form once it is read', async ({
  page,
}) => {
  await uploadThroughApi('Assets/e2e-instant/wide.png', await png(320, 200));
  await openLibrary(page, 'e2e-instant');
  await expect(card(page, 'e2e-instant', 'wide.png')).toBeVisible();
  // The asset's own GET is held back: what the panel shows meanwhile comes from the listing alone.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/cms/rest/assets/by-path/Assets/e2e-instant/wide.png', async (route) => {
    await held;
    await route.continue();
  });
  await card(page, 'e2e-instant', 'wide.png').focus();
  await page.keyboard.press('Enter');
  const details = page.getByRole('dialog', { name: /wide\.png/ });
  await expect(details.getByRole('region', { name: 'Preview and facts' })).toContainText('320 × 200 px');
  await expect(details.getByText('Loading the details of wide.png…')).toBeVisible();
  await expect(details.getByLabel('Alternative text')).toHaveCount(0);
  release();
  await expect(details.getByLabel('Alternative text')).toBeVisible();
  await expect(details.getByText('Loading the details of wide.png…')).toHaveCount(0);
  await expect(details.getByRole('region', { name: 'Preview and facts' })).toContainText('320 × 200 px');
});

test('the library works with the keyboard alone', async ({ page }) => {
  for (const n of ['alpha', 'beta', 'gamma']) {
    await putAsset(`Assets/e2e-keys/${n}`, { type: 'cmsSimpleTextAsset', fields: { text: n } });
  }
  await openLibrary(page, 'e2e-keys');
  const list = grid(page, 'e2e-keys');
  await list.focus();
  await expect(card(page, 'e2e-keys', 'alpha')).toBeFocused();
  await page.keyboard.press('ArrowRight');
  await expect(card(page, 'e2e-keys', 'beta')).toBeFocused();
  await page.keyboard.press('Space');
  await expect(page.getByRole('toolbar', { name: 'Selected assets' })).toContainText('1 selected');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('toolbar', { name: 'Selected assets' })).toHaveCount(0);
  await page.keyboard.press('ControlOrMeta+a');
  await expect(page.getByRole('toolbar', { name: 'Selected assets' })).toContainText('All 3 selected');
  await page.keyboard.press('Escape');

  await page.keyboard.press('Enter');
  const details = page.getByRole('dialog', { name: /beta/ });
  await expect(details).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(details).toHaveCount(0);
  await expect(card(page, 'e2e-keys', 'beta')).toBeFocused();
});

for (const colorScheme of ['light', 'dark'] as const) {
  test(`the library, its details, New dialog and upload tray have no serious accessibility violations (${colorScheme})`, async ({
    page,
  }) => {
    await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' });
    await uploadThroughApi(`Assets/e2e-axe-${colorScheme}/picture.png`, await png(200, 100));
    await putAsset(`Assets/e2e-axe-${colorScheme}/snippet`, {
      type: 'cmsRichTextAsset',
      fields: { text: '<p>Hi</p>' },
    });
    await openLibrary(page, `e2e-axe-${colorScheme}`);
    await expect(card(page, `e2e-axe-${colorScheme}`, 'picture.png')).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole('radio', { name: 'List' }).click();
    await expect(page.getByRole('row', { name: /picture\.png/ })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('radio', { name: 'Grid' }).click();

    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Upload files' }).click();
    await (await chooser).setFiles([{ name: 'picture.png', mimeType: 'image/png', buffer: await png(20, 20) }]);
    await expect(trayRow(page, 'picture.png')).toContainText('already holds');
    expect(await seriousViolations(page)).toEqual([]);
    await trayRow(page, 'picture.png').getByRole('button', { name: 'Skip' }).click();

    await card(page, `e2e-axe-${colorScheme}`, 'picture.png').click();
    await expect(page.getByRole('dialog', { name: /picture\.png/ })).toBeVisible();
    await expect(page.getByRole('heading', { name: /Where it is used/ })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Close the details' }).click();

    await page.getByRole('button', { name: 'New', exact: true }).click();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('menuitem', { name: 'Event…' }).click();
    await expect(page.getByRole('dialog', { name: 'New event' })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
  });
}

test('a file over the server’s limit is refused before sending, with the limit shown', async ({ page }) => {
  const me = (await (await api.get('/cms/rest/auth/me')).json()) as { limits: { maxUploadBytes: number } };
  const limit = me.limits.maxUploadBytes;
  await putAsset('Assets/e2e-limit/readme', { type: 'cmsSimpleTextAsset', fields: { text: 'x' } });
  await openLibrary(page, 'e2e-limit');
  const sent: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && r.url().includes('/assets/binary/')) sent.push(r.url());
  });
  // A file one byte over the limit the server answered, dropped on the folder.
  await page.evaluate((size) => {
    const dt = new DataTransfer();
    dt.items.add(new File([new Uint8Array(size)], 'too-big.bin'));
    const target = document.querySelector('.asset-library')!;
    target.dispatchEvent(new DragEvent('dragenter', { dataTransfer: dt, bubbles: true }));
    target.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true }));
  }, limit + 1);
  await expect(trayRow(page, 'too-big.bin')).toContainText(/is over the upload limit of [\d.]+ MB\./);
  expect(sent).toEqual([]);
  expect((await assetJson('Assets/e2e-limit/too-big.bin')).status).toBe(404);
});
