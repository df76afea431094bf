import { TextSelection } from '@tiptap/pm/state';
import type { Editor } from '@tiptap/react';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Checkbox } from '../../../components/ui/checkbox';
import { FormDialog } from '../../../components/ui/dialog';
import { TextField } from '../../../components/ui/text-field';
import { pageHref, splitPath } from '../../../../shared/api/paths';
import { assetFileUrl } from '../../../lib/assets';
import { useKitServices } from '../../kit-services';
import { checkLinkUrl } from './link-url';

/**
 * Add, edit or remove the link at the selection: the address is typed (and checked) or a page or file is picked —
 * a page by its address in the REST interface, a file by its download address, as images are; "open in a new tab"
 * sets target and rel.
 */
export function LinkDialog({ editor, onClose }: { editor: Editor; onClose: () => void }) {
  const current = editor.getAttributes('link') as { href?: string; target?: string | null };
  const isEditing = Boolean(current.href);
  const [url, setUrl] = useState(current.href ?? '');
  const [newTab, setNewTab] = useState(current.target === '_blank');
  const [touched, setTouched] = useState(false);
  /** The name of the page or file picked: the link's text when nothing is selected. */
  const [pickedName, setPickedName] = useState<string | null>(null);
  const services = useKitServices();
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
    const text = pickedName && url === check.url ? pickedName : check.url;
    if (emptySelection) c.insertContent({ type: 'text', text, marks: [{ type: 'link', attrs }] });
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
  const picked = (address: string, name: string) => {
    setUrl(address);
    setPickedName(name);
    setTouched(true);
  };
  const pickPage = async () => {
    const path = await services.pickSitePath({ title: 'Link to a page', pages: true });
    if (path) picked(pageHref(splitPath(path)), splitPath(path).pop()!);
  };
  const pickFile = async () => {
    const asset = await services.pickAsset({ title: 'Link to a file from the asset library' });
    if (asset) picked(assetFileUrl(asset), asset.name);
  };
  return (
    <FormDialog
      isOpen
      onOpenChange={(open) => !open && close()}
      title={isEditing ? 'Edit link' : 'Add a link'}
      description={
        emptySelection
          ? 'Nothing is selected: the link’s text is the address, or the name of the page or file chosen.'
          : undefined
      }
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
        description="A web address, mailto:… or tel:… — or choose a page of a site or a file of the asset library."
        errorMessage={touched && !check.ok ? check.message : undefined}
      />
      <div className="rich-text__link-pickers">
        <Button onPress={() => void pickPage()}>Choose a page…</Button>
        <Button onPress={() => void pickFile()}>Choose a file…</Button>
      </div>
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
