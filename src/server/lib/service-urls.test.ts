import { describe, expect, it } from 'vitest';
import { isApiUrl, isServiceUrl, needsCredentials } from './service-urls.js';

describe('service URLs', () => {
  // url, API (no-store, documented), the service's own (never the SPA), needs credentials
  const cases: [string, boolean, boolean, boolean][] = [
    ['/cms/rest/pages/1', true, true, true],
    ['/cms/rest/pages/1?x=1', true, true, true],
    ['/healthz', true, true, false],
    ['/healthz?probe=1', true, true, false],
    ['/healthzz', false, false, false],
    ['/cms', false, true, true],
    ['/cms?x', false, true, true],
    ['/docs', false, true, true],
    ['/docs/json', false, true, true],
    ['/docs?x', false, true, true],
    ['/documents', false, false, false],
    ['/cmsx', false, false, false],
    ['/', false, false, false],
    ['/sites/demo/pages/1', false, false, false],
    ['/assets/index-abc.js', false, false, false],
  ];
  it.each(cases)('%s', (url, api, service, credentials) => {
    expect([isApiUrl(url), isServiceUrl(url), needsCredentials(url)]).toEqual([api, service, credentials]);
  });
});
