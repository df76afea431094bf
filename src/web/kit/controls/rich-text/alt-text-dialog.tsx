import type { Editor } from '@tiptap/react';
import { useState } from 'react';
import { FormDialog } from '../../../components/ui/dialog';
import { TextField } from '../../../components/ui/text-field';

/** The selected image's alternative text (it starts as the asset's own). */
export function AltTextDialog({ editor, onClose }: { editor: Editor; onClose: () => void }) {
  const [alt, setAlt] = useState((editor.getAttributes('image').alt as string | null) ?? '');
  const close = () => {
    onClose();
    editor.commands.focus();
  };
  return (
    <FormDialog
      isOpen
      onOpenChange={(open) => !open && close()}
      title="Alternative text"
      description="Describes the image for people who cannot see it. Leave it empty only for a decorative image."
      submitLabel="Save"
      onSubmit={() => {
        editor.chain().focus().updateAttributes('image', { alt }).run();
        onClose();
      }}
    >
      <TextField label="Alternative text" value={alt} onChange={setAlt} autoFocus />
    </FormDialog>
  );
}
