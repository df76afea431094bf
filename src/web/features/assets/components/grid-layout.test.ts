import { describe, expect, it } from 'vitest';
import { cardAfterKey, contentHeight, gridGeometry, rowsInView, rowTop } from './grid-layout';

describe('gridGeometry', () => {
  it('places cards as react-aria GridLayout did: as many columns of at least 168 px as fit, grown alike', () => {
    // 1,000 px: five columns of 188 × 232 (aspect kept), the 60 px left spread between and around them.
    expect(gridGeometry(1000)).toEqual({ columns: 5, itemWidth: 188, itemHeight: 232, gapX: 10, left: 10 });
    expect(gridGeometry(100).columns).toBe(1);
    expect(gridGeometry(10_000).columns).toBe(12);
  });

  it('finds the rows in view, with overscan, within the rows there are', () => {
    const g = gridGeometry(1000);
    const stride = g.itemHeight + 12;
    expect(rowTop(g, 0)).toBe(12);
    expect(rowTop(g, 3)).toBe(12 + 3 * stride);
    expect(rowsInView(g, 0, 600, 100, 2)).toEqual([0, 4]);
    expect(rowsInView(g, 10 * stride, 600, 100, 2)).toEqual([7, 14]);
    expect(rowsInView(g, 10 * stride, 600, 11, 2)).toEqual([7, 10]);
    expect(rowsInView(g, 0, 600, 0, 2)).toEqual([0, -1]);
    expect(contentHeight(g, 2, true)).toBe(12 + 2 * stride + 48);
  });
});

describe('cardAfterKey', () => {
  // 23 cards in rows of 5: the last row holds three (20–22).
  const next = (key: string, from: number) => cardAfterKey(key, from, 23, 5, 2);
  it('moves by card, by row and to the ends', () => {
    expect(next('ArrowRight', 4)).toBe(5);
    expect(next('ArrowRight', 22)).toBeNull();
    expect(next('ArrowLeft', 0)).toBeNull();
    expect(next('ArrowDown', 3)).toBe(8);
    expect(next('ArrowUp', 3)).toBeNull();
    expect(next('Home', 17)).toBe(0);
    expect(next('End', 2)).toBe(22);
    expect(next('Tab', 2)).toBeNull();
  });

  it('goes down to a shorter last row’s last card, and pages by screens of rows', () => {
    expect(next('ArrowDown', 19)).toBe(22);
    expect(next('ArrowDown', 21)).toBeNull();
    expect(next('PageDown', 1)).toBe(11);
    expect(next('PageDown', 14)).toBe(22);
    expect(next('PageUp', 13)).toBe(3);
    expect(next('PageUp', 7)).toBe(2);
  });
});
