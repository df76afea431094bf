import { expect, request, test, type APIRequestContext } from '@playwright/test';
import { ADMIN_AUTHORIZATION } from './support/users';

/*
 * A link in a page's rich text to another page survives that page being renamed in the explorer: the editor
 * shows the link pointing at the new address, and the stored text says so too.
 */

let api: APIRequestContext;
const SOURCE = 'demo/e2e-link-source';
const TARGETS = ['demo/e2e-link-target', 'demo/e2e-link-renamed'];

test.beforeAll(async ({ baseURL }) => {
  api = await request.newContext({
    baseURL,
    extraHTTPHeaders: { authorization: ADMIN_AUTHORIZATION, 'x-requested-with': 'XMLHttpRequest' },
  });
});

test.afterEach(async () => {
  for (const path of [SOURCE, ...TARGETS]) await api.delete(`/cms/rest/pages/by-path/${path}`);
});

test.afterAll(async () => {
  await api.dispose();
});

async function putPage(path: string, data: object) {
  const res = await api.put(`/cms/rest/pages/by-path/${path}`, { data: { templateName: 'article', ...data } });
  expect(res.status(), await res.text()).toBeLessThan(300);
}

test('a link to a page follows that page when it is renamed in the explorer', async ({ page }) => {
  await putPage(TARGETS[0]!, { displayName: 'Link target' });
  await putPage(SOURCE, {
    displayName: 'Link source',
    body: [
      {
        name: 'body',
        type: 'PAGE',
        widgets: [
          {
            type: 'cmsRichText',
            asset: { fields: { text: `<p><a href="/cms/rest/pages/by-path/${TARGETS[0]}">Read the target</a></p>` } },
          },
        ],
      },
    ],
  });

  // Rename the target in the explorer's tree (F2), as an editor does.
  await page.goto('/sites/demo');
  const tree = page.getByRole('tree', { name: 'Sites and asset library' });
  await tree.getByRole('treeitem', { name: 'Home (demo), site' }).press('ArrowRight');
  const target = tree.getByRole('treeitem', { name: 'Link target (e2e-link-target), page' });
  await target.focus();
  await page.keyboard.press('F2');
  const nameField = tree.getByRole('textbox', { name: /^New name for/ });
  await expect(nameField).toBeFocused();
  await nameField.fill('e2e-link-renamed');
  await nameField.press('Enter');
  await expect(tree.getByRole('treeitem', { name: 'Link target (e2e-link-renamed), page' })).toBeVisible();

  // The page that links it now points at the new address, in the editor and as stored.
  await page.goto(`/pages/${SOURCE}`);
  const link = page.getByRole('link', { name: 'Read the target' });
  await expect(link).toHaveAttribute('href', `/cms/rest/pages/by-path/${TARGETS[1]}`);
  const stored = await (await api.get(`/cms/rest/pages/by-path/${SOURCE}`)).text();
  expect(stored).toContain(`/cms/rest/pages/by-path/${TARGETS[1]}`);
  expect(stored).not.toContain(TARGETS[0]);
});
