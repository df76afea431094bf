import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Page } from '../../../shared/api/pages.js';
import { createTestApp, problemOf, type TestApp } from '../../test/harness.js';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp({ CMS_SEED: 'true' });
});
afterEach(async () => {
  await t.close();
});

const HOME = '/cms/rest/pages/by-path/demo/index';
const put = (body: unknown) => t.request({ method: 'PUT', url: HOME, payload: body as object });
async function read() {
  const res = await t.request({ method: 'GET', url: HOME });
  expect(res.statusCode, res.body).toBe(200);
  return Page.parse(res.json());
}
const toState = (state: string, comment?: string) =>
  put({ templateName: 'article', workflow: { state, ...(comment === undefined ? {} : { comment }) } });

describe('pages: Reject keeps its reason with the page', () => {
  it('asks for a reason, stores it trimmed with who and when, and clears it when the page moves on', async () => {
    expect((await toState('Draft', 'not a rejection')).statusCode).toBeLessThan(300);
    expect((await read()).workflow.rejection ?? null).toBeNull();
    expect((await toState('Review')).statusCode).toBe(200);

    for (const comment of [undefined, '', '  \n ']) {
      const res = await toState('Draft', comment);
      expect(res.statusCode).toBe(400);
      expect(problemOf(res).errors?.[0]?.path).toBe('workflow.comment');
      expect((await read()).workflow.state).toBe('Review');
    }
    expect((await toState('Draft', 'x'.repeat(2001))).statusCode).toBe(400);
    expect((await read()).workflow.state).toBe('Review');

    const rejected = await toState('Draft', '\tThe title says <b>nothing</b>.  ');
    expect(rejected.statusCode, rejected.body).toBe(200);
    const page = await read();
    expect(page.workflow.state).toBe('Draft');
    expect(page.workflow.rejection).toMatchObject({ reason: 'The title says <b>nothing</b>.', by: 'admin' });
    expect(Number.isNaN(Date.parse(page.workflow.rejection!.at))).toBe(false);

    // Editing the draft keeps the reason; submitting again clears it.
    expect((await put({ templateName: 'article', displayName: 'Home, better' })).statusCode).toBe(200);
    expect((await read()).workflow.rejection?.reason).toBe('The title says <b>nothing</b>.');
    expect((await toState('Review', 'ignored')).statusCode).toBe(200);
    expect((await read()).workflow.rejection).toBeNull();
  });

  it('clears the reason when a bulk action moves the page on', async () => {
    expect((await toState('Review')).statusCode).toBe(200);
    expect((await toState('Draft', 'Too long.')).statusCode).toBe(200);
    expect((await read()).workflow.rejection?.reason).toBe('Too long.');
    const bulk = await t.request({ method: 'POST', url: '/cms/rest/pages/approve-all/demo' });
    expect(bulk.statusCode, bulk.body).toBe(200);
    const page = await read();
    expect(page.workflow.state).toBe('Public');
    expect(page.workflow.rejection).toBeNull();
  });
});
