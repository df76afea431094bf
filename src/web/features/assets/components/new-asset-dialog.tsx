import { useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Form } from 'react-aria-components';
import { isApiError } from '../../../../shared/api/client';
import { ItemName } from '../../../../shared/api/common';
import { splitPath } from '../../../../shared/api/paths';
import {
  ASSET_TYPES,
  WIDGET_CATEGORY_LABEL,
  WIDGET_TYPES,
  type AssetType,
  type WidgetCategory,
} from '../../../../shared/registry';
import { Button } from '../../../components/ui/button';
import { Modal } from '../../../components/ui/dialog';
import { InlineAlert } from '../../../components/ui/inline-alert';
import { TextField } from '../../../components/ui/text-field';
import { toast } from '../../../components/ui/toast';
import { FieldsForm, useFieldsForm } from '../../../kit/fields-form';
import { useSaveRunner } from '../../../kit/saving/save-runner';
import { AssetTypeIcon } from '../../../kit/type-icon';
import { useApi } from '../../../lib/api';
import { errorMessage, errorTitle } from '../../../lib/errors';
import { labelInSentence, nameFromTitle } from '../../../lib/names';
import { assetsKeys, foldersKeys } from '../../../lib/query-keys';

/** The 20 types made in the library (the binary ones are uploaded), grouped as the page editor's palette groups them. */
export const NEW_ASSET_GROUPS: { label: string; types: { type: AssetType; label: string; description: string }[] }[] = (
  Object.keys(WIDGET_CATEGORY_LABEL) as WidgetCategory[]
)
  .map((category) => ({
    label: WIDGET_CATEGORY_LABEL[category],
    types: ASSET_TYPES.filter(
      (a) => !a.binary && (WIDGET_TYPES.find((w) => w.assetType === a.type)?.category ?? 'content') === category,
    ).map((a) => ({ type: a.type, label: a.label, description: a.description })),
  }))
  .filter((g) => g.types.length > 0);

/**
 * A new non-binary asset in the folder: its name and its type's form from the kit (required fields marked and
 * checked as the server checks them). Created with `If-None-Match: *`, so an asset already at that name is never
 * overwritten. Answers the new asset's name.
 */
export function NewAssetDialog({
  type,
  folderPath,
  onClose,
}: {
  type: AssetType;
  folderPath: string;
  onClose: (created: string | null) => void;
}) {
  const client = useApi();
  const queryClient = useQueryClient();
  const runSave = useSaveRunner();
  const def = ASSET_TYPES.find((a) => a.type === type)!;
  const [initial] = useState({});
  const form = useFieldsForm({ defs: def.fields, initial, creating: true });
  const [name, setName] = useState('');
  const [nameTouched, setNameTouched] = useState(false);
  const [nameError, setNameError] = useState<string | undefined>();
  const [error, setError] = useState<unknown>(null);
  const [pending, setPending] = useState(false);

  // Until the user types a name, one is suggested from the title the form holds.
  const watched = form.form.watch();
  const titleKey = ['displaytitle', 'formtitle', 'pollTitle', 'calendar_title', 'mainTitle'].find((k) => watched[k]);
  const suggested = useMemo(() => (titleKey ? nameFromTitle(watched[titleKey] ?? '') : ''), [titleKey, watched]);
  const shownName = nameTouched ? name : name || suggested;

  const create = async () => {
    setError(null);
    const checked = ItemName.safeParse(shownName.trim());
    const valid = await form.validate();
    if (!checked.success) {
      setNameError(`The name ${checked.error.issues[0]?.message ?? 'is not valid'}.`);
      return;
    }
    setNameError(undefined);
    if (!valid) return;
    setPending(true);
    try {
      const { data } = await runSave(() =>
        client.assets.put(
          [...splitPath(folderPath), checked.data],
          { type, fields: form.values() },
          { ifNoneMatch: '*' },
        ),
      );
      void queryClient.invalidateQueries({ queryKey: assetsKeys.lists() });
      void queryClient.invalidateQueries({ queryKey: foldersKeys.detail(folderPath), exact: true });
      toast.success(`Created ${data.name}`);
      onClose(data.name);
    } catch (e) {
      if (isApiError(e, 412)) setNameError('An asset or folder of this name is here already. Choose another name.');
      else if (isApiError(e, 400)) {
        if (form.showServerErrors(e.errors, 'fields.').length > 0) setError(e);
      } else setError(e);
    } finally {
      setPending(false);
    }
  };

  return (
    <Modal
      isOpen
      onOpenChange={(open) => !open && onClose(null)}
      isBusy={pending}
      size="lg"
      title={`New ${labelInSentence(def.label)}`}
      description={
        <span className="new-asset__description">
          <AssetTypeIcon type={type} /> {def.description}
        </span>
      }
      footer={
        <>
          <Button variant="quiet" onPress={() => onClose(null)} isDisabled={pending}>
            Cancel
          </Button>
          <Button variant="primary" type="submit" form="new-asset-form" isPending={pending}>
            Create
          </Button>
        </>
      }
    >
      <Form
        id="new-asset-form"
        className="new-asset"
        onSubmit={(event) => {
          event.preventDefault();
          void create();
        }}
      >
        <TextField
          label="Name"
          description={`Its address in ${folderPath.replace(/^Assets\/?/, '') || 'the asset library'}.`}
          value={shownName}
          onChange={(v) => {
            setName(v);
            setNameTouched(true);
            setNameError(undefined);
          }}
          isRequired
          errorMessage={nameError}
          autoFocus
        />
        <FieldsForm controller={form} />
        {error !== null && <InlineAlert title={errorTitle(error)}>{errorMessage(error)}</InlineAlert>}
      </Form>
    </Modal>
  );
}
