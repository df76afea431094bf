import { act, fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import type { Selection } from 'react-aria-components';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AssetMetadata } from '../../../../shared/api/assets';
import { renderWithProviders } from '../../../test/render';
import { textAsset } from '../test/asset-fixtures';
import { AssetGrid } from './asset-grid';

// jsdom lays nothing out: the grid's scroller is given a size (5 columns of cards, about 3 rows in view).
const WIDTH = 1000;
const HEIGHT = 600;
const sizes = {
  clientWidth: { configurable: true, get: () => WIDTH },
  clientHeight: { configurable: true, get: () => HEIGHT },
};
beforeAll(() => Object.defineProperties(HTMLElement.prototype, sizes));
// Element.prototype's own getters show through again.
afterAll(() => {
  delete (HTMLElement.prototype as { clientWidth?: number }).clientWidth;
  delete (HTMLElement.prototype as { clientHeight?: number }).clientHeight;
});

const assets = (n: number): AssetMetadata[] =>
  Array.from({ length: n }, (_, i) => textAsset(`Assets/f/note-${String(i).padStart(4, '0')}`));

function Harness(props: {
  assets: AssetMetadata[];
  total?: number;
  canSelect?: boolean;
  hasMore?: boolean;
  onOpen?: (a: AssetMetadata) => void;
  onLoadMore?: () => void;
  onSelection?: (s: Selection) => void;
}) {
  const [selected, setSelected] = useState<Selection>(new Set());
  return (
    <AssetGrid
      label="Assets in f"
      assets={props.assets}
      total={props.total}
      selectedKeys={selected}
      onSelectionChange={(s) => {
        setSelected(s);
        props.onSelection?.(s);
      }}
      onOpen={props.onOpen ?? (() => {})}
      hasMore={props.hasMore ?? false}
      isLoadingMore={false}
      onLoadMore={props.onLoadMore ?? (() => {})}
      canSelect={props.canSelect ?? true}
    />
  );
}

const render = (props: Parameters<typeof Harness>[0]) => renderWithProviders(<Harness {...props} />, {});
const cell = (name: string) => screen.getByRole('gridcell', { name: new RegExp(`^${name},`) });

describe('AssetGrid', () => {
  it('tells readers its full size and draws only the rows in view', () => {
    render({ assets: assets(1000), total: 100_000 });
    const grid = screen.getByRole('grid', { name: 'Assets in f' });
    expect(grid.getAttribute('aria-rowcount')).toBe(String(100_000 / 5));
    expect(grid.getAttribute('aria-colcount')).toBe('5');
    expect(grid.getAttribute('aria-multiselectable')).toBe('true');
    const rows = within(grid).getAllByRole('row');
    expect(rows[0].getAttribute('aria-rowindex')).toBe('1');
    expect(rows.length).toBeLessThanOrEqual(8);
    expect(within(rows[0]!).getAllByRole('gridcell')).toHaveLength(5);
    expect(cell('note-0000').getAttribute('aria-colindex')).toBe('1');
    expect(screen.queryByRole('gridcell', { name: /^note-0999,/ })).toBeNull();
  });

  it('moves between cards with arrows, Home, End and PageDown, one card in the tab order', async () => {
    const user = userEvent.setup();
    render({ assets: assets(40) });
    act(() => screen.getByRole('grid').focus());
    expect(document.activeElement).toBe(cell('note-0000'));
    expect(cell('note-0000').getAttribute('tabindex')).toBe('0');
    await user.keyboard('{ArrowRight}');
    expect(document.activeElement).toBe(cell('note-0001'));
    expect(cell('note-0000').getAttribute('tabindex')).toBe('-1');
    await user.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(cell('note-0006'));
    await user.keyboard('{End}');
    expect(document.activeElement).toBe(cell('note-0039'));
    await user.keyboard('{Home}');
    expect(document.activeElement).toBe(cell('note-0000'));
    // Two rows fit in the view.
    await user.keyboard('{PageDown}');
    expect(document.activeElement).toBe(cell('note-0010'));
    await user.keyboard('{ArrowUp}');
    expect(document.activeElement).toBe(cell('note-0005'));
    // Typing a name goes to it.
    await user.keyboard('note-002');
    expect(document.activeElement).toBe(cell('note-0020'));
  });

  it('selects with Space, Shift+arrows, Ctrl+A and clears with Escape; Enter opens the focused asset', async () => {
    const user = userEvent.setup();
    const onOpen = vi.fn();
    const onSelection = vi.fn();
    render({ assets: assets(12), onOpen, onSelection });
    act(() => screen.getByRole('grid').focus());
    await user.keyboard('{ArrowRight} ');
    expect(cell('note-0001').getAttribute('aria-selected')).toBe('true');
    expect(cell('note-0000').getAttribute('aria-selected')).toBe('false');
    await user.keyboard('{Shift>}{ArrowRight}{ArrowRight}{/Shift}');
    expect(onSelection).toHaveBeenLastCalledWith(
      new Set(['Assets/f/note-0001', 'Assets/f/note-0002', 'Assets/f/note-0003']),
    );
    await user.keyboard('{Escape}');
    expect(onSelection).toHaveBeenLastCalledWith(new Set());
    await user.keyboard('{Control>}a{/Control}');
    expect(onSelection).toHaveBeenLastCalledWith('all');
    expect(cell('note-0011').getAttribute('aria-selected')).toBe('true');
    await user.keyboard('{Escape}{Enter}');
    expect(onOpen).toHaveBeenCalledWith(expect.objectContaining({ name: 'note-0003' }));
  });

  it('opens on a click without a selection; with one, clicks toggle and Shift-click takes the range', async () => {
    const user = userEvent.setup();
    const onOpen = vi.fn();
    const onSelection = vi.fn();
    render({ assets: assets(8), onOpen, onSelection });
    await user.click(cell('note-0002'));
    expect(onOpen).toHaveBeenCalledWith(expect.objectContaining({ name: 'note-0002' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select note-0001' }));
    expect(cell('note-0001').getAttribute('aria-selected')).toBe('true');
    expect(document.activeElement).toBe(cell('note-0001'));
    fireEvent.click(cell('note-0004'), { shiftKey: true });
    expect(onSelection).toHaveBeenLastCalledWith(
      new Set(['Assets/f/note-0001', 'Assets/f/note-0002', 'Assets/f/note-0003', 'Assets/f/note-0004']),
    );
    expect(onOpen).toHaveBeenCalledTimes(1);
  });

  it('offers no checkbox where one may not select, and asks for more as the end comes near', () => {
    const onLoadMore = vi.fn();
    render({ assets: assets(12), canSelect: false, hasMore: true, onLoadMore });
    expect(screen.queryAllByRole('checkbox')).toHaveLength(0);
    expect(screen.getByRole('grid').hasAttribute('aria-multiselectable')).toBe(false);
    expect(cell('note-0000').hasAttribute('aria-selected')).toBe(false);
    expect(onLoadMore).toHaveBeenCalled();
  });
});
