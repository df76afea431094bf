import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { adminApi, createUser } from './support/users';

/*
 * Scheduled publishing in the app: an Editor sets and clears a page's publish time in the page editor (in their
 * own time zone, named beside the field), the folder screen lists it, and when the scheduler publishes a page the
 * open screens show it Public without a reload. The e2e server runs the scheduler every second
 * (CMS_SCHEDULE_SECONDS in playwright.config.ts).
 */

// A zone with an offset, so a time picked here is not the same wall-clock time in UTC.
test.use({ timezoneId: 'Europe/Berlin', locale: 'en-US' });

/** A folder of its own (other specs rename and delete the demo's folders) holding one Draft page. */
async function draftPage(api: APIRequestContext, prefix: string, displayName: string) {
  const name = `${prefix}-${Date.now().toString(36)}`;
  const folder = `${name}-f`;
  expect((await api.put(`/cms/rest/folders/by-path/demo/${folder}`, { data: {} })).status()).toBe(201);
  const created = await api.put(`/cms/rest/pages/by-path/demo/${folder}/${name}`, {
    data: { templateName: 'article', displayName },
  });
  expect(created.status(), await created.text()).toBe(201);
  return { folder, name, path: `demo/${folder}/${name}` };
}

async function workflowOf(api: APIRequestContext, path: string) {
  const res = await api.get(`/cms/rest/pages/by-path/${path}`);
  expect(res.status()).toBe(200);
  return ((await res.json()) as { workflow: { state: string; publishAt?: string; unpublishAt?: string } }).workflow;
}

/** Types a date and time into a date-time field's segments (en-US: month, day, year, hour, minute, AM/PM). */
async function typeDateTime(page: Page, label: string, typed: string) {
  const group = page.getByRole('group', { name: label, exact: true });
  await group.getByRole('spinbutton').first().click();
  await page.keyboard.type(typed);
}

const row = (page: Page, title: string) =>
  page.getByRole('row').filter({ has: page.getByRole('link', { name: title }) });

test('an editor schedules a page in its editor, sees it on the folder screen, and clears it', async ({
  page,
  playwright,
  baseURL,
}) => {
  const api = await adminApi(playwright, baseURL!);
  const { folder, path } = await draftPage(api, 'sched', 'Spring launch');

  await page.goto(`/pages/${path}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Spring launch' })).toBeVisible();
  await page.getByRole('button', { name: 'Schedule…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Schedule' });
  await expect(dialog.getByText('Your time zone: Europe/Berlin (UTC+01:00)').first()).toBeVisible();

  // An unpublish time before the publish time is refused before anything is sent.
  await typeDateTime(page, 'Publish at', '03012031' + '1000AM');
  await typeDateTime(page, 'Unpublish at', '02012031' + '0900AM');
  await expect(dialog.getByText('Must be after the publish time.')).toBeVisible();
  await dialog.getByRole('button', { name: 'Clear Unpublish at' }).click();
  await expect(dialog.getByText('Must be after the publish time.')).toBeHidden();
  await dialog.getByRole('button', { name: 'Save schedule' }).click();
  await expect(dialog).toBeHidden();

  // 10:00 in Berlin in March (winter time) is 09:00 UTC.
  const line = 'Scheduled: publishes Mar 1, 2031, 10:00 AM';
  await expect(page.getByText(line)).toBeVisible();
  expect(await workflowOf(api, path)).toMatchObject({ state: 'Draft', publishAt: '2031-03-01T09:00:00.000Z' });

  // The folder screen lists it beside the page's state.
  await page.goto(`/sites/demo/${folder}`);
  await expect(row(page, 'Spring launch')).toContainText(line);

  // Cleared in the editor: gone from the page and from the folder screen.
  await page.goto(`/pages/${path}`);
  await page.getByRole('button', { name: 'Change schedule…' }).click();
  await dialog.getByRole('button', { name: 'Clear Publish at' }).click();
  await dialog.getByRole('button', { name: 'Save schedule' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText(/^Scheduled:/)).toHaveCount(0);
  expect((await workflowOf(api, path)).publishAt).toBeUndefined();
  await page.goto(`/sites/demo/${folder}`);
  await expect(row(page, 'Spring launch')).toContainText('Draft');
  await expect(row(page, 'Spring launch')).not.toContainText('Scheduled');
  await api.dispose();
});

test('a page scheduled by someone else shows on the open folder screen, then goes Public there', async ({
  page,
  playwright,
  baseURL,
}) => {
  const api = await adminApi(playwright, baseURL!);
  const editor = await createUser(api, 'sched-editor', 'Editor');
  const { folder, path } = await draftPage(api, 'sched-live', 'Autumn launch');

  await page.goto(`/sites/demo/${folder}`);
  await expect(row(page, 'Autumn launch')).toContainText('Draft');

  // Another editor schedules it a few seconds ahead: the open table shows the time, from the live events.
  const basic = `Basic ${Buffer.from(`${editor.username}:${editor.password}`).toString('base64')}`;
  const publishAt = new Date(Date.now() + 6000).toISOString();
  const scheduled = await api.put(`/cms/rest/pages/by-path/${path}`, {
    data: { templateName: 'article', workflow: { publishAt } },
    headers: { authorization: basic },
  });
  expect(scheduled.status(), await scheduled.text()).toBe(200);
  await expect(row(page, 'Autumn launch')).toContainText('Scheduled: publishes');

  // The scheduler publishes it: Public, by the scheduler, the schedule gone, without a reload.
  await expect(row(page, 'Autumn launch')).toContainText('Public', { timeout: 20_000 });
  await expect(row(page, 'Autumn launch')).toContainText('by (scheduler)');
  await expect(row(page, 'Autumn launch')).not.toContainText('Scheduled');
  expect((await workflowOf(api, path)).state).toBe('Public');
  await api.dispose();
});

test('an open page editor follows the scheduler’s move without a banner', async ({ page, playwright, baseURL }) => {
  const api = await adminApi(playwright, baseURL!);
  const editor = await createUser(api, 'sched-open', 'Editor');
  const { path } = await draftPage(api, 'sched-open', 'Winter launch');
  const basic = `Basic ${Buffer.from(`${editor.username}:${editor.password}`).toString('base64')}`;
  const scheduled = await api.put(`/cms/rest/pages/by-path/${path}`, {
    data: { templateName: 'article', workflow: { publishAt: new Date(Date.now() + 6000).toISOString() } },
    headers: { authorization: basic },
  });
  expect(scheduled.status(), await scheduled.text()).toBe(200);

  await page.goto(`/pages/${path}`);
  await expect(page.getByText(/^Scheduled: publishes/)).toBeVisible();
  const status = page.locator('.page-editor__status');
  await expect(status).toContainText('Draft');

  await expect(status).toContainText('Public', { timeout: 20_000 });
  await expect(page.getByText(/^Scheduled:/)).toHaveCount(0);
  await expect(page.getByText(/^Saved by/)).toHaveCount(0);
  // Its workflow buttons follow: a Public page offers Archive.
  await expect(page.getByRole('group', { name: 'Workflow' }).getByRole('button', { name: 'Archive' })).toBeVisible();
  await api.dispose();
});
