import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { TransitionName, TransitionsResponse } from '../../../../shared/api/workflow';
import { pagesKeys } from '../../../lib/query-keys';
import { useTakePageTransition } from '../api/page-transition';
import { useCallback } from 'react';
import { useReorderEntries, movedBy } from '../api/reorder-entries';
import { cachedFolder } from '../api/tree-cache';
import { canChange } from '../lib/access';
import { isNavigationEntry, labelOf, parentPathOf, type ExplorerItem } from '../../../lib/tree/items';
import { actionsFor, type ActionEntry, type ItemAction } from '../lib/item-actions';
import { parentItemOf, useExplorer, type CreatableKind } from './explorer-context';
import { useUndoToasts } from './use-undo-toasts';

/** Where a section or link stands among its container's navigation entries (from the cached listing). */
export function navigationPosition(
  queryClient: QueryClient,
  item: ExplorerItem,
): { index: number; count: number } | undefined {
  const parent = parentPathOf(item.path);
  if (parent === null || !isNavigationEntry(item.kind)) return undefined;
  const entries = cachedFolder(queryClient, parent)?.data.subsections;
  if (!entries) return undefined;
  const index = entries.findIndex((e) => e.name === item.name);
  return index < 0 ? undefined : { index, count: entries.length };
}

/**
 * The actions of items and how to perform them, shared by the tree (context menu, "…" button, shortcuts) and the
 * screens (toolbar buttons).
 */
export function useItemCommands() {
  const explorer = useExplorer();
  const queryClient = useQueryClient();
  const reorder = useReorderEntries();
  const undoToasts = useUndoToasts();
  const takeTransition = useTakePageTransition();

  const actionsOf = useCallback(
    (item: ExplorerItem, options: { withoutOpen?: boolean } = {}): ActionEntry[] => {
      const parent = parentPathOf(item.path);
      return actionsFor(item, {
        canChange: canChange(queryClient, explorer.role, item),
        canChangeParent: parent !== null && canChange(queryClient, explorer.role, parentItemOf(item)),
        canManageSites: explorer.role === 'Admin',
        navigation: navigationPosition(queryClient, item),
        withoutOpen: options.withoutOpen,
        transitions:
          item.kind === 'page'
            ? queryClient.getQueryData<TransitionsResponse>(pagesKeys.transitions(item.path))?.transitions
            : undefined,
      });
    },
    [queryClient, explorer.role],
  );

  const moveBy = useCallback(
    (item: ExplorerItem, delta: number) => {
      const parentPath = parentPathOf(item.path);
      const entries = parentPath === null ? undefined : cachedFolder(queryClient, parentPath)?.data.subsections;
      if (parentPath === null || !entries) return;
      const order = movedBy(entries, item.name, delta);
      const before = entries.map((e) => e.name);
      if (order.join('/') === before.join('/')) return;
      reorder.mutate(
        { parent: parentItemOf(item), order },
        {
          onSuccess: () =>
            undoToasts.reordered(
              parentPath,
              before,
              `Moved “${labelOf(item)}” ${delta < 0 ? 'up' : 'down'}`,
              `It is now number ${order.indexOf(item.name) + 1} of ${order.length} in the navigation.`,
            ),
        },
      );
    },
    [queryClient, reorder, undoToasts],
  );

  const perform = useCallback(
    (item: ExplorerItem, action: ItemAction, options: { inline?: boolean } = {}) => {
      switch (action) {
        case 'open':
          explorer.open(item);
          return;
        case 'rename':
          if (!options.inline || !explorer.requestInlineRename(item)) explorer.run({ type: 'rename', item });
          return;
        case 'move':
          explorer.run({ type: 'move', item });
          return;
        case 'move-up':
          moveBy(item, -1);
          return;
        case 'move-down':
          moveBy(item, 1);
          return;
        case 'delete':
          explorer.run({ type: 'delete', item });
          return;
        default:
          if (action === 'transition-Reject') {
            explorer.run({ type: 'reject', item });
            return;
          }
          if (action.startsWith('transition-')) {
            takeTransition.mutate({ item, name: action.slice('transition-'.length) as TransitionName });
            return;
          }
          explorer.run({ type: 'create', kind: action.slice('new-'.length) as CreatableKind, parent: item });
      }
    },
    [explorer, moveBy, takeTransition],
  );

  return { actionsOf, perform, isReordering: reorder.isPending };
}
