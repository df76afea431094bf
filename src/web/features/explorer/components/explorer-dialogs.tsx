import { RejectDialog } from '../../../kit/workflow/reject-dialog';
import type { ExplorerItem } from '../../../lib/tree/items';
import { useTakePageTransition } from '../api/page-transition';
import { CreateItemDialog } from './create-item-dialog';
import { DeleteItemDialog } from './delete-item-dialog';
import { useExplorer, type ExplorerCommand } from './explorer-context';
import { MoveItemDialog } from './move-item-dialog';
import { RenameItemDialog } from './rename-item-dialog';
import './explorer.css';

/** The dialog of an explorer command (loaded on first use). */
export function ExplorerDialogs({ command, onClose }: { command: ExplorerCommand; onClose: () => void }) {
  switch (command.type) {
    case 'create':
      return <CreateItemDialog kind={command.kind} parent={command.parent} onClose={onClose} />;
    case 'delete':
      return <DeleteItemDialog item={command.item} onClose={onClose} />;
    case 'move':
      return <MoveItemDialog item={command.item} onClose={onClose} />;
    case 'reject':
      return <RejectPageDialog item={command.item} onClose={onClose} />;
    case 'rename':
      return <RenameItemDialog item={command.item} onClose={onClose} />;
  }
}

/** Reject from a page's menu: asks why, then takes it with the reason. */
function RejectPageDialog({ item, onClose }: { item: ExplorerItem; onClose: () => void }) {
  const takeTransition = useTakePageTransition();
  return (
    <RejectDialog
      isOpen
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      onReject={(reason) => {
        takeTransition.mutate({ item, name: 'Reject', comment: reason });
        onClose();
      }}
    />
  );
}

export default ExplorerDialogs;

/** The open dialog of the explorer around it (for tests and hosts that load the dialogs up front). */
export function ExplorerDialogHost() {
  const { command, closeCommand } = useExplorer();
  return command ? <ExplorerDialogs command={command} onClose={closeCommand} /> : null;
}
