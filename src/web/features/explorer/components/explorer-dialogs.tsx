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
    case 'rename':
      return <RenameItemDialog item={command.item} onClose={onClose} />;
  }
}

export default ExplorerDialogs;

/** The open dialog of the explorer around it (for tests and hosts that load the dialogs up front). */
export function ExplorerDialogHost() {
  const { command, closeCommand } = useExplorer();
  return command ? <ExplorerDialogs command={command} onClose={closeCommand} /> : null;
}
