import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Comparison } from './comparison';

describe('Comparison', () => {
  it('puts the versions side by side: dropped words struck on the left, new words marked on the right', () => {
    const { container } = render(
      <Comparison
        beforeLabel="Revision 2"
        afterLabel="Revision 3"
        rows={[
          {
            key: 'w1:text',
            group: 'Region “main”',
            label: 'Rich text widget “Hours” · Text',
            kind: 'changed',
            before: 'Hours\nMonday to Friday',
            theirs: 'Hours\nMonday to Saturday <b>now</b>',
          },
          { key: 'w2', group: 'Region “main”', label: 'Title widget “Welcome”', kind: 'added', theirs: 'Welcome' },
          {
            key: 'w3',
            group: 'Region “side”',
            label: 'Raw HTML widget “Map”',
            kind: 'removed',
            before: 'Map',
            theirs: '',
          },
        ]}
      />,
    );
    const main = screen.getByRole('region', { name: 'Region “main”' });
    const [changed, added] = within(main).getAllByRole('listitem');
    expect(changed!.querySelectorAll('del')).toHaveLength(1);
    expect(changed!.querySelector('del')!.textContent).toBe('Friday');
    expect([...changed!.querySelectorAll('ins')].map((e) => e.textContent)).toEqual(['Saturday <b>now</b>']);
    // Text, never HTML.
    expect(container.querySelector('b')).toBeNull();
    expect(added!.textContent).toMatch(/Added.*\(not there\).*Welcome/);
    expect(screen.getByRole('region', { name: 'Region “side”' }).textContent).toMatch(/Removed.*Map.*\(removed\)/);
  });

  it('says when the two versions hold the same content', () => {
    render(<Comparison beforeLabel="A" afterLabel="B" rows={[]} states={{ before: 'Public', after: 'Public' }} />);
    expect(screen.getByText(/No differences/)).toBeTruthy();
  });

  it('names the state change when only the workflow state differs (an approval)', () => {
    render(<Comparison beforeLabel="A" afterLabel="B" rows={[]} states={{ before: 'Draft', after: 'Public' }} />);
    expect(screen.getByText('The content is the same; only the workflow state differs: Draft → Public.')).toBeTruthy();
  });
});
