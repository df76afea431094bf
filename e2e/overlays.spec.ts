import { expect, request, test, type APIRequestContext, type Locator } from '@playwright/test';
import sharp from 'sharp';
import { ADMIN_AUTHORIZATION } from './support/users';

/*
 * What floats over the app (toasts, the upload tray) never sits over the controls a person is using: a drawer's
 * buttons stay uncovered while a toast shows, and the library's last card can be scrolled above the upload tray.
 * Each test works in a folder of its own under Assets/e2e-overlays-….
 */

let api: APIRequestContext;

test.beforeAll(async ({ baseURL }) => {
  api = await request.newContext({
    baseURL,
    extraHTTPHeaders: { authorization: ADMIN_AUTHORIZATION, 'x-requested-with': 'XMLHttpRequest' },
  });
});

test.afterEach(async () => {
  const library = await api.get('/cms/rest/folders/by-path/Assets');
  const { subfolders = [] } = (await library.json()) as { subfolders?: { name: string }[] };
  for (const { name } of subfolders.filter((f) => f.name.startsWith('e2e-overlays'))) {
    const res = await api.delete(`/cms/rest/folders/by-path/Assets/${encodeURIComponent(name)}?includeSubFolders=true`);
    expect(res.status(), `delete Assets/${name}`).toBe(200);
  }
});

test.afterAll(async () => {
  await api.dispose();
});

function png(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#2980b9' } })
    .png()
    .toBuffer();
}

async function upload(path: string, content: Buffer) {
  const res = await api.post(`/cms/rest/assets/binary/${path.split('/').map(encodeURIComponent).join('/')}`, {
    multipart: { file: { name: path.split('/').pop()!, mimeType: 'image/png', buffer: content } },
  });
  expect(res.status(), await res.text()).toBe(201);
}

type Box = { x: number; y: number; width: number; height: number };

function intersects(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

async function boxOf(locator: Locator): Promise<Box> {
  const box = await locator.boundingBox();
  expect(box, 'the element has a box').not.toBeNull();
  return box!;
}

test('a toast does not cover the buttons of an open side drawer', async ({ page }) => {
  await upload('Assets/e2e-overlays-toast/sky.png', await png(200, 120));
  await page.goto('/assets/e2e-overlays-toast?asset=sky.png');
  const details = page.getByRole('dialog', { name: /sky\.png/ });
  await details.getByRole('textbox', { name: 'Alternative text' }).fill('A blue sky');
  await details.getByRole('button', { name: 'Save' }).click();
  const toast = page.locator('.toast', { hasText: 'Saved: sky.png' });
  await expect(toast).toBeVisible();

  const drawer = await boxOf(page.locator('.drawer'));
  const toastBox = await boxOf(toast);
  expect(intersects(drawer, toastBox), 'the toast sits beside the drawer, not over it').toBe(false);
  for (const button of await details.getByRole('button').all()) {
    if (!(await button.isVisible())) continue;
    expect(intersects(await boxOf(button), toastBox), `${await button.textContent()} is not covered`).toBe(false);
  }
  // And the drawer's buttons take clicks while the toast shows.
  await details.getByRole('button', { name: 'Publish' }).click();
  await expect(details.getByRole('region', { name: 'Workflow' }).getByText('Public', { exact: true })).toBeVisible();
  await expect(toast).toBeVisible();
});

test('the library grid scrolls its last cards above the upload tray, where they take clicks', async ({ page }) => {
  const tile = await png(24, 24);
  for (let i = 0; i < 30; i += 1) await upload(`Assets/e2e-overlays-tray/tile-${String(i).padStart(2, '0')}.png`, tile);
  await page.goto('/assets/e2e-overlays-tray');
  const grid = page.getByRole('grid', { name: 'Assets in e2e-overlays-tray' });
  await expect(grid.locator('[data-path]').first()).toBeVisible();

  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Upload files' }).click();
  await (await chooser).setFiles([{ name: 'tile-99.png', mimeType: 'image/png', buffer: tile }]);
  const tray = page.locator('.upload-tray');
  await expect(tray.locator('.upload-row', { hasText: 'tile-99.png' })).toContainText('Uploaded', { timeout: 15_000 });

  await grid.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
  // The new file is listed once the upload's refetch is in (the last card, by name); then to the end again.
  await expect(grid.locator('[data-path$="/tile-99.png"]')).toBeVisible();
  await grid.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
  // At the end and settled: a scroll during the click would cancel the press (react-aria's usePress).
  await expect
    .poll(() =>
      grid.evaluate(async (el) => {
        const top = el.scrollTop;
        for (let i = 0; i < 3; i += 1) await new Promise(requestAnimationFrame);
        return el.scrollTop === top && top + el.clientHeight >= el.scrollHeight - 1;
      }),
    )
    .toBe(true);
  const trayBox = await boxOf(tray);
  const cards = await grid.locator('[data-path]').all();
  const boxes = await Promise.all(cards.map(async (c) => ({ card: c, box: await boxOf(c) })));
  const lastRowTop = Math.max(...boxes.map((b) => b.box.y));
  const lastRow = boxes.filter((b) => b.box.y === lastRowTop);
  expect(lastRow.length).toBeGreaterThan(0);
  for (const { card, box } of lastRow) {
    expect(intersects(box, trayBox), `${await card.getAttribute('data-path')} is clear of the tray`).toBe(false);
  }
  const first = lastRow.sort((a, b) => a.box.x - b.box.x)[0]!;
  const name = (await first.card.getAttribute('data-path'))!.split('/').pop()!;
  // By its path, not its place: the grid may render its cards anew between measuring and clicking.
  await grid.locator(`[data-path$="/${name}"]`).click({ timeout: 5_000 });
  await expect(page.getByRole('dialog', { name: new RegExp(name.replace('.', '\\.')) })).toBeVisible();
});
