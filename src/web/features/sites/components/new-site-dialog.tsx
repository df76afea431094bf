import { useEffect, useRef } from 'react';
import { useForm } from 'react-hook-form';
import { isApiError } from '../../../../shared/api/client';
import { ItemName } from '../../../../shared/api/common';
import type { Folder } from '../../../../shared/api/folders';
import { FormSelect, FormTextField } from '../../../components/ui/controlled-fields';
import { IDENTIFIER_INPUT } from '../../../components/ui/text-field';
import { FormDialog } from '../../../components/ui/dialog';
import { InlineAlert } from '../../../components/ui/inline-alert';
import { toast } from '../../../components/ui/toast';
import { allFieldErrorsPlaced } from '../../../lib/errors';
import { setServerErrors } from '../../../lib/form-errors';
import { nameFromTitle } from '../../../lib/names';
import { useTemplates } from '../../../lib/queries/templates';
import { validateWith } from '../../../lib/validation';
import { useCreateSite } from '../api/create-site';

interface Values {
  displayTitle: string;
  name: string;
  templateName: string | null;
}

const LABELS = { displayTitle: 'The display title', name: 'The name', templateName: 'The template' } as const;
const SERVER_FIELDS = {
  'body.sectionInfo.displayTitle': { name: 'displayTitle', label: LABELS.displayTitle },
  'body.sectionInfo.templateName': { name: 'templateName', label: LABELS.templateName },
  'body.siteName': { name: 'name', label: LABELS.name },
  path: { name: 'name', label: LABELS.name },
  'path.0': { name: 'name', label: LABELS.name },
} as const;

/**
 * "New site" (admins): a display title, the name in the site's address (suggested from the title until edited),
 * and the template of its home page. On success the site opens.
 */
export function NewSiteDialog({ onClose, onCreated }: { onClose: () => void; onCreated: (site: Folder) => void }) {
  const create = useCreateSite();
  const templates = useTemplates();
  const nameEdited = useRef(false);
  const form = useForm<Values>({
    defaultValues: { displayTitle: '', name: '', templateName: null },
    mode: 'onTouched',
  });
  const options = (templates.data ?? []).map((t) => ({ id: t.name, label: t.label, description: t.description }));
  const firstTemplate = options[0]?.id;
  // The first template is the natural default once the list is there.
  useEffect(() => {
    if (firstTemplate && form.getValues('templateName') === null) form.setValue('templateName', firstTemplate);
  }, [firstTemplate, form]);
  const chosen = form.watch('templateName');

  const submit = form.handleSubmit((values) => {
    const templateName = values.templateName;
    if (!templateName) return;
    create.mutate(
      { name: values.name, displayTitle: values.displayTitle.trim(), templateName },
      {
        onSuccess: (site) => {
          toast.success(
            `Created site “${values.displayTitle.trim()}”`,
            `Its home page uses the ${templateName} template.`,
          );
          onCreated(site);
        },
        onError: (error) => {
          if (isApiError(error) && error.code === 'NAME_TAKEN' && error.errors.length === 0) {
            form.setError('name', { type: 'server', message: error.detail }, { shouldFocus: true });
          } else if (isApiError(error) && error.code === 'TEMPLATE_NOT_FOUND') {
            form.setError('templateName', { type: 'server', message: error.detail }, { shouldFocus: true });
          } else {
            setServerErrors(form.setError, error, SERVER_FIELDS);
          }
        },
      },
    );
  });

  const fieldErrorShown =
    isApiError(create.error) &&
    (create.error.code === 'NAME_TAKEN' ||
      create.error.code === 'TEMPLATE_NOT_FOUND' ||
      allFieldErrorsPlaced(create.error, SERVER_FIELDS));
  const noTemplates = templates.isSuccess && options.length === 0;

  return (
    <FormDialog
      isOpen
      onOpenChange={(open) => !open && onClose()}
      title="New site"
      description="A site is the root of its own navigation. Its home page is made from the template you choose."
      submitLabel="Create site"
      onSubmit={() => void submit()}
      isPending={create.isPending}
      isSubmitDisabled={templates.isPending || noTemplates}
      error={create.error && !fieldErrorShown ? create.error : undefined}
    >
      <FormTextField
        control={form.control}
        name="displayTitle"
        label="Display title"
        isRequired
        autoFocus
        maxLength={1000}
        description="How the site is called in Folio and in its navigation."
        rules={{ validate: (v) => (v.trim() ? true : 'Enter the display title.') }}
        onValueChange={(title) => {
          if (!nameEdited.current)
            form.setValue('name', nameFromTitle(title), { shouldValidate: form.formState.isSubmitted });
        }}
      />
      <FormTextField
        control={form.control}
        name="name"
        label="Name"
        isRequired
        {...IDENTIFIER_INPUT}
        maxLength={255}
        description={`Part of every address in the site: /sites/${form.watch('name') || '…'}`}
        onValueChange={() => {
          nameEdited.current = true;
        }}
        rules={{
          validate: (v) => {
            if (!v) return 'Enter the name.';
            if (v === 'Assets') return '“Assets” is the asset library; choose another name.';
            return validateWith(ItemName, LABELS.name)(v) ?? true;
          },
        }}
      />
      {templates.isError ? (
        <InlineAlert title="Could not load the templates">Close the dialog and try again.</InlineAlert>
      ) : noTemplates ? (
        <InlineAlert tone="info" title="No templates yet">
          A site’s home page is made from a template. Add one under Templates first.
        </InlineAlert>
      ) : (
        <FormSelect
          control={form.control}
          name="templateName"
          label="Home page template"
          options={options}
          description={
            chosen
              ? `The home page (“index”) is made from it. ${options.find((o) => o.id === chosen)?.description ?? ''}`.trim()
              : 'The home page (“index”) is made from it.'
          }
          isDisabled={templates.isPending}
          rules={{ validate: (v) => (v ? true : 'Choose the template of the home page.') }}
        />
      )}
    </FormDialog>
  );
}

export default NewSiteDialog;
