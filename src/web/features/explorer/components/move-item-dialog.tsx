import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { FormDialog } from '../../../components/ui/dialog';
import { toast } from '../../../components/ui/toast';
import { useMoveItem } from '../api/move-item';
import { canChange } from '../lib/access';
import {
  isContainer,
  isInLibrary,
  KIND_LABEL,
  moveRefusal,
  parentPathOf,
  type ExplorerItem,
} from '../../../lib/tree/items';
import { ContainerPicker } from '../../../components/tree/container-picker';
import { useExplorer } from './explorer-context';

/**
 * "Move to…": the keyboard equivalent of dragging an item onto a container. The tree shows the containers; a
 * target that cannot take the item (itself, something inside it, a kind it cannot hold) is refused with the reason
 * before anything is sent.
 */
export function MoveItemDialog({ item, onClose }: { item: ExplorerItem; onClose: () => void }) {
  const explorer = useExplorer();
  const queryClient = useQueryClient();
  const move = useMoveItem();
  const [target, setTarget] = useState<ExplorerItem | null>(null);
  const refusal = target
    ? (moveRefusal(item, target) ??
      (canChange(queryClient, explorer.role, target) ? null : `You may not change “${target.name}”.`))
    : null;

  return (
    <FormDialog
      isOpen
      onOpenChange={(open) => !open && onClose()}
      title={`Move ${KIND_LABEL[item.kind]} “${item.name}”`}
      description="Choose where it goes. Everything inside it moves with it."
      submitLabel="Move here"
      isPending={move.isPending}
      isSubmitDisabled={target === null || refusal !== null}
      error={move.error ?? undefined}
      onSubmit={() => {
        if (!target || refusal) return;
        move.mutate(
          { item, target },
          {
            onSuccess: (moved) => {
              toast.success(`Moved “${item.name}” into “${target.name}”`);
              onClose();
              explorer.itemMoved(item.path, moved);
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
      />
      <p className={refusal ? 'field__error' : 'field__description'} role="status">
        {target === null
          ? `Now in “${parentPathOf(item.path) ?? ''}”. Choose a site, section or folder.`
          : (refusal ?? `“${item.name}” goes into “${target.path}”.`)}
      </p>
    </FormDialog>
  );
}
