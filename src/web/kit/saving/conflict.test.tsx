import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ConflictDialog } from './conflict-dialog';
import { diffFields, fullValue, type ConflictRow } from './conflict-diff';

interface Props {
  displayName: string;
  summary: string | null;
  seo: { tags: string[]; hideSearch: boolean };
}

const FIELDS = [
  { key: 'displayName', label: 'Display name' },
  { key: 'summary', label: 'Summary' },
  { key: 'tags', label: 'Tags', group: 'SEO', read: (p: Props) => p.seo.tags },
  { key: 'hideSearch', label: 'Hide from search', group: 'SEO', read: (p: Props) => p.seo.hideSearch },
];

const base: Props = { displayName: 'Welcome', summary: null, seo: { tags: ['news'], hideSearch: false } };

describe('diffFields', () => {
  it('lists what the other save changed, with my value only where I changed the same field', () => {
    const theirs: Props = { ...base, displayName: 'Welcome!', seo: { tags: ['news', 'events'], hideSearch: false } };
    const mine: Props = { ...base, displayName: 'Hello', summary: 'Mine only' };
    const rows = diffFields(FIELDS, base, theirs, mine);
    expect(rows).toEqual([
      {
        key: 'displayName',
        group: 'Properties',
        label: 'Display name',
        kind: 'changed',
        before: 'Welcome',
        theirs: 'Welcome!',
        yours: 'Hello',
      },
      {
        key: 'tags',
        group: 'SEO',
        label: 'Tags',
        kind: 'changed',
        before: 'news',
        theirs: 'news, events',
        yours: undefined,
      },
    ]);
  });

  it('treats "" and null as the same unset value, so nothing is reported for it', () => {
    const theirs: Props = { ...base, summary: '' };
    expect(diffFields(FIELDS, base, theirs, base)).toEqual([]);
  });

  it('shows HTML as its text, booleans as words, long values whole', () => {
    expect(fullValue('<h2>Opening &amp; hours</h2><p>Mon&nbsp;–&nbsp;Fri</p>')).toBe('Opening & hours Mon – Fri');
    expect(fullValue(true)).toBe('Yes');
    expect(fullValue(null)).toBe('(empty)');
    // Whole: the dialog shows all of the difference, not a cut.
    expect(fullValue('x'.repeat(500)).length).toBe(500);
  });
});

describe('ConflictDialog', () => {
  const rows: ConflictRow[] = [
    {
      key: 'displayName',
      group: 'Properties',
      label: 'Display name',
      kind: 'changed',
      before: 'A',
      theirs: 'B',
      yours: 'C',
    },
    { key: 'w1', group: 'Region main', label: 'Rich text widget', kind: 'added', theirs: 'Opening hours' },
  ];

  it('shows their changes grouped, marks what I changed too, and overwrites only when chosen', async () => {
    const user = userEvent.setup();
    const onReload = vi.fn();
    const onOverwrite = vi.fn();
    const onCancel = vi.fn();
    render(
      <ConflictDialog
        isOpen
        itemLabel="the page “Welcome”"
        rows={rows}
        onReload={onReload}
        onOverwrite={onOverwrite}
        onCancel={onCancel}
      />,
    );
    const dialog = screen.getByRole('dialog', { name: 'Someone else saved this meanwhile' });
    expect(dialog.textContent).toContain('were not saved');
    const props = within(dialog).getByRole('region', { name: 'Properties' });
    expect(props.textContent).toContain('Display name');
    // Each side shows the value before struck and its own marked: Before A, Theirs (A →) B, Yours (A →) C.
    expect(props.textContent).toContain('TheirsAB');
    expect(props.textContent).toContain('YoursAC');
    expect([...props.querySelectorAll('ins')].map((e) => e.textContent)).toEqual(['B', 'C']);
    expect(within(dialog).getByRole('region', { name: 'Region main' }).textContent).toContain('Opening hours');
    expect(within(dialog).getByRole('alert').textContent).toContain('You changed one of these too');

    // Focus starts on the harmless choice; Escape cancels without saving anything.
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Cancel (keep editing)' }));
    await user.keyboard('{Escape}');
    expect(onCancel).toHaveBeenCalledTimes(1);
    expect(onOverwrite).not.toHaveBeenCalled();
    expect(onReload).not.toHaveBeenCalled();

    await user.click(within(dialog).getByRole('button', { name: 'Overwrite with mine' }));
    expect(onOverwrite).toHaveBeenCalledTimes(1);
    await user.click(within(dialog).getByRole('button', { name: 'Reload their version (keep nothing of mine)' }));
    expect(onReload).toHaveBeenCalledTimes(1);
  });

  it('offers no choice while their version is still being read', () => {
    render(
      <ConflictDialog
        isOpen
        itemLabel="x"
        rows={[]}
        isLoading
        onReload={vi.fn()}
        onOverwrite={vi.fn()}
        onCancel={vi.fn()}
      />,
    );
    expect(screen.getByRole('button', { name: 'Keep both' }).hasAttribute('disabled')).toBe(true);
    expect(screen.getByRole('status').textContent).toContain('Reading their version');
  });

  it('names who saved and when, marks the changed words of the whole text, and keeps both when nothing collides', async () => {
    const user = userEvent.setup();
    const onOverwrite = vi.fn();
    const long = 'word '.repeat(60);
    const rows: ConflictRow[] = diffFields(
      [{ key: 'summary', label: 'Summary' }],
      { summary: `${long}the old ending` },
      { summary: `${long}the new ending` },
      { summary: `${long}the old ending` },
    );
    render(
      <ConflictDialog
        isOpen
        itemLabel="the page “Welcome”"
        rows={rows}
        savedBy={{ by: 'alice', at: '2026-03-01T09:30:00.000Z' }}
        onReload={vi.fn()}
        onOverwrite={onOverwrite}
        onCancel={vi.fn()}
      />,
    );
    const dialog = screen.getByRole('dialog', { name: /^alice saved this at / });
    expect(dialog.textContent).toContain('saved by alice');
    // The whole text, not cut: the change is at its end, marked word by word.
    const theirs = within(dialog).getByText((_, el) => el?.tagName === 'DD' && el.textContent!.includes('new ending'));
    expect(theirs.textContent).toBe(`${long}the oldnew ending`);
    expect(theirs.querySelector('ins')?.textContent).toBe('new');
    expect(theirs.querySelector('del')?.textContent).toBe('old');
    // Nothing collides: no "Overwrite with mine"; "Keep both" is the default.
    expect(within(dialog).queryByRole('button', { name: 'Overwrite with mine' })).toBeNull();
    const keep = within(dialog).getByRole('button', { name: 'Keep both' });
    expect(document.activeElement).toBe(keep);
    await user.click(keep);
    expect(onOverwrite).toHaveBeenCalledTimes(1);
  });
});
