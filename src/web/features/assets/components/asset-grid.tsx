import {
  memo,
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type ChangeEvent,
  type FocusEvent,
  type KeyboardEvent,
  type MouseEvent,
} from 'react';
import type { Selection } from 'react-aria-components';
import type { AssetMetadata } from '../../../../shared/api/assets';
import { CheckIcon } from '../../../components/ui/icons';
import { Spinner } from '../../../components/ui/spinner';
import { AssetCardBody, assetCardLabel } from '../../../kit/pickers/asset-card';
import { assetPathOf } from '../../../lib/assets';
import { cardAfterKey, CARD_GAP, contentHeight, gridGeometry, LOADER_HEIGHT, rowsInView, rowTop } from './grid-layout';
import { isEmptySelection, isSelectedIn, rangeSelection, toggledSelection } from './grid-selection';

/** What the grid and the list share: the assets, the selection, opening one, loading more. */
export interface AssetCollectionProps {
  label: string;
  assets: readonly AssetMetadata[];
  /** How many assets the listing matches (loaded or not), when known: readers are told the grid's full size. */
  total?: number;
  selectedKeys: Selection;
  onSelectionChange: (keys: Selection) => void;
  /** Enter, a click without a selection, or a double click: the asset's details. */
  onOpen: (asset: AssetMetadata) => void;
  hasMore: boolean;
  isLoadingMore: boolean;
  onLoadMore: () => void;
  /** Writers may select (for bulk actions); readers only open. */
  canSelect: boolean;
}

/** Rows rendered above and below the view, so a scroll finds them drawn. */
const OVERSCAN_ROWS = 2;
/** The next page is asked for when the view comes this many screens from the last loaded row. */
const LOAD_AHEAD_SCREENS = 2;
/** Letters typed within this time make one name to jump to. */
const TYPEAHEAD_MS = 1000;

/**
 * The assets of a folder as a grid of cards (`AssetCardBody`), windowed: only the rows in view and a few around
 * are in the DOM (and the focused card's row), and more assets are asked for as the end comes near. A grid for
 * assistive technology: rows and cells with their indexes and the whole listing's row count, the selection as
 * `aria-selected`. One card is in the tab order; arrow keys move by card and row, Home/End to the ends,
 * PageUp/PageDown by a screen, letters to a name; Space or the checkbox selects, Shift extends (keys and
 * clicks), Ctrl/Cmd+A selects everything, Escape clears; Enter or a click without a selection opens the asset.
 * Memoised: the library's other changes (an asset's panel or a dialog opening) leave the cards alone.
 */
