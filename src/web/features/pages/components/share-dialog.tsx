import { useState } from 'react';
import { isApiError } from '../../../../shared/api/client';
import { ItemName } from '../../../../shared/api/common';
import { ASSET_LIBRARY, splitPath } from '../../../../shared/api/paths';
import { Button } from '../../../components/ui/button';
import { FormDialog } from '../../../components/ui/dialog';
import { TextField } from '../../../components/ui/text-field';
import { useKitServices } from '../../../kit/kit-services';
import { useApi } from '../../../lib/api';
import { nameFromTitle } from '../../../lib/names';
import { widgetExcerpt, widgetLabel, type EditorWidget, type SharedRef } from '../lib/editor-doc';

const DEFAULT_FOLDER = `${ASSET_LIBRARY}/shared`;

/**
 * "Make shared…": where in the asset library the widget's content goes (a folder, chosen in the library's
 * folder picker) and its name. A name taken in that folder is refused here: the server would link that asset
 * instead of sharing this content.
 */
export function ShareDialog({
  widget,
  onShare,
  onCancel,
}: {
  widget: EditorWidget;
  onShare: (ref: SharedRef) => void;
  onCancel: () => void;
}) {
  const client = useApi();
  const services = useKitServices();
  const [folder, setFolder] = useState(DEFAULT_FOLDER);
  const [name, setName] = useState(() => nameFromTitle(widgetExcerpt(widget, 40)) || 'shared-content');
  const [error, setError] = useState<string | undefined>();
  const [checking, setChecking] = useState(false);

  const submit = async () => {
    const valid = ItemName.safeParse(name);
    if (!valid.success) {
      setError(`The name ${valid.error.issues[0]?.message ?? 'is not valid'}.`);
      return;
    }
    setChecking(true);
    try {
      await client.assets.get([...splitPath(folder), name]);
      setError(`An asset named “${name}” is in ${folder} already. Choose another name, or use “Link shared asset…”.`);
    } catch (e) {
      if (isApiError(e, 404)) onShare({ name, folderPath: folder });
      else setError('Could not check the name. Try again.');
    } finally {
      setChecking(false);
    }
  };

  return (
    <FormDialog
      isOpen
      onOpenChange={(open) => {
        if (!open) onCancel();
      }}
      title={`Make this ${widgetLabel(widget.type).toLowerCase()} shared`}
      description="Its content moves to the asset library, where other pages can link it. This page links it from then on."
      submitLabel="Make shared"
      onSubmit={() => void submit()}
      isPending={checking}
    >
      <div className="field">
        <span className="field__label">Folder in the asset library</span>
        <p className="share-dialog__folder">
          <code>{folder}</code>
          <Button
            size="sm"
            onPress={() =>
              void services.pickAssetFolder({ title: 'Choose a folder', current: folder }).then((chosen) => {
                if (chosen) setFolder(chosen);
              })
            }
          >
            Choose folder…
          </Button>
        </p>
      </div>
      <TextField
        label="Name"
        value={name}
        onChange={(v) => {
          setName(v);
          setError(undefined);
        }}
        isRequired
        autoFocus
        errorMessage={error}
        description="Its name in the folder (it appears in the asset's address)."
      />
    </FormDialog>
  );
}
