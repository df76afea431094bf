import { useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { toast } from '../../../components/ui/toast';
import { useApi } from '../../../lib/api';
import { errorMessage } from '../../../lib/errors';
import { KIND_LABEL, labelOf, parentPathOf, type ExplorerItem } from '../../../lib/tree/items';
import { restoreNavigationOrder, undoDelete, undoMove, undoRename } from '../api/undo';
import { refreshContainer } from '../api/tree-cache';
import { useExplorer } from './explorer-context';

const UNDO = 'Undo';

/**
 * The toasts after a move, reorder, rename or delete, each with an Undo that restores what was there for as long
 * as the toast shows (a deleted item from the trash).
 */
export function useUndoToasts() {
  const client = useApi();
  const queryClient = useQueryClient();
  const { itemMoved, reveal } = useExplorer();

  return useMemo(() => {
    /** Runs an undo; a failure is said in a toast of its own (the change stays as it is). */
    const run = (what: string, undo: () => Promise<void>) => () => {
      undo().catch((error: unknown) => toast.error(`Could not undo the ${what}`, errorMessage(error)));
    };

    return {
      /** After a rename: Undo gives the item its old name back (same id). */
      renamed(original: ExplorerItem, renamed: ExplorerItem) {
        toast.success(`Renamed “${original.name}” to “${renamed.name}”`, undefined, {
          label: UNDO,
          onAction: run('rename', async () => {
            const back = await undoRename(client, queryClient, original, renamed);
            itemMoved(renamed.path, back);
            toast.success(`Renamed “${renamed.name}” back to “${back.name}”`);
          }),
        });
      },

      /** After a move: Undo moves the item back to where it was (same id, same place in the navigation). */
      moved(original: ExplorerItem, moved: ExplorerItem, target: ExplorerItem, orderBefore: string[] | undefined) {
        const from = parentPathOf(original.path) ?? '';
        toast.success(`Moved “${labelOf(original)}” into “${labelOf(target)}”`, `It was in “${from}”.`, {
          label: UNDO,
          onAction: run('move', async () => {
            const back = await undoMove(client, queryClient, original, moved, orderBefore);
            itemMoved(moved.path, back);
            toast.success(`Moved “${labelOf(original)}” back to “${from}”`);
          }),
        });
      },

      /** After a reorder of a site's or section's navigation: Undo puts the previous order back. */
      reordered(parentPath: string, orderBefore: string[], title: string, description?: string) {
        toast.success(title, description, {
          label: UNDO,
          onAction: run('reorder', async () => {
            try {
              await restoreNavigationOrder(client, queryClient, parentPath, orderBefore);
            } finally {
              await refreshContainer(queryClient, parentPath);
            }
            toast.success('Navigation order restored', `“${parentPath}” has its previous order again.`);
          }),
        });
      },

      /** After a delete: the item is in the trash, and Undo puts it back where it was. */
      deleted(item: ExplorerItem, trashId: string | undefined) {
        const what = `${KIND_LABEL[item.kind]} “${labelOf(item)}”`;
        if (trashId === undefined) {
          toast.success(`Deleted ${what}`);
          return;
        }
        toast.success(`Deleted ${what}`, 'It is in the trash: Undo puts it back where it was.', {
          label: UNDO,
          onAction: run('delete', async () => {
            await undoDelete(client, queryClient, item, trashId);
            reveal(item.path);
            toast.success(`Brought back ${what}`);
          }),
        });
      },
    };
  }, [client, queryClient, itemMoved, reveal]);
}
