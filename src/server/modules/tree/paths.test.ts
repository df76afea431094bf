import { describe, expect, it } from 'vitest';
import { AppError } from '../../lib/errors.js';
import { byPathSegments } from './paths.js';

describe('byPathSegments', () => {
  it('splits and decodes each segment after the route prefix', () => {
    expect(byPathSegments('/cms/rest/assets/list/Assets/caf%C3%A9//c?limit=5', '/cms/rest/assets/list/')).toEqual([
      'Assets',
      'café',
      'c',
    ]);
  });

  it('finds a prefix that the client percent-encoded instead of answering the top of the tree', () => {
    expect(byPathSegments('/cms/rest/%61ssets/approve-all/Assets/locked', '/cms/rest/assets/approve-all/')).toEqual([
      'Assets',
      'locked',
    ]);
    expect(byPathSegments('/cms/rest/folders/by%2Dpath/site/x', '/cms/rest/folders/by-path/')).toEqual(['site', 'x']);
  });

  it('refuses a URL without the prefix (400) rather than taking it as an empty path', () => {
    expect(() => byPathSegments('/elsewhere/Assets/x', '/cms/rest/assets/list/')).toThrow(AppError);
  });
});
