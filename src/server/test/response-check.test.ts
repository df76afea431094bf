import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './harness.js';
import { etagOf } from '../lib/etag.js';
import { responseChecker } from './response-check.js';

describe('responseChecker', () => {
  let t: TestApp;
  let check: ReturnType<typeof responseChecker>;
  beforeAll(async () => {
    t = await createTestApp();
    check = responseChecker((await t.request({ method: 'GET', url: '/cms/rest/openapi.json' })).body);
  });
  afterAll(() => t.close());

  const sent = (over: Partial<Parameters<typeof check>[0]>) =>
    check({
      method: 'GET',
      route: '/cms/rest/sites',
      status: 200,
      contentType: 'application/json; charset=utf-8',
      body: '[]',
      etag: etagOf('[]'),
      ...over,
    });

  it('accepts a body of the declared schema', () => {
    expect(sent({})).toBeNull();
    const problem = JSON.stringify({ type: 'x', title: 'Not Found', status: 404, detail: 'd', code: 'PAGE_NOT_FOUND' });
    expect(
      sent({ route: '/cms/rest/pages/by-path/*', status: 404, contentType: 'application/problem+json', body: problem }),
    ).toBeNull();
  });

  it('names a body that does not match, a status or content type the route does not declare', () => {
    expect(sent({ body: '[{"name":1}]' })).toMatch(/does not match its schema/);
    expect(sent({ route: '/cms/rest/pages/by-path/*', body: '{"id":null}' })).toMatch(/does not match/);
    expect(sent({ status: 418 })).toMatch(/does not declare status 418/);
    expect(sent({ status: 401, body: '{}' })).toMatch(/does not declare application\/json/);
    expect(sent({ route: '/cms/rest/nowhere' })).toMatch(/not in the document/);
  });

  it('leaves alone what has no schema: non-JSON bodies, unmatched routes', () => {
    expect(sent({ contentType: 'text/html', body: '<p>' })).toBeNull();
    expect(sent({ route: undefined, status: 404 })).toBeNull();
  });

  it('names a JSON answer that did not go out through answerJson: a GET without the ETag of its bytes', () => {
    expect(sent({ etag: undefined })).toMatch(/has no ETag: answer through answerJson/);
    expect(sent({ etag: etagOf('[ ]') })).toMatch(/not of its bytes/);
    // A write's result that is not the item's representation carries no ETag; a file download carries the file's.
    expect(
      sent({ method: 'POST', route: '/cms/rest/auth/logout', body: '{"message":"Signed out"}', etag: undefined }),
    ).toBeNull();
    expect(sent({ etag: '"sha256-of-the-file"', download: true })).toBeNull();
  });
});
