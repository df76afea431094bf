/** Smallest card; cards grow to fill the row, keeping this shape. */
export const CARD_MIN = { width: 168, height: 208 } as const;
/** Least space between cards and around them. */
export const CARD_GAP = 12;
/** Most cards in a row, however wide the screen. */
export const MAX_COLUMNS = 12;
/** Height of the row that says more are on their way. */
export const LOADER_HEIGHT = 48;

/** Where the cards of a grid of a given width go: every row has the same height. */
export interface GridGeometry {
  columns: number;
  itemWidth: number;
  itemHeight: number;
  /** Space between cards in a row. */
  gapX: number;
  /** Left edge of the first card. */
  left: number;
}

/**
 * The grid's geometry for a width (the scroller's inner width), as react-aria's GridLayout placed the cards
 * before (same columns, sizes and margins), so the screen looks as it did.
 */
export function gridGeometry(width: number): GridGeometry {
  const columns = Math.max(1, Math.min(MAX_COLUMNS, Math.floor(width / (CARD_MIN.width + CARD_GAP))));
  const itemWidth = Math.max(CARD_MIN.width, Math.min(width, Math.floor((width - CARD_GAP * columns) / columns)));
  const maxItemHeight = Math.floor((CARD_MIN.height / CARD_MIN.width) * width);
  const t = (itemWidth - CARD_MIN.width) / Math.max(1, width - CARD_MIN.width);
  const itemHeight = Math.max(
    CARD_MIN.height,
    Math.min(maxItemHeight, CARD_MIN.height + Math.floor((maxItemHeight - CARD_MIN.height) * t)),
  );
  const gapX = Math.max(0, Math.floor((width - columns * itemWidth) / (columns + 1)));
  const margin = Math.floor((width - columns * itemWidth - gapX * (columns + 1)) / 2);
  return { columns, itemWidth, itemHeight, gapX, left: gapX + margin };
}

/** Top of a row of cards. */
export function rowTop(g: GridGeometry, row: number): number {
  return CARD_GAP + row * (g.itemHeight + CARD_GAP);
}

/** Height of everything the grid scrolls over: its rows, and the loader row while more are coming. */
export function contentHeight(g: GridGeometry, rows: number, loading: boolean): number {
  return (rows > 0 ? rowTop(g, rows) : 0) + (loading ? LOADER_HEIGHT : 0);
}

/** First and last row (inclusive) that meet the view, `overscan` rows more on either side, within `rows`. */
export function rowsInView(
  g: GridGeometry,
  scrollTop: number,
  viewHeight: number,
  rows: number,
  overscan: number,
): [number, number] {
  if (rows === 0) return [0, -1];
  const stride = g.itemHeight + CARD_GAP;
  const first = Math.floor((scrollTop - CARD_GAP) / stride);
  const last = Math.floor((scrollTop + viewHeight - CARD_GAP) / stride);
  return [Math.max(0, first - overscan), Math.min(rows - 1, Math.max(0, last + overscan))];
}

/**
 * The card a navigation key moves to from card `from` of `count`, or null when the key is not one of them or
 * there is nowhere to go: arrows by one card and one row, Home and End to the first and last card,
 * PageUp and PageDown by a screen of rows.
 */
export function cardAfterKey(
  key: string,
  from: number,
  count: number,
  columns: number,
  rowsPerPage: number,
): number | null {
  if (count === 0) return null;
  const last = count - 1;
  const clamp = (i: number) => Math.max(0, Math.min(last, i));
  const row = Math.floor(from / columns);
  const lastRow = Math.floor(last / columns);
  switch (key) {
    case 'ArrowRight':
      return from < last ? from + 1 : null;
    case 'ArrowLeft':
      return from > 0 ? from - 1 : null;
    case 'ArrowDown':
      // From the row above a shorter last row: to that row's last card.
      return row < lastRow ? clamp(from + columns) : null;
    case 'ArrowUp':
      return row > 0 ? from - columns : null;
    case 'Home':
      return 0;
    case 'End':
      return last;
    case 'PageDown':
      return row < lastRow ? clamp(from + Math.max(1, rowsPerPage) * columns) : null;
    case 'PageUp':
      return row > 0 ? Math.max(from % columns, from - Math.max(1, rowsPerPage) * columns) : null;
    default:
      return null;
  }
}
