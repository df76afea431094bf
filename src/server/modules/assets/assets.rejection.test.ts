import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, problemOf, type TestApp } from '../../test/harness.js';
import { metadataOf } from './assets.fixtures.js';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});
afterEach(async () => {
  await t.close();
});

const META = '/cms/rest/assets/by-path';
const put = (path: string, body: unknown) =>
  t.request({ method: 'PUT', url: `${META}/${path}`, payload: body as object });
const read = async (path: string) => metadataOf(await t.request({ method: 'GET', url: `${META}/${path}` }));
const LIST = { type: 'cmsSimpleAutoList', fields: { query: 'type:page', max_results: '10' } };

describe('assets: Reject keeps its reason with the asset', () => {
  it('asks for a reason, stores it trimmed with who and when, and clears it when the asset moves on', async () => {
    expect((await put('Assets/x/list', { ...LIST, workflow: { state: 'Review' } })).statusCode).toBe(201);

    for (const comment of [undefined, '', '   ']) {
      const res = await put('Assets/x/list', {
        workflow: { state: 'Draft', ...(comment === undefined ? {} : { comment }) },
      });
      expect(res.statusCode).toBe(400);
      expect(problemOf(res).errors?.[0]?.path).toBe('workflow.comment');
      expect((await read('Assets/x/list')).workflow.state).toBe('Review');
    }
    const tooLong = await put('Assets/x/list', { workflow: { state: 'Draft', comment: 'x'.repeat(2001) } });
    expect(tooLong.statusCode).toBe(400);

    expect(
      (await put('Assets/x/list', { workflow: { state: 'Draft', comment: '  Alt text is missing.\n' } })).statusCode,
    ).toBe(200);
    const rejected = await read('Assets/x/list');
    expect(rejected.workflow.state).toBe('Draft');
    expect(rejected.workflow.rejection).toMatchObject({ reason: 'Alt text is missing.', by: 'admin' });
    expect(Number.isNaN(Date.parse(rejected.workflow.rejection!.at))).toBe(false);

    // Editing the draft keeps the reason; submitting again clears it.
    expect((await put('Assets/x/list', { fields: { max_results: '5' } })).statusCode).toBe(200);
    expect((await read('Assets/x/list')).workflow.rejection?.reason).toBe('Alt text is missing.');
    expect((await put('Assets/x/list', { workflow: { state: 'Review' } })).statusCode).toBe(200);
    expect((await read('Assets/x/list')).workflow.rejection).toBeNull();
  });
});
