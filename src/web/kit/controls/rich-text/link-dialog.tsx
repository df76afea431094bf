import { TextSelection } from '@tiptap/pm/state';
import type { Editor } from '@tiptap/react';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Checkbox } from '../../../components/ui/checkbox';
import { FormDialog } from '../../../components/ui/dialog';
import { TextField } from '../../../components/ui/text-field';
import { checkLinkUrl } from './link-url';

/** Add, edit or remove the link at the selection: the address is checked; "open in a new tab" sets target and rel. */
export function LinkDialog({ editor, onClose }: { editor: Editor; onClose: () => void }) {
  const current = editor.getAttributes('link') as { href?: string; target?: string | null };
  const isEditing = Boolean(current.href);
  const [url, setUrl] = useState(current.href ?? '');
  const [newTab, setNewTab] = useState(current.target === '_blank');
  const [touched, setTouched] = useState(false);
  const check = checkLinkUrl(url);
  const emptySelection = editor.state.selection.empty && !isEditing;

  const close = () => {
    onClose();
    editor.commands.focus();
  };
  const apply = () => {
    setTouched(true);
    if (!check.ok) return;
    const attrs = { href: check.url, target: newTab ? '_blank' : null, rel: newTab ? 'noopener noreferrer' : null };
    const c = editor.chain().focus();
    if (emptySelection) c.insertContent({ type: 'text', text: check.url, marks: [{ type: 'link', attrs }] });
    else c.extendMarkRange('link').setLink(attrs);
    // The cursor goes after the link, and what is typed next is not part of it (links are inclusive for autolink).
    c.command(({ tr }) => {
      tr.setSelection(TextSelection.create(tr.doc, tr.selection.to));
      const link = tr.doc.type.schema.marks.link;
      tr.setStoredMarks(tr.selection.$from.marks().filter((m) => m.type !== link));
      return true;
    }).run();
    onClose();
  };
  return (
    <FormDialog
      isOpen
      onOpenChange={(open) => !open && close()}
      title={isEditing ? 'Edit link' : 'Add a link'}
      description={emptySelection ? 'Nothing is selected: the address is inserted as the link’s text.' : undefined}
      submitLabel={isEditing ? 'Save link' : 'Add link'}
      onSubmit={apply}
    >
      <TextField
        label="Address"
        value={url}
        onChange={(v) => {
          setUrl(v);
          setTouched(true);
        }}
        autoFocus
        placeholder="https://example.com/page"
        description="A web address, a page of this site (/about), mailto:… or tel:…"
        errorMessage={touched && !check.ok ? check.message : undefined}
      />
      <Checkbox isSelected={newTab} onChange={setNewTab}>
        Open in a new tab
      </Checkbox>
      {isEditing && (
        <Button
          variant="quiet"
          onPress={() => {
            editor.chain().focus().extendMarkRange('link').unsetLink().run();
            onClose();
          }}
        >
          Remove the link
        </Button>
      )}
    </FormDialog>
  );
}
