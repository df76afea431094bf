import { useState } from 'react';
import { isApiError } from '../../../../shared/api/client';
import { ItemName } from '../../../../shared/api/common';
import { FormDialog } from '../../../components/ui/dialog';
import { TextField } from '../../../components/ui/text-field';
import { allFieldErrorsPlaced, fieldErrorsOf } from '../../../lib/errors';
import { validateWith } from '../../../lib/validation';
import { useRenameItem } from '../api/rename-item';
import { KIND_LABEL, type ExplorerItem } from '../../../lib/tree/items';
import { useExplorer } from './explorer-context';
import { useUndoToasts } from './use-undo-toasts';

const FIELDS = { 'body.newName': 'name' };

/** Renames an item (the screens' "Rename…"; the tree renames inline with F2). */
export function RenameItemDialog({ item, onClose }: { item: ExplorerItem; onClose: () => void }) {
  const explorer = useExplorer();
  const rename = useRenameItem();
  const undoToasts = useUndoToasts();
  const [name, setName] = useState(item.name);
  const error = rename.error;
  return (
    <FormDialog
      isOpen
      onOpenChange={(open) => !open && onClose()}
      title={`Rename ${KIND_LABEL[item.kind]} “${item.name}”`}
      description="The name is part of the address of the item and of everything inside it."
      submitLabel="Rename"
      isPending={rename.isPending}
      validationErrors={fieldErrorsOf(error, FIELDS, { name: 'The name' })}
      error={error && !(isApiError(error) && allFieldErrorsPlaced(error, FIELDS)) ? error : undefined}
      onSubmit={() => {
        if (name === item.name) {
          onClose();
          return;
        }
        rename.mutate(
          { item, newName: name },
          {
            onSuccess: (renamed) => {
              undoToasts.renamed(item, renamed);
              onClose();
              explorer.itemMoved(item.path, renamed);
            },
          },
        );
      }}
    >
      <TextField
        label="Name"
        name="name"
        value={name}
        onChange={setName}
        isRequired
        autoFocus
        autoComplete="off"
        spellCheck="false"
        autoCapitalize="none"
        maxLength={255}
        validate={validateWith(ItemName, 'The name')}
      />
    </FormDialog>
  );
}
