import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { FormDialog } from '../../../components/ui/dialog';
import { useMoveItem } from '../api/move-item';
import { canChange } from '../lib/access';
import {
  isContainer,
  isInLibrary,
  KIND_LABEL,
  labelOf,
  moveRefusal,
  parentPathOf,
  type ExplorerItem,
} from '../../../lib/tree/items';
import { ContainerPicker } from '../../../components/tree/container-picker';
import { useExplorer } from './explorer-context';
import { useUndoToasts } from './use-undo-toasts';
import { navigationOrderOf } from '../api/undo';

/**
 * "Move to…": the keyboard equivalent of dragging an item onto a container. The tree shows the containers; a
 * target that cannot take the item (itself, something inside it, a kind it cannot hold) is refused with the reason
 * before anything is sent.
 */
export function MoveItemDialog({ item, onClose }: { item: ExplorerItem; onClose: () => void }) {
  const explorer = useExplorer();
  const queryClient = useQueryClient();
  const move = useMoveItem();
  const undoToasts = useUndoToasts();
  const [target, setTarget] = useState<ExplorerItem | null>(null);
  const refusal = target
    ? (moveRefusal(item, target) ??
      (canChange(queryClient, explorer.role, target) ? null : `You may not change “${target.name}”.`))
    : null;

  return (
    <FormDialog
      isOpen
      onOpenChange={(open) => !open && onClose()}
      title={`Move ${KIND_LABEL[item.kind]} “${labelOf(item)}”`}
      description={
        isContainer(item.kind)
          ? `Choose where the ${KIND_LABEL[item.kind]} goes. Everything inside it moves with it.`
          : `Choose where the ${KIND_LABEL[item.kind]} goes.`
      }
      submitLabel="Move here"
      isPending={move.isPending}
      isSubmitDisabled={target === null || refusal !== null}
      error={move.error ?? undefined}
      onSubmit={() => {
        if (!target || refusal) return;
        const orderBefore = navigationOrderOf(queryClient, parentPathOf(item.path));
        move.mutate(
          { item, target },
          {
            onSuccess: (moved) => {
              undoToasts.moved(item, moved, target, orderBefore);
              onClose();
              explorer.itemMoved(item.path, moved);
              explorer.focusInTree(moved.path);
            },
          },
        );
      }}
    >
      <ContainerPicker
        label="Move to"
        realm={isInLibrary(item.path) ? 'library' : 'sites'}
        keep={(i) => isContainer(i.kind) && i.path !== item.path}
        selectedPath={target?.path ?? null}
        onSelect={setTarget}
        initiallyExpanded={parentPathOf(item.path) ?? undefined}
        autoFocus
      />
      <p className={refusal ? 'field__error' : 'field__description'} role="status">
        {target === null
          ? `Now in “${parentPathOf(item.path) ?? ''}”. Choose ${isInLibrary(item.path) ? 'a folder' : 'a site, section or folder'} with the arrow keys and Enter.`
          : (refusal ?? `“${labelOf(item)}” goes into “${target.path}”.`)}
      </p>
    </FormDialog>
  );
}
