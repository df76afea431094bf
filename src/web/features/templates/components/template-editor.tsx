import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { isApiError } from '../../../../shared/api/client';
import { ItemName } from '../../../../shared/api/common';
import type { Template } from '../../../../shared/api/templates';
import { Button } from '../../../components/ui/button';
import { FormTextField } from '../../../components/ui/controlled-fields';
import { IDENTIFIER_INPUT } from '../../../components/ui/text-field';
import { RefreshIcon, TrashIcon } from '../../../components/ui/icons';
import { InlineAlert } from '../../../components/ui/inline-alert';
import { PageHeader } from '../../../components/ui/page-header';
import { ErrorState, LoadingState } from '../../../components/ui/status';
import { toast } from '../../../components/ui/toast';
import type { FieldsFormController } from '../../../kit/fields-form';
import { useApi } from '../../../lib/api';
import { errorMessage, errorTitle } from '../../../lib/errors';
import { setServerErrors } from '../../../lib/form-errors';
import { nameFromTitle } from '../../../lib/names';
import { validateWith } from '../../../lib/validation';
import { usePutTemplate, useTemplate } from '../api/templates';
import { DeleteTemplateDialog } from './delete-template-dialog';
import { TemplateRegions } from './template-regions';
import { TemplateUsageList } from './template-usage';
import { bodyOf, EMPTY, SERVER_FIELDS, valuesOf, type Values } from './template-values';
import { allErrorsPlaced, showWidgetErrors, widgetsValid } from './template-widget-checks';
import type { TemplatesNavigation } from './templates-screen';
import './templates.css';

/**
 * A template's editor (admins): label, name (new templates only), description, and its regions — add, rename,
 * reorder, mark as filled by pages or fixed (with the widgets it shows on every page), remove. Renaming a region keeps what pages hold in it; removing one
 * that pages fill, or fixing it, is refused by the service, which the editor shows with the pages concerned.
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
  const client = useApi();
  const put = usePutTemplate();
  const isNew = template === undefined;
  const form = useForm<Values>({ defaultValues: template ? valuesOf(template) : EMPTY, mode: 'onTouched' });
  // The forms of the fixed regions' widgets, by widget key: checked before a save, given the server's errors.
  const [controllers] = useState(() => new Map<string, FieldsFormController>());
  const nameEdited = useRef(!isNew);
  const [deleting, setDeleting] = useState(false);
  const [checkingName, setCheckingName] = useState(false);

  // A saved template becomes the form's new starting point.
  useEffect(() => {
    if (template) form.reset(valuesOf(template));
  }, [template, form]);

  const save = form.handleSubmit(async (values) => {
    if (!(await widgetsValid(values, controllers))) return;
    const templateName = isNew ? values.name : template.name;
    if (isNew) {
      // A PUT on a taken name would change that template: look first.
      setCheckingName(true);
      try {
        await client.templates.get(templateName);
        form.setError(
          'name',
          { type: 'server', message: `A template named “${templateName}” exists already.` },
          { shouldFocus: true },
        );
        return;
      } catch (error) {
        if (!isApiError(error, 404)) {
          put.reset();
          toast.error(errorTitle(error), errorMessage(error));
          return;
        }
      } finally {
        setCheckingName(false);
      }
    }
    put.mutate(
      { name: templateName, body: bodyOf(values), etag: isNew ? undefined : etag, create: isNew },
      {
        onSuccess: ({ data }) => {
          toast.success(isNew ? `Created template “${data.label}”` : `Saved template “${data.label}”`);
          if (isNew) navigation.open(navigation.templateHref(data.name));
        },
        onError: (error) => {
          // Created by someone else since the check above: the create-only PUT changed nothing.
          if (isNew && isApiError(error, 412)) {
            form.setError(
              'name',
              { type: 'server', message: `A template named “${templateName}” exists already.` },
              { shouldFocus: true },
            );
            return;
          }
          setServerErrors(form.setError, error, SERVER_FIELDS);
          showWidgetErrors(error, values, controllers);
        },
      },
    );
  });

  const error = put.error;
  const inUse = isApiError(error, 409) && error.code === 'TEMPLATE_IN_USE';
  const stale = !isNew && isApiError(error, 412);
  const placed = isApiError(error) && allErrorsPlaced(error);
  const inUseRegions = inUse
    ? ((error.problem as { regions?: { region: string }[] } | undefined)?.regions ?? []).map((r) => r.region)
    : [];

  return (
    <div className="template-editor">
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

        {inUse && (
          <InlineAlert title="Pages hold content there">
            <p>{error.detail}</p>
            {!isNew && (
              <TemplateUsageList
                name={template.name}
                regions={inUseRegions.length ? inUseRegions : undefined}
                links={navigation}
                title="Move their content elsewhere, or keep those regions filled by pages."
              />
            )}
          </InlineAlert>
        )}
        {stale && (
          <InlineAlert title="Changed by someone else">
            <p>This template changed after you opened it, so nothing was saved. Load their version to go on.</p>
            <Button
              size="sm"
              onPress={() => {
                put.reset();
                onReload();
              }}
            >
              <RefreshIcon /> Load the current version
            </Button>
          </InlineAlert>
        )}
        {error !== null && !inUse && !stale && !placed && (
          <InlineAlert title={errorTitle(error)}>{errorMessage(error)}</InlineAlert>
        )}

        <div className="template-editor__actions">
          <Button variant="quiet" onPress={() => navigation.open(navigation.templatesHref)}>
            {isNew ? 'Cancel' : 'Back to templates'}
          </Button>
          <Button type="submit" variant="primary" isPending={put.isPending || checkingName}>
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