export const AssetGrid = memo(function AssetGrid(props: AssetCollectionProps) {
  const { assets, selectedKeys, canSelect } = props;
  const scrollerRef = useRef<HTMLDivElement>(null);
  const [size, setSize] = useState({ width: 0, height: 0 });
  const [range, setRange] = useState<[number, number]>([0, 0]);
  const [focusedKey, setFocusedKey] = useState<string | null>(null);
  const pendingFocus = useRef<string | null>(null);
  const anchor = useRef<{ key: string; base: Selection } | null>(null);
  const typed = useRef({ text: '', at: 0 });

  const g = useMemo(() => gridGeometry(size.width), [size.width]);
  const keys = useMemo(() => assets.map(assetPathOf), [assets]);
  const indexOf = useMemo(() => new Map(keys.map((k, i) => [k, i])), [keys]);
  const count = assets.length;
  const rows = Math.ceil(count / g.columns);
  const focusIndex = (focusedKey !== null ? indexOf.get(focusedKey) : undefined) ?? 0;
  const stride = g.itemHeight + CARD_GAP;
  const rowsPerPage = Math.max(1, Math.floor(size.height / stride));

  // What the handlers read: the latest render's values, so that the handlers (and so the cards) stay the same.
  const latest = useRef({ props, keys, indexOf, g, rowsPerPage, focusIndex });
  latest.current = { props, keys, indexOf, g, rowsPerPage, focusIndex };

  const measure = useCallback(() => {
    const el = scrollerRef.current;
    if (!el) return;
    const width = el.clientWidth;
    const height = el.clientHeight;
    setSize((s) => (s.width === width && s.height === height ? s : { width, height }));
    const [first, last] = rowsInView(gridGeometry(width), el.scrollTop, height, Number.MAX_SAFE_INTEGER, OVERSCAN_ROWS);
    setRange((r) => (r[0] === first && r[1] === last ? r : [first, last]));
  }, []);
  useLayoutEffect(() => {
    measure();
    const el = scrollerRef.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [measure]);

  // A card moved to with the keys is focused once it is drawn.
  useLayoutEffect(() => {
    const key = pendingFocus.current;
    if (key === null) return;
    pendingFocus.current = null;
    scrollerRef.current?.querySelector<HTMLElement>(`[data-path="${CSS.escape(key)}"]`)?.focus({ preventScroll: true });
  });

  const { hasMore, isLoadingMore, onLoadMore } = props;
  useEffect(() => {
    if (hasMore && !isLoadingMore && range[1] >= rows - 1 - LOAD_AHEAD_SCREENS * rowsPerPage) onLoadMore();
  }, [hasMore, isLoadingMore, onLoadMore, range, rows, rowsPerPage]);

  const handlers = useMemo(() => {
    const select = (next: Selection) => latest.current.props.onSelectionChange(next);
    const toggle = (index: number) => {
      const { props: p, keys: k } = latest.current;
      const next = toggledSelection(p.selectedKeys, k[index]!, k);
      anchor.current = { key: k[index]!, base: next };
      select(next);
    };
    const extend = (from: number, to: number) => {
      const { props: p, keys: k, indexOf: at } = latest.current;
      const start = anchor.current ? at.get(anchor.current.key) : undefined;
      if (start === undefined) anchor.current = { key: k[from]!, base: p.selectedKeys };
      select(rangeSelection(anchor.current!.base, k, start ?? from, to));
    };
    const moveFocus = (index: number) => {
      const { keys: k, g: geo } = latest.current;
      const el = scrollerRef.current;
      const key = k[index]!;
      if (el) {
        // The least scroll that shows the whole card.
        const top = rowTop(geo, Math.floor(index / geo.columns));
        if (top < el.scrollTop) el.scrollTop = top - CARD_GAP;
        else if (top + geo.itemHeight > el.scrollTop + el.clientHeight)
          el.scrollTop = top + geo.itemHeight + CARD_GAP - el.clientHeight;
      }
      pendingFocus.current = key;
      setFocusedKey(key);
      // Already drawn (and so not rendered again): focus it now.
      const card = el?.querySelector<HTMLElement>(`[data-path="${CSS.escape(key)}"]`);
      if (card) {
        pendingFocus.current = null;
        card.focus({ preventScroll: true });
      }
    };
    const cardOf = (target: EventTarget) => (target as Element).closest?.<HTMLElement>('[data-index]') ?? null;
    const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
      const card = cardOf(e.target);
      if (!card) return;
      const { props: p, keys: k, g: geo, rowsPerPage: page } = latest.current;
      const from = Number(card.dataset.index);
      const mod = e.ctrlKey || e.metaKey;
      if (e.key === 'Enter') {
        e.preventDefault();
        const asset = p.assets[from];
        if (asset) p.onOpen(asset);
      } else if (e.key === ' ') {
        e.preventDefault();
        if (p.canSelect) toggle(from);
      } else if (mod && e.key.toLowerCase() === 'a') {
        if (!p.canSelect) return;
        e.preventDefault();
        select('all');
      } else if (e.key === 'Escape') {
        if (isEmptySelection(p.selectedKeys)) return;
        e.preventDefault();
        e.stopPropagation();
        anchor.current = null;
        select(new Set());
      } else if (e.key.length === 1 && !mod && !e.altKey) {
        // Typing a name moves to the next card whose name starts with what was typed.
        const now = e.timeStamp;
        const t = typed.current;
        t.text = (now - t.at > TYPEAHEAD_MS ? '' : t.text) + e.key.toLowerCase();
        t.at = now;
        for (let n = t.text.length === 1 ? 1 : 0; n < k.length; n++) {
          const i = (from + n) % k.length;
          if (p.assets[i]!.name.toLowerCase().startsWith(t.text)) {
            moveFocus(i);
            break;
          }
        }
      } else {
        const to = cardAfterKey(e.key, from, k.length, geo.columns, page);
        if (to === null) return;
        e.preventDefault();
        if (e.shiftKey && p.canSelect) extend(from, to);
        else if (!e.shiftKey) anchor.current = null;
        moveFocus(to);
      }
    };
    const onClick = (e: MouseEvent<HTMLDivElement>) => {
      const card = cardOf(e.target);
      // The checkbox speaks for itself (its change event), and its label's click arrives twice.
      if (!card || (e.target as Element).closest('.asset-card__check')) return;
      const { props: p } = latest.current;
      const index = Number(card.dataset.index);
      if (p.canSelect && e.shiftKey) extend(latest.current.focusIndex, index);
      else if (p.canSelect && (e.ctrlKey || e.metaKey || !isEmptySelection(p.selectedKeys))) toggle(index);
      else {
        const asset = p.assets[index];
        if (asset) p.onOpen(asset);
      }
    };
    const onDoubleClick = (e: MouseEvent<HTMLDivElement>) => {
      const card = cardOf(e.target);
      const { props: p } = latest.current;
      // Without a selection the first click opened it already.
      if (!card || (e.target as Element).closest('.asset-card__check') || isEmptySelection(p.selectedKeys)) return;
      const asset = p.assets[Number(card.dataset.index)];
      if (asset) p.onOpen(asset);
    };
    const onCheck = (e: ChangeEvent<HTMLInputElement>) => {
      const card = cardOf(e.target);
      if (!card) return;
      toggle(Number(card.dataset.index));
      card.focus({ preventScroll: true });
    };
    const onFocus = (e: FocusEvent<HTMLDivElement>) => {
      if (e.target === e.currentTarget) {
        // The grid itself (a click on its background, a script): its current card takes the focus.
        const key = latest.current.keys[latest.current.focusIndex];
        if (key !== undefined) moveFocus(latest.current.focusIndex);
        return;
      }
      const path = cardOf(e.target)?.dataset.path;
      if (path !== undefined) setFocusedKey(path);
    };
    const onScroll = () => {
      const el = scrollerRef.current;
      if (!el) return;
      const { g: geo } = latest.current;
      const [first, last] = rowsInView(geo, el.scrollTop, el.clientHeight, Number.MAX_SAFE_INTEGER, OVERSCAN_ROWS);
      setRange((r) => (r[0] === first && r[1] === last ? r : [first, last]));
    };
    return { onKeyDown, onClick, onDoubleClick, onCheck, onFocus, onScroll };
  }, []);

  const shown: number[] = [];
  if (size.width > 0) {
    for (let r = range[0]; r <= Math.min(range[1], rows - 1); r++) shown.push(r);
    const focusRow = Math.floor(focusIndex / g.columns);
    if (focusRow < rows && (focusRow < range[0] || focusRow > range[1])) shown.push(focusRow);
  }
  const loading = hasMore && isLoadingMore;
  const selecting = !isEmptySelection(selectedKeys);
  return (
    <div
      ref={scrollerRef}
      role="grid"
      aria-label={props.label}
      aria-multiselectable={canSelect || undefined}
      aria-rowcount={props.total !== undefined ? Math.ceil(props.total / g.columns) : hasMore ? -1 : rows}
      aria-colcount={g.columns}
      className={selecting ? 'library-grid library-grid--selecting' : 'library-grid'}
      tabIndex={count > 0 ? -1 : 0}
      onKeyDown={handlers.onKeyDown}
      onClick={handlers.onClick}
      onDoubleClick={handlers.onDoubleClick}
      onFocus={handlers.onFocus}
      onScroll={handlers.onScroll}
      data-keeps-focus-on-navigation=""
    >
      <div className="library-grid__content" style={{ height: contentHeight(g, rows, loading) }}>
        {shown.map((r) => (
          <div
            key={r}
            role="row"
            aria-rowindex={r + 1}
            className="library-grid__row"
            style={{
              transform: `translateY(${rowTop(g, r)}px)`,
              height: g.itemHeight,
              paddingInlineStart: g.left,
              columnGap: g.gapX,
            }}
          >
            {keys.slice(r * g.columns, Math.min(count, (r + 1) * g.columns)).map((key, c) => {
              const index = r * g.columns + c;
              return (
                <GridCard
                  key={key}
                  asset={assets[index]!}
                  index={index}
                  column={c}
                  width={g.itemWidth}
                  selected={isSelectedIn(selectedKeys, key)}
                  tabbable={index === focusIndex}
                  canSelect={canSelect}
                  onCheck={handlers.onCheck}
                />
              );
            })}
          </div>
        ))}
        {loading && (
          <div
            role="row"
            aria-rowindex={rows + 1}
            className="library-grid__row"
            style={{ transform: `translateY(${contentHeight(g, rows, false)}px)`, height: LOADER_HEIGHT }}
          >
            <div role="gridcell" className="library-more">
              <Spinner /> <span>Loading more…</span>
            </div>
          </div>
        )}
      </div>
    </div>
  );
});

