import { expect, type APIRequestContext, type PlaywrightWorkerArgs } from '@playwright/test';
import { E2E_ADMIN_PASSWORD } from './env';

/** The seeded admin's HTTP Basic `Authorization` header. */
export const ADMIN_AUTHORIZATION = `Basic ${Buffer.from(`admin:${E2E_ADMIN_PASSWORD}`).toString('base64')}`;

/** The REST interface as the seeded admin (HTTP Basic), for setting up and checking what a test needs. */
export async function adminApi(
  playwright: PlaywrightWorkerArgs['playwright'],
  baseURL: string,
): Promise<APIRequestContext> {
  return playwright.request.newContext({
    baseURL,
    extraHTTPHeaders: {
      authorization: ADMIN_AUTHORIZATION,
      'x-requested-with': 'XMLHttpRequest',
    },
  });
}

/** Creates a user with a fresh name (`prefix-…`) and answers its name and password. */
export async function createUser(api: APIRequestContext, prefix: string, role: string) {
  const username = `${prefix}-${Date.now().toString(36)}`;
  const password = `${username}-password`;
  const res = await api.put(`/cms/rest/users/${username}`, { data: { role, password } });
  expect(res.status(), await res.text()).toBe(201);
  return { username, password };
}
