import type { KeyboardEvent, RefObject } from 'react';
import type { TreeState } from 'react-aria-components';
import type { ExplorerItem } from '../../../lib/tree/items';
import type { BuiltTree } from '../../../lib/tree/tree-nodes';
import type { useItemCommands } from './use-item-commands';

/**
 * The tree's own keys, caught before react-aria's: F2 renames, the Menu key or Shift+F10 opens the menu, Delete
 * deletes, Alt+↑/↓ reorders, and → on an open item moves to its first child. Answers the capture handler.
 */
export function useTreeKeyboard({
  built,
  commands,
  stateRef,
  onRename,
  onMenu,
  expectRemoval,
}: {
  built: BuiltTree;
  commands: ReturnType<typeof useItemCommands>;
  stateRef: RefObject<TreeState<unknown> | null>;
  onRename: (path: string) => void;
  onMenu: (item: ExplorerItem, row: Element) => void;
  expectRemoval: (path: string) => void;
}) {
  return (event: KeyboardEvent<HTMLDivElement>) => {
    const row = event.target instanceof HTMLElement ? event.target : null;
    const path = row?.dataset.path;
    if (!row || path === undefined) return;
    const node = built.byPath.get(path);
    if (!node) return;
    const stop = () => {
      event.preventDefault();
      event.stopPropagation();
    };
    const item = node.item;
    if (event.key === 'F2') {
      stop();
      if (commands.actionsOf(item).some((a) => a.id === 'rename')) onRename(path);
    } else if (event.key === 'ContextMenu' || (event.key === 'F10' && event.shiftKey)) {
      stop();
      onMenu(item, row);
    } else if (event.key === 'Delete') {
      stop();
      if (commands.actionsOf(item).some((a) => a.id === 'delete')) {
        expectRemoval(path);
        commands.perform(item, 'delete');
      }
    } else if (event.altKey && (event.key === 'ArrowUp' || event.key === 'ArrowDown')) {
      stop();
      const id = event.key === 'ArrowUp' ? 'move-up' : 'move-down';
      const action = commands.actionsOf(item).find((a) => a.id === id);
      if (action && !action.isDisabled) commands.perform(item, id);
    } else if (event.key === 'ArrowRight' && !event.altKey && node.children.length > 0) {
      // WAI-ARIA tree: Right on an open item moves to its first child (react-aria's treegrid does not).
      const state = stateRef.current;
      if (state?.expandedKeys.has(path)) {
        stop();
        state.selectionManager.setFocusedKey(node.children[0]!.id);
      }
    }
  };
}
