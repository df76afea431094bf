import { screen } from '@testing-library/react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { SearchHit } from '../../../../shared/api/search';
import { json } from '../../../test/fake-api';
import { renderWithProviders } from '../../../test/render';
import { SearchDialog } from './search-dialog';

const hit = (name: string): SearchHit => ({
  kind: 'page',
  path: `demo/articles/${name}`,
  title: name,
  type: 'article',
  state: 'Draft',
  modified: null,
  snippet: `An <mark>opening</mark> of ${name}`,
});

/** The dialog open on `q`, the server answering `capped`. */
function renderOn(q: string, capped: boolean, onActiveHit?: (hit: SearchHit) => void) {
  return renderWithProviders(
    <SearchDialog isOpen onOpenChange={() => {}} initialQuery={q} onOpenHit={() => {}} onActiveHit={onActiveHit} />,
    {
      'GET /cms/rest/sites': () => json([]),
      'GET /cms/rest/search': () => json({ items: [hit('gala'), hit('fair')], next: null, capped }),
    },
  );
}

describe('SearchDialog', () => {
  beforeAll(() => {
    // jsdom lays nothing out; the dialog keeps the active result in view.
    Element.prototype.scrollIntoView ??= () => {};
  });

  it('says when only the newest matches of a very common word are shown', async () => {
    renderOn('opening', true);
    expect(await screen.findByText(/only the newest of them are shown/, {}, { timeout: 5000 })).toBeTruthy();
    expect(screen.getByText('gala')).toBeTruthy();
    expect(screen.getByText('2 results, from the newest matches.')).toBeTruthy();
  });

  it('says nothing of the kind when every match was ranked', async () => {
    renderOn('gala', false);
    expect(await screen.findByText('2 results.', {}, { timeout: 5000 })).toBeTruthy();
    expect(screen.queryByText(/only the newest/)).toBeNull();
  });

  it('tells which result is active: the best match of an answer, then the one moved to or pointed at', async () => {
    const onActiveHit = vi.fn<(hit: SearchHit) => void>();
    const { user } = renderOn('gala', false, onActiveHit);
    expect(await screen.findByText('2 results.', {}, { timeout: 5000 })).toBeTruthy();
    expect(onActiveHit).toHaveBeenLastCalledWith(hit('gala'));
    await user.keyboard('{ArrowDown}');
    expect(onActiveHit).toHaveBeenLastCalledWith(hit('fair'));
    await user.hover(screen.getByText('gala'));
    expect(onActiveHit).toHaveBeenLastCalledWith(hit('gala'));
  });
});
