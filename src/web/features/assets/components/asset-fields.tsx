import { useId } from 'react';
import type { TransitionName } from '../../../../shared/api/workflow';
import { Button } from '../../../components/ui/button';
import { InlineAlert } from '../../../components/ui/inline-alert';
import { FieldsForm, type FieldsFormController, type FieldValues } from '../../../kit/fields-form';
import { SAVE_SHORTCUT } from '../../../kit/saving/save-runner';
import { errorMessage, errorTitle } from '../../../lib/errors';

/**
 * The asset panel's fields (Details of a file, Content of the others): the form with Save and Discard changes;
 * after a replaced image, the note to check its alt text.
 */
export function AssetFields({
  title,
  form,
  canWrite,
  saving,
  error,
  altTextReview,
  onValuesChange,
  onSave,
  onDiscard,
}: {
  title: string;
  form: FieldsFormController;
  canWrite: boolean;
  /** What the editor is saving now, if anything. */
  saving: 'save' | 'schedule' | TransitionName | null;
  /** The last save's failure, shown under the form. */
  error: unknown;
  altTextReview: boolean;
  /** Every edit: the values that differ from the version edited. */
  onValuesChange: (changes: FieldValues) => void;
  onSave: () => void;
  onDiscard: () => void;
}) {
  const formId = useId();
  return (
    <section className="asset-section" aria-labelledby={`${formId}-fields`}>
      <h3 id={`${formId}-fields`} className="asset-section__title">
        {title}
      </h3>
      <form
        className="asset-form"
        onSubmit={(event) => {
          event.preventDefault();
          onSave();
        }}
      >
        {altTextReview && (
          <InlineAlert tone="info" title="The file was replaced">
            The alt text was written for the old image. Check that it still describes this one.
          </InlineAlert>
        )}
        <FieldsForm controller={form} isReadOnly={!canWrite} onValuesChange={onValuesChange} />
        {error !== null && <InlineAlert title={errorTitle(error)}>{errorMessage(error)}</InlineAlert>}
        {canWrite && (
          <div className="asset-form__actions">
            <Button type="submit" variant="primary" isDisabled={!form.isDirty} isPending={saving === 'save'}>
              Save
            </Button>
            <Button variant="quiet" isDisabled={!form.isDirty || saving !== null} onPress={onDiscard}>
              Discard changes
            </Button>
            <span className="asset-form__hint">
              {form.isDirty ? `Unsaved changes · ${SAVE_SHORTCUT} saves` : 'No changes'}
            </span>
          </div>
        )}
      </form>
    </section>
  );
}
