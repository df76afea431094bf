import { expect, request, test, type APIRequestContext, type Page } from '@playwright/test';
import sharp from 'sharp';
import { ADMIN_AUTHORIZATION } from './support/users';

/*
 * Where an asset is used, as an editor meets it in the asset library: an image shown inside a page's rich text
 * counts (the delete asks first), and replacing a file used by Public pages through a name clash shows them and
 * asks, then offers to review the alt text written for the old image.
 */

let api: APIRequestContext;
const PAGES = ['demo/e2e-rich-photo', 'demo/e2e-public-logo'];

test.beforeAll(async ({ baseURL }) => {
  api = await request.newContext({
    baseURL,
    extraHTTPHeaders: { authorization: ADMIN_AUTHORIZATION, 'x-requested-with': 'XMLHttpRequest' },
  });
});

test.afterEach(async () => {
  for (const page of PAGES) await api.delete(`/cms/rest/pages/by-path/${page}`);
  for (const folder of ['e2e-usage', 'e2e-clash']) {
    await api.delete(`/cms/rest/folders/by-path/Assets/${folder}?includeSubFolders=true`);
  }
});

test.afterAll(async () => {
  await api.dispose();
});

function png(width: number, height: number, colour = '#c0392b'): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: colour } })
    .png()
    .toBuffer();
}

async function upload(path: string, content: Buffer) {
  const res = await api.post(`/cms/rest/assets/binary/${path}`, {
    multipart: { file: { name: path.split('/').pop()!, mimeType: 'image/png', buffer: content } },
  });
  expect(res.status(), await res.text()).toBe(201);
}

async function putPage(path: string, data: object) {
  const res = await api.put(`/cms/rest/pages/by-path/${path}`, { data: { templateName: 'article', ...data } });
  expect(res.status(), await res.text()).toBeLessThan(300);
}

const details = (page: Page, name: string) => page.getByRole('dialog', { name: `Details of ${name}` });

test('an image inside a page’s rich text shows where it is used, and deleting it names that page', async ({ page }) => {
  await upload('Assets/e2e-usage/photo.png', await png(60, 40));
  await putPage(PAGES[0]!, {
    displayName: 'Rich text with a photo',
    body: [
      {
        name: 'body',
        type: 'PAGE',
        widgets: [
          {
            type: 'cmsRichText',
            asset: {
              fields: { text: '<p>Look:</p><p><img src="/cms/rest/assets/binary/Assets/e2e-usage/photo.png"></p>' },
            },
          },
        ],
      },
    ],
  });
  await page.goto('/assets/e2e-usage?asset=photo.png');
  const panel = details(page, 'photo.png');
  const usedIn = panel.getByRole('region', { name: /Where it is used/ });
  await expect(usedIn.getByRole('link', { name: 'Rich text with a photo' })).toBeVisible();

  await panel.getByRole('button', { name: 'Delete…' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Delete photo.png?' });
  await expect(confirm.getByRole('link', { name: 'Rich text with a photo' })).toBeVisible();
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  expect((await api.get('/cms/rest/assets/by-path/Assets/e2e-usage/photo.png')).status()).toBe(200);
});

test('replacing a file on a name clash shows the Public pages using it, asks, then offers to review the alt text', async ({
  page,
}) => {
  await upload('Assets/e2e-clash/logo.png', await png(80, 80));
  await api.put('/cms/rest/assets/by-path/Assets/e2e-clash/logo.png', {
    data: { fields: { alttext: 'A red square' } },
  });
  await putPage(PAGES[1]!, {
    displayName: 'Public page with the logo',
    body: [
      {
        name: 'body',
        type: 'PAGE',
        widgets: [{ type: 'cmsImage', asset: { name: 'logo.png', folderPath: 'Assets/e2e-clash' } }],
      },
    ],
    workflow: { state: 'Public' },
  });

  await page.goto('/assets/e2e-clash');
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Upload files' }).click();
  await (await chooser).setFiles([{ name: 'logo.png', mimeType: 'image/png', buffer: await png(300, 100, '#2980b9') }]);

  const row = page.locator('.upload-row', { hasText: 'logo.png' });
  await row.getByRole('group', { name: 'logo.png exists already' }).getByRole('button', { name: 'Replace' }).click();
  const question = row.getByRole('group', { name: 'Replace logo.png?' });
  await expect(question).toContainText('1 of them Public: visitors see the new file at once');
  await expect(question.getByRole('listitem')).toContainText('Public page with the logo');
  await expect(question.getByRole('listitem')).toContainText('Public');
  // Nothing is replaced before the answer.
  const before = await (await api.get('/cms/rest/assets/by-path/Assets/e2e-clash/logo.png')).json();
  expect(before.image.width).toBe(80);
  await expect(question.getByRole('button', { name: 'Replace on 1 page' })).toBeFocused();
  await page.screenshot({ path: 'test-results/replace-clash-question.png' });
  await page.keyboard.press('Enter');

  const review = row.getByRole('link', { name: 'Review the alt text of logo.png' });
  await expect(review).toBeVisible({ timeout: 15_000 });
  await expect(row).toContainText('“A red square”, was written for the old image');
  const after = await (await api.get('/cms/rest/assets/by-path/Assets/e2e-clash/logo.png')).json();
  expect(after.image.width).toBe(300);

  await review.click();
  const panel = details(page, 'logo.png');
  await expect(panel.getByText('The alt text was written for the old image.')).toBeVisible();
  await expect(panel.getByRole('textbox', { name: 'Alternative text' })).toBeFocused();
  await page.screenshot({ path: 'test-results/replace-review-alt-text.png' });
  await page.keyboard.type('A wide blue banner');
  await panel.getByRole('button', { name: 'Save' }).click();
  await expect(panel.getByText('No changes')).toBeVisible();
  const saved = await (await api.get('/cms/rest/assets/by-path/Assets/e2e-clash/logo.png')).json();
  expect(saved.fields.alttext).toBe('A wide blue banner');
});
