import { useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import { DropIndicator, useDragAndDrop, type DropTarget } from 'react-aria-components';
import { isNavigationEntry, labelOf, moveRefusal, parentPathOf, type ExplorerItem } from '../../../lib/tree/items';
import type { BuiltTree, TreeNode } from '../../../lib/tree/tree-nodes';
import { useMoveItem } from '../api/move-item';
import { useReorderEntries } from '../api/reorder-entries';
import { navigationOrderOf } from '../api/undo';
import { parentItemOf, useExplorer } from './explorer-context';
import { useUndoToasts } from './use-undo-toasts';

/** Drag type of tree items (other drags — files from the desktop — are refused). */
const DRAG_TYPE = 'application/x-folio-item-path';

/**
 * Drag and drop in the tree: dropped on a container ('on'), items move into it; dropped between two rows
 * ('before'/'after'), sections and links are reordered within their site or section. Each change offers Undo.
 */
export function useTreeDragAndDrop({
  built,
  isDisabled,
  mayChangeItem,
}: {
  built: BuiltTree;
  isDisabled: boolean;
  mayChangeItem: (item: ExplorerItem) => boolean;
}) {
  const explorer = useExplorer();
  const queryClient = useQueryClient();
  const move = useMoveItem();
  const reorder = useReorderEntries();
  const undoToasts = useUndoToasts();
  const dragged = useRef<string[]>([]);

  const draggedItems = () =>
    dragged.current.map((p) => built.byPath.get(p)?.item).filter((i): i is ExplorerItem => i !== undefined);

  const dropAllowed = (target: DropTarget): boolean => {
    if (target.type !== 'item') return false;
    const targetNode = built.byPath.get(String(target.key));
    const items = draggedItems();
    if (!targetNode || items.length === 0) return false;
    if (target.dropPosition === 'on') {
      return (
        mayChangeItem(targetNode.item) &&
        items.every((i) => mayChangeItem(i) && moveRefusal(i, targetNode.item) === null)
      );
    }
    // Between two rows: only a reorder of sections and links within their site or section.
    const parent = parentPathOf(targetNode.id);
    return (
      parent !== null &&
      isNavigationEntry(targetNode.item.kind) &&
      mayChangeItem(parentItemOf(targetNode.item)) &&
      items.every((i) => isNavigationEntry(i.kind) && parentPathOf(i.path) === parent)
    );
  };

  const moveInto = (items: ExplorerItem[], targetNode: TreeNode) => {
    for (const item of items) {
      const orderBefore = navigationOrderOf(queryClient, parentPathOf(item.path));
      move.mutate(
        { item, target: targetNode.item },
        {
          onSuccess: (moved) => {
            explorer.itemMoved(item.path, moved);
            undoToasts.moved(item, moved, targetNode.item, orderBefore);
          },
        },
      );
    }
  };

  const reorderBeside = (items: ExplorerItem[], targetNode: TreeNode, after: boolean) => {
    const parentPath = parentPathOf(targetNode.id)!;
    const siblings = built.byPath.get(parentPath)?.children ?? [];
    const names = siblings.filter((n) => isNavigationEntry(n.item.kind)).map((n) => n.item.name);
    const moving = new Set(items.map((i) => i.name));
    const rest = names.filter((n) => !moving.has(n));
    const at = rest.indexOf(targetNode.item.name) + (after ? 1 : 0);
    const order = [...rest.slice(0, at), ...items.map((i) => i.name), ...rest.slice(at)];
    reorder.mutate(
      { parent: parentItemOf(targetNode.item), order },
      {
        onSuccess: () =>
          undoToasts.reordered(
            parentPath,
            names,
            `Moved “${labelOf(items[0]!)}” in the navigation of “${labelOf(built.byPath.get(parentPath)?.item ?? parentItemOf(targetNode.item))}”`,
          ),
      },
    );
  };

  const { dragAndDropHooks } = useDragAndDrop<TreeNode>({
    isDisabled,
    getItems: (keys) => [...keys].map((key) => ({ [DRAG_TYPE]: String(key), 'text/plain': String(key) })),
    getAllowedDropOperations: () => ['move'],
    onDragStart: (e) => {
      dragged.current = [...e.keys].map(String);
    },
    onDragEnd: () => {
      dragged.current = [];
    },
    getDropOperation: (target, types) => (types.has(DRAG_TYPE) && dropAllowed(target) ? 'move' : 'cancel'),
    renderDragPreview: (items) => (
      <div className="xtree-drag-preview">{items[0]?.['text/plain']?.split('/').pop() ?? ''}</div>
    ),
    renderDropIndicator: (target) => <DropIndicator target={target} className="xtree-drop-indicator" />,
    onMove: (e) => {
      const items = draggedItems();
      if (e.target.type !== 'item' || items.length === 0) return;
      const targetNode = built.byPath.get(String(e.target.key));
      if (!targetNode || !dropAllowed(e.target)) return;
      if (e.target.dropPosition === 'on') moveInto(items, targetNode);
      else reorderBeside(items, targetNode, e.target.dropPosition === 'after');
    },
  });
  return dragAndDropHooks;
}
