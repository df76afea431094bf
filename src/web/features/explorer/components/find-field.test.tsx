import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { json } from '../../../test/fake-api';
import { renderWithProviders } from '../../../test/render';
import { ExplorerProvider, type ExplorerNavigation } from './explorer-context';
import { FindField } from './find-field';
import { createFindDraft, FindFieldFallback, type FindDraft } from './find-field-draft';

const navigation: ExplorerNavigation = {
  hrefOf: (item) => `/x/${item.segments.join('/')}`,
  open: () => undefined,
  currentPath: null,
  openHome: () => undefined,
  homeHref: '/home',
  preloadScreenOf: () => undefined,
};
/** The field as the explorer's code draws it, given what the first screen's box was given. */
const field = (draft: FindDraft) => (
  <ExplorerProvider role="Admin" navigation={navigation}>
    <FindField draft={draft} />
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
    rerender(field(draft));
    const input = screen.getByRole('combobox', { name: 'Find by title or name' });
    expect(input).toHaveProperty('value', 'welc');
    await waitFor(() => expect(document.activeElement).toBe(input));
    // Typing goes on at the end of the text.
    await user.keyboard('ome');
    expect(input).toHaveProperty('value', 'welcome');
  });

  it('takes no focus when the box did not have it', async () => {
    renderWithProviders(field(createFindDraft()), {});
    const input = screen.getByRole('combobox', { name: 'Find by title or name' });
    expect(input).toHaveProperty('value', '');
    expect(document.activeElement).not.toBe(input);
  });
});
