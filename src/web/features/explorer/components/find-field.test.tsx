import { screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { json } from '../../../test/fake-api';
import { renderWithProviders } from '../../../test/render';
import { ExplorerProvider, type ExplorerNavigation } from './explorer-context';
import { FindField } from './find-field';
import { createFindDraft, FindFieldFallback } from './find-field-draft';

const navigation: ExplorerNavigation = {
  hrefOf: (item) => `/x/${item.segments.join('/')}`,
  open: () => undefined,
  currentPath: null,
  openHome: () => undefined,
  homeHref: '/home',
  preloadScreenOf: () => undefined,
};
const Explorer = ({ children }: { children: ReactNode }) => (
  <ExplorerProvider role="Admin" navigation={navigation}>
    {children}
  </ExplorerProvider>
);

describe('FindField: the box the first screen draws before its code', () => {
  it('keeps what was typed into the box and hands the text and the focus to the field', async () => {
    const draft = createFindDraft();
    const { user, rerender } = renderWithProviders(<FindFieldFallback draft={draft} />, {
      'GET /cms/rest/folders/find': () => json([]),
    });
    const box = screen.getByRole('textbox', { name: 'Find by title or name' });
    await user.click(box);
    await user.keyboard('welc');
    expect(draft).toEqual({ value: 'welc', focused: true });

    // The explorer's code has loaded: the field replaces the box, in the same commit as Suspense does.
    rerender(
      <Explorer>
        <FindField draft={draft} />
      </Explorer>,
    );
    const field = screen.getByRole('combobox', { name: 'Find by title or name' });
    expect(field).toHaveProperty('value', 'welc');
    await waitFor(() => expect(document.activeElement).toBe(field));
    // Typing goes on at the end of the text.
    await user.keyboard('ome');
    expect(field).toHaveProperty('value', 'welcome');
  });

  it('takes no focus when the box did not have it', async () => {
    const draft = createFindDraft();
    renderWithProviders(
      <Explorer>
        <FindField draft={draft} />
      </Explorer>,
      {},
    );
    const field = screen.getByRole('combobox', { name: 'Find by title or name' });
    expect(field).toHaveProperty('value', '');
    expect(document.activeElement).not.toBe(field);
  });
});
