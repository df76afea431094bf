import type { Key, Selection } from 'react-aria-components';

/** True when `key` is in the selection (`'all'`: everything the listing matches). */
export function isSelectedIn(selection: Selection, key: Key): boolean {
  return selection === 'all' || selection.has(key);
}

/** True when nothing is selected. */
export function isEmptySelection(selection: Selection): boolean {
  return selection !== 'all' && selection.size === 0;
}

/** The selection with `key` added or taken out (out of `'all'`: every loaded key but it). */
export function toggledSelection(selection: Selection, key: Key, loadedKeys: readonly Key[]): Set<Key> {
  const next = new Set(selection === 'all' ? loadedKeys : selection);
  if (!next.delete(key)) next.add(key);
  return next;
}

/** `base` and every key from `from` to `to` (either order) in `keys`. */
export function rangeSelection(base: Selection, keys: readonly Key[], from: number, to: number): Set<Key> {
  const next = new Set(base === 'all' ? keys : base);
  for (let i = Math.min(from, to); i <= Math.max(from, to); i++) next.add(keys[i]!);
  return next;
}
