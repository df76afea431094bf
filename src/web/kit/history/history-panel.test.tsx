import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { RevisionSummary } from '../../../shared/api/revisions';
import type { WorkflowState } from '../../../shared/api/workflow';
import { json } from '../../test/fake-api';
import { renderWithProviders } from '../../test/render';
import { HistoryPanel } from './history-panel';
import type { HistorySource } from './use-revisions';

const LIST = 'GET /cms/rest/pages/revisions/demo/welcome';

/** The page's versions are read only for the live one here (a live revision on a page of the list not read). */
const source: HistorySource<{ text: string }> = {
  kind: 'pages',
  path: 'demo/welcome',
  itemLabel: 'the page “Welcome”',
  versionOptions: (v) => ({
    queryKey: ['test-version', v],
    queryFn: () => Promise.resolve({ data: { text: String(v) }, etag: '"1"' }),
  }),
  compare: () => [],
  render: (v) => <p>{v.text}</p>,
};

const rev = (revision: number, state: WorkflowState, live = false): RevisionSummary => ({
  revision,
  savedAt: `2026-11-0${revision}T10:00:00.000Z`,
  savedBy: 'admin',
  state,
  live,
});

/** The revision numbers whose row carries the Live badge. */
async function liveRows() {
  const table = await screen.findByRole('table', { name: /Revisions of the page “Welcome”/ });
  return within(table)
    .getAllByRole('row')
    .slice(1)
    .filter((row) => within(row).queryByText('Live', { exact: true }))
    .map((row) => Number(within(row).getByRole('rowheader').textContent!.match(/^\d+/)![0]));
}

describe('HistoryPanel: the live badge', () => {
  it('marks the approved revision that is live, not a later Quick Edit or an earlier approval', async () => {
    renderWithProviders(<HistoryPanel source={source} />, {
      [LIST]: () =>
        json({
          items: [rev(5, 'Quick Edit'), rev(4, 'Public', true), rev(3, 'Review'), rev(2, 'Public'), rev(1, 'Draft')],
          next: null,
        }),
    });
    expect(await liveRows()).toEqual([4]);
    // The live version is not the latest: the panel says so, with a comparison of the two.
    expect(screen.getByText('Live version differs')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Compare live with current' })).toBeTruthy();
  });

  it('marks the latest revision when it is the live one, and says nothing differs', async () => {
    renderWithProviders(<HistoryPanel source={source} />, {
      [LIST]: () => json({ items: [rev(3, 'Public', true), rev(2, 'Review'), rev(1, 'Draft')], next: null }),
    });
    expect(await liveRows()).toEqual([3]);
    expect(screen.queryByText('Live version differs')).toBeNull();
  });

  it('marks no revision when none is live (never approved, or archived)', async () => {
    renderWithProviders(<HistoryPanel source={source} />, {
      [LIST]: () => json({ items: [rev(3, 'Archive'), rev(2, 'Public'), rev(1, 'Draft')], next: null }),
    });
    expect(await liveRows()).toEqual([]);
    expect(screen.queryByText('Live version differs')).toBeNull();
  });

  it('says the live version differs when its revision is on a page of the list not read yet', async () => {
    renderWithProviders(<HistoryPanel source={source} />, {
      [LIST]: () => json({ items: [rev(9, 'Quick Edit'), rev(8, 'Quick Edit')], next: 'more' }),
    });
    expect(await liveRows()).toEqual([]);
    expect(await screen.findByText('Live version differs')).toBeTruthy();
  });
});
