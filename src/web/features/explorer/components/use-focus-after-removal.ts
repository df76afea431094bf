import { useCallback, useEffect, useRef } from 'react';
import type { BuiltTree } from '../../../lib/tree/tree-nodes';
import { parentPathOf } from '../../../lib/tree/items';
import { focusWhenDropped } from '../../../lib/focus-later';

/** The row that takes the focus when `path` leaves the tree: its next sibling, else the previous one, else its parent. */
export function neighbourOf(built: BuiltTree, path: string): string | null {
  const parent = parentPathOf(path);
  const siblings = parent === null ? built.nodes : (built.byPath.get(parent)?.children ?? []);
  const at = siblings.findIndex((n) => n.id === path);
  if (at === -1) return parent;
  return siblings[at + 1]?.id ?? siblings[at - 1]?.id ?? parent;
}

/**
 * Keeps the focus in the tree when a row is deleted from it: `expectRemoval(path)` notes the row's neighbour as the
 * delete starts; once the row is gone and the focus has dropped to the page (the deleted row was the dialog's
 * trigger), the neighbour is focused. A focus that went anywhere else is left where it is.
 */
export function useFocusAfterRemoval(built: BuiltTree, findRow: (path: string) => HTMLElement | null | undefined) {
  const latest = useRef(built);
  latest.current = built;
  const pending = useRef<{ path: string; neighbour: string | null } | null>(null);

  useEffect(() => {
    const removal = pending.current;
    if (!removal || built.byPath.has(removal.path)) return;
    pending.current = null;
    const { neighbour } = removal;
    if (neighbour === null) return;
    // Not cancelled by the next render: the tree re-renders while the listing settles, the focus is still owed.
    focusWhenDropped(() => findRow(neighbour));
  }, [built, findRow]);

  return useCallback((path: string) => {
    pending.current = { path, neighbour: neighbourOf(latest.current, path) };
  }, []);
}