/** One card: a cell of the grid, named for readers by `assetCardLabel`; a checkbox over it where one may select. */
const GridCard = memo(function GridCard({
  asset,
  index,
  column,
  width,
  selected,
  tabbable,
  canSelect,
  onCheck,
}: {
  asset: AssetMetadata;
  index: number;
  column: number;
  width: number;
  selected: boolean;
  tabbable: boolean;
  canSelect: boolean;
  onCheck: (e: ChangeEvent<HTMLInputElement>) => void;
}) {
  return (
    <div
      role="gridcell"
      aria-colindex={column + 1}
      aria-selected={canSelect ? selected : undefined}
      aria-label={assetCardLabel(asset)}
      tabIndex={tabbable ? 0 : -1}
      className="asset-card"
      style={{ width }}
      data-path={assetPathOf(asset)}
      data-index={index}
      data-selected={selected || undefined}
    >
      <AssetCardBody
        asset={asset}
        check={
          canSelect && (
            // Not a stop of its own for the focus (the card is; Space selects): a click keeps it on the card.
            <label className="checkbox asset-card__check" data-selected={selected || undefined} onMouseDown={keepFocus}>
              <input
                type="checkbox"
                className="visually-hidden"
                tabIndex={-1}
                checked={selected}
                onChange={onCheck}
                aria-label={`Select ${asset.name}`}
              />
              <span className="checkbox__box" aria-hidden="true">
                {selected && <CheckIcon />}
              </span>
            </label>
          )
        }
      />
    </div>
  );
});

const keepFocus = (e: MouseEvent) => e.preventDefault();
