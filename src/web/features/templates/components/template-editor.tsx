import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { isApiError } from '../../../../shared/api/client';
import { ItemName } from '../../../../shared/api/common';
import type { Template } from '../../../../shared/api/templates';
import { Button } from '../../../components/ui/button';
import { FormTextField } from '../../../components/ui/controlled-fields';
import { TrashIcon } from '../../../components/ui/icons';
import { PageHeader } from '../../../components/ui/page-header';
import { ErrorState, LoadingState } from '../../../components/ui/status';
import { IDENTIFIER_INPUT } from '../../../components/ui/text-field';
import type { FieldsFormController } from '../../../kit/fields-form';
import { UnsavedChangesGuard } from '../../../kit/saving/unsaved-changes-guard';
import { nameFromTitle } from '../../../lib/names';
import { validateWith } from '../../../lib/validation';
import { useTemplate } from '../api/templates';
import { DeleteTemplateDialog } from './delete-template-dialog';
import { TemplateRegions } from './template-regions';
import { TemplateSaveAlerts } from './template-save-alerts';
import { EMPTY, valuesOf, type Values } from './template-values';
import { useSaveTemplate } from './use-save-template';
import type { TemplatesNavigation } from './templates-screen';
import './templates.css';

/**
 * A template's editor (admins): label, name (new templates only), description, and its regions — add, rename,
 * reorder, mark as filled by pages or fixed (with the widgets it shows on every page), remove. Renaming a region
 * keeps what pages hold in it; removing one that pages fill, or fixing it, is refused by the service, which the
 * editor shows with the pages concerned. Leaving with unsaved changes asks first.
 */
export function TemplateEditor({ name, navigation }: { name: string | null; navigation: TemplatesNavigation }) {
  const template = useTemplate(name ?? '', { enabled: name !== null });
  if (name !== null && template.isPending) return <LoadingState label={`Loading template ${name}…`} />;
  if (name !== null && template.isError) {
    return (
      <>
        <PageHeader title={name} />
        <ErrorState
          title={isApiError(template.error, 404) ? 'No such template' : `Could not load template “${name}”`}
          error={template.error}
          onRetry={isApiError(template.error, 404) ? undefined : () => void template.refetch()}
          isRetrying={template.isFetching}
        />
      </>
    );
  }
  return (
    <TemplateForm
      key={name ?? 'new'}
      template={template.data?.data}
      etag={template.data?.etag ?? undefined}
      navigation={navigation}
      onReload={() => void template.refetch()}
    />
  );
}

function TemplateForm({
  template,
  etag,
  navigation,
  onReload,
}: {
  template: Template | undefined;
  etag: string | undefined;
  navigation: TemplatesNavigation;
  onReload: () => void;
}) {
  const isNew = template === undefined;
  const form = useForm<Values>({ defaultValues: template ? valuesOf(template) : EMPTY, mode: 'onTouched' });
  // The forms of the fixed regions' widgets, by widget key: checked before a save, given the server's errors.
  const [controllers] = useState(() => new Map<string, FieldsFormController>());
  const nameEdited = useRef(!isNew);
  const [deleting, setDeleting] = useState(false);
  const [created, setCreated] = useState<string | null>(null);
  const saving = useSaveTemplate({ form, template, etag, controllers });
  const isDirty = form.formState.isDirty;

  // A saved template becomes the form's new starting point.
  useEffect(() => {
    if (template) form.reset(valuesOf(template));
  }, [template, form]);

  // A new template opens once created: after the render that left nothing unsaved, so the guard lets it go.
  // (Once: the navigation object is new on every render.)
  const { open, templateHref } = navigation;
  useEffect(() => {
    if (created !== null) open(templateHref(created));
  }, [created]);

  const save = form.handleSubmit(async (values) => {
    const saved = await saving.save(values);
    if (saved && isNew) setCreated(saved.name);
  });

  /** "Save and leave" of the unsaved-changes guard: true once saved. */
  const saveBeforeLeaving = () =>
    new Promise<boolean>((resolve) => {
      void form.handleSubmit(
        async (values) => resolve((await saving.save(values)) !== null),
        () => resolve(false),
      )();
    });

  return (
    <div className="template-editor">
      <UnsavedChangesGuard
        when={isDirty && created === null}
        itemLabel={isNew ? 'the new template' : `the template “${template.label}”`}
        onSave={saveBeforeLeaving}
      />
      <PageHeader
        title={isNew ? 'New template' : template.label}
        description={
          isNew ? (
            'Name its regions in page order and say which ones pages fill.'
          ) : (
            <>
              Template <code>{template.name}</code>
            </>
          )
        }
        actions={
          !isNew && (
            <Button variant="quiet" className="template-editor__delete" onPress={() => setDeleting(true)}>
              <TrashIcon /> Delete
            </Button>
          )
        }
      />
      <form
        className="template-editor__form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void save();
        }}
      >
        <section className="card template-editor__card" aria-label="Template">
          <FormTextField
            control={form.control}
            name="label"
            label="Label"
            isRequired
            autoFocus={isNew}
            maxLength={200}
            description="What editors choose when they make a page."
            rules={{ validate: (v) => (v.trim() ? true : 'Enter the label.') }}
            onValueChange={(label) => {
              if (isNew && !nameEdited.current) {
                form.setValue('name', nameFromTitle(label), { shouldValidate: form.formState.isSubmitted });
              }
            }}
          />
          {isNew && (
            <FormTextField
              control={form.control}
              name="name"
              label="Name"
              isRequired
              {...IDENTIFIER_INPUT}
              maxLength={255}
              description="How pages and the REST interface refer to it; it cannot change later."
              onValueChange={() => {
                nameEdited.current = true;
              }}
              rules={{
                validate: (v) => (v ? (validateWith(ItemName, 'The name')(v) ?? true) : 'Enter the name.'),
              }}
            />
          )}
          <FormTextField
            control={form.control}
            name="description"
            label="Description"
            rows={2}
            maxLength={2000}
            description="Optional: when to use it."
          />
        </section>

        <TemplateRegions form={form} controllers={controllers} />

        <TemplateSaveAlerts
          error={saving.error}
          template={template}
          navigation={navigation}
          onReload={() => {
            saving.reset();
            onReload();
          }}
        />

        <div className="template-editor__actions">
          <Button variant="quiet" onPress={() => navigation.open(navigation.templatesHref)}>
            {isNew ? 'Cancel' : 'Back to templates'}
          </Button>
          <Button type="submit" variant="primary" isPending={saving.isSaving}>
            {isNew ? 'Create template' : 'Save template'}
          </Button>
        </div>
      </form>
      {deleting && template && (
        <DeleteTemplateDialog
          template={template}
          links={navigation}
          onClose={(deleted) => {
            setDeleting(false);
            if (deleted) navigation.open(navigation.templatesHref);
          }}
        />
      )}
    </div>
  );
}
