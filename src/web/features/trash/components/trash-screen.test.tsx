import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { TrashEntry } from '../../../../shared/api/trash';
import { json } from '../../../test/fake-api';
import { renderWithProviders } from '../../../test/render';
import { TrashScreen } from './trash-screen';

const DAY_MS = 86_400_000;

function entry(id: string, kind: string, path: string, title: string, purgeInMs: number): TrashEntry {
  const segments = path.split('/');
  const purgeAt = Date.now() + purgeInMs;
  return {
    id,
    kind,
    name: segments[segments.length - 1]!,
    title,
    path,
    from: segments.slice(0, -1).join('/'),
    deletedBy: 'admin',
    deletedAt: new Date(purgeAt - 30 * DAY_MS).toISOString(),
    purgeAt: new Date(purgeAt).toISOString(),
  };
}

describe('TrashScreen', () => {
  it('shows each item by its title, its name beside it when that differs, and when it goes for good', async () => {
    const binned = entry('2', 'page', 'demo/articles/binned', 'Binned notes', 11.5 * DAY_MS);
    const box = entry('1', 'folder', 'demo/box', 'box', 2 * 3_600_000);
    const { user, server } = renderWithProviders(<TrashScreen isAdmin />, {
      'GET /cms/rest/trash': () => json({ items: [binned, box], next: null }),
      'POST /cms/rest/trash/restore': () => json({ kind: 'page', path: 'demo/articles/binned', href: '/x' }),
    });
    const table = await screen.findByRole('table', { name: 'Deleted items' });
    const [, page, folder] = within(table).getAllByRole('row');
    const [what, when] = within(page!).getAllByRole('cell');
    expect(within(what!).getByText('Binned notes').tagName).toBe('STRONG');
    // Where it was under it.
    expect(what!.textContent).toBe('Page Binned notesdemo/articles/binned');
    expect(when!.textContent).toContain(' by admin');
    expect(when!.textContent).toContain('Deleted for good in 12 days');
    expect(within(when!).getByText('Deleted for good in 12 days').getAttribute('datetime')).toBe(binned.purgeAt);
    const folderCells = within(folder!).getAllByRole('cell');
    expect(folderCells[0]!.textContent).toBe('Folder boxdemo/box');
    expect(folderCells[1]!.textContent).toContain('Deleted for good within a day');

    await user.click(within(page!).getByRole('button', { name: 'Restore' }));
    expect(await screen.findByText('Restored “Binned notes”')).toBeTruthy();
    expect(server.requests.find((r) => r.method === 'POST')?.body).toEqual({ id: '2' });
  });
});
