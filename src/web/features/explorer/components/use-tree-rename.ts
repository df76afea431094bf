import { useEffect, useState } from 'react';
import { parentPathOf, type ExplorerItem } from '../../../lib/tree/items';
import type { BuiltTree } from '../../../lib/tree/tree-nodes';
import { useRenameItem } from '../api/rename-item';
import { useExplorer } from './explorer-context';
import { useUndoToasts } from './use-undo-toasts';

/**
 * Inline rename in the tree (F2 in the tree, or from the item's screen when its row is there): which row shows
 * the name field, and what Enter and Escape do. The focus returns to the row, under its new name once saved.
 */
export function useTreeRename(built: BuiltTree, focusRow: (path: string) => void) {
  const explorer = useExplorer();
  const rename = useRenameItem();
  const undoToasts = useUndoToasts();
  const [renaming, setRenaming] = useState<string | null>(null);

  const { registerInlineRename } = explorer;
  useEffect(() => {
    registerInlineRename((item) => {
      if (!built.byPath.has(item.path)) return false;
      setRenaming(item.path);
      return true;
    });
    return () => registerInlineRename(null);
  });

  const commit = (item: ExplorerItem, newName: string) => {
    setRenaming(null);
    if (newName === item.name) {
      focusRow(item.path);
      return;
    }
    focusRow(`${parentPathOf(item.path) ?? ''}${parentPathOf(item.path) === null ? '' : '/'}${newName}`);
    rename.mutate(
      { item, newName },
      {
        onSuccess: (renamed) => {
          explorer.itemMoved(item.path, renamed);
          undoToasts.renamed(item, renamed);
        },
        onError: () => focusRow(item.path),
      },
    );
  };

  return {
    /** The path of the row showing the name field, if any. */
    renaming,
    start: (path: string) => setRenaming(path),
    commit,
    cancel: (path: string) => {
      setRenaming(null);
      focusRow(path);
    },
  };
}
