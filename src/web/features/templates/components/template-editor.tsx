import { useEffect, useId, useRef, useState } from 'react';
import { useFieldArray, useForm, type UseFormReturn } from 'react-hook-form';
import { Controller } from 'react-hook-form';
import { isApiError } from '../../../../shared/api/client';
import { ItemName } from '../../../../shared/api/common';
import {
  MAX_TEMPLATE_REGIONS,
  RegionName,
  type Template,
  type TemplatePutBody,
  type TemplateWidget,
} from '../../../../shared/api/templates';
import { widgetTypeDef } from '../../../../shared/registry';
import { Button } from '../../../components/ui/button';
import { FormTextField } from '../../../components/ui/controlled-fields';
import { IDENTIFIER_INPUT } from '../../../components/ui/text-field';
import { PlusIcon, RefreshIcon, TrashIcon } from '../../../components/ui/icons';
import { InlineAlert } from '../../../components/ui/inline-alert';
import { PageHeader } from '../../../components/ui/page-header';
import { ErrorState, LoadingState } from '../../../components/ui/status';
import { Switch } from '../../../components/ui/switch';
import { toast } from '../../../components/ui/toast';
import { useApi } from '../../../lib/api';
import { errorMessage, errorTitle, allFieldErrorsPlaced } from '../../../lib/errors';
import { setServerErrors } from '../../../lib/form-errors';
import { nameFromTitle } from '../../../lib/names';
import { validateWith } from '../../../lib/validation';
import { ItemActions, useAnnouncer, useFocusTargets } from '../../../kit/controls/structured-parts';
import { usePutTemplate, useTemplate } from '../api/templates';
import { DeleteTemplateDialog } from './delete-template-dialog';
import { TemplateUsageList } from './template-usage';
import type { TemplatesNavigation } from './templates-screen';
import './templates.css';

interface RegionValues {
  name: string;
  /** The region's name as stored (null for a region added in this form): a different `name` renames it. */
  previousName: string | null;
  editable: boolean;
}

interface Values {
  label: string;
  name: string;
  description: string;
  regions: RegionValues[];
}

const EMPTY: Values = {
  label: '',
  name: '',
  description: '',
  regions: [
    { name: 'header', previousName: null, editable: false },
    { name: 'main', previousName: null, editable: true },
    { name: 'footer', previousName: null, editable: false },
  ],
};

function valuesOf(t: Template): Values {
  return {
    label: t.label,
    name: t.name,
    description: t.description,
    regions: t.regions.map((r) => ({ name: r.name, previousName: r.name, editable: r.editable })),
  };
}

/** The template widgets of a stored region (they stay with it while it is fixed). */
function widgetsOf(template: Template | undefined, previousName: string | null): TemplateWidget[] {
  if (!template || previousName === null) return [];
  return template.regions.find((r) => r.name === previousName)?.widgets ?? [];
}

/** The PUT body of the form: regions in order, renamed ones with their previous name, fixed ones keep widgets. */
function bodyOf(values: Values, template: Template | undefined): TemplatePutBody {
  return {
    label: values.label.trim(),
    description: values.description.trim(),
    regions: values.regions.map((r) => ({
      name: r.name,
      ...(r.previousName !== null && r.previousName !== r.name ? { previousName: r.previousName } : {}),
      editable: r.editable,
      widgets: r.editable ? [] : widgetsOf(template, r.previousName),
    })),
  };
}

const SERVER_FIELDS: Record<
  string,
  { name: `regions.${number}.name` | 'label' | 'description' | 'name'; label: string }
> = {
  'body.label': { name: 'label', label: 'The label' },
  'body.description': { name: 'description', label: 'The description' },
  'params.name': { name: 'name', label: 'The name' },
};
for (let i = 0; i < MAX_TEMPLATE_REGIONS; i++) {
  SERVER_FIELDS[`body.regions.${i}.name`] = { name: `regions.${i}.name`, label: 'The region name' };
}

/**
 * A template's editor (admins): label, name (new templates only), description, and its regions — add, rename,
 * reorder, mark as filled by pages or fixed, remove. Renaming a region keeps what pages hold in it; removing one
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
  const regions = useFieldArray({ control: form.control, name: 'regions' });
  const nameEdited = useRef(!isNew);
  const [deleting, setDeleting] = useState(false);
  const [checkingName, setCheckingName] = useState(false);
  const regionsHeadingId = useId();

  // A saved template becomes the form's new starting point.
  useEffect(() => {
    if (template) form.reset(valuesOf(template));
  }, [template, form]);

  // After a move the focus stays on the moved region's button; after a removal it goes to the next region.
  const focus = useFocusTargets();
  const { announce, region: announcements } = useAnnouncer();

  const save = form.handleSubmit(async (values) => {
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
      { name: templateName, body: bodyOf(values, template), etag: isNew ? undefined : etag, create: isNew },
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
        },
      },
    );
  });

  const error = put.error;
  const inUse = isApiError(error, 409) && error.code === 'TEMPLATE_IN_USE';
  const stale = !isNew && isApiError(error, 412);
  const placed = isApiError(error) && allFieldErrorsPlaced(error, SERVER_FIELDS);
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

        <section className="card template-editor__card" aria-labelledby={regionsHeadingId}>
          <h2 id={regionsHeadingId} className="card__title">
            Regions
          </h2>
          <p className="card__muted">
            In page order. Pages put their own widgets in the regions they fill; fixed regions show the template’s
            widgets on every page.
          </p>
          <ol className="region-rows">
            {regions.fields.map((field, index) => {
              const count = regions.fields.length;
              const label = () => form.getValues(`regions.${index}.name`) || `region ${index + 1}`;
              return (
                <RegionRow
                  key={field.id}
                  id={field.id}
                  form={form}
                  index={index}
                  count={count}
                  widgets={widgetsOf(template, field.previousName)}
                  register={focus.register}
                  onMove={(delta) => {
                    regions.move(index, index + delta);
                    const [here, there] = delta < 0 ? ['up', 'down'] : ['down', 'up'];
                    focus.focusLater(`${field.id}:${here}`, `${field.id}:${there}`);
                    announce(`Moved “${label()}” to position ${index + delta + 1} of ${count}.`);
                  }}
                  onRemove={() => {
                    if (count === 1) {
                      form.setError('regions', { type: 'min', message: 'A template needs at least one region.' });
                      return;
                    }
                    const next = regions.fields[index + 1] ?? regions.fields[index - 1];
                    announce(`Removed “${label()}”.`);
                    regions.remove(index);
                    if (next) focus.focusLater(`${next.id}:remove`);
                  }}
                />
              );
            })}
          </ol>
          {announcements}
          {form.formState.errors.regions?.message && (
            <p className="field__error" role="alert">
              {form.formState.errors.regions.message}
            </p>
          )}
          <div>
            <Button
              size="sm"
              isDisabled={regions.fields.length >= MAX_TEMPLATE_REGIONS}
              onPress={() => {
                form.clearErrors('regions');
                regions.append({ name: '', previousName: null, editable: true });
              }}
            >
              <PlusIcon /> Add region
            </Button>
          </div>
        </section>

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

/** One region: its name, whether pages fill it, move up/down and remove. */
function RegionRow({
  form,
  id,
  index,
  count,
  widgets,
  onMove,
  onRemove,
  register,
}: {
  form: UseFormReturn<Values>;
  /** The row's key (kept while the region moves), for its focus targets. */
  id: string;
  index: number;
  count: number;
  widgets: TemplateWidget[];
  onMove: (delta: -1 | 1) => void;
  onRemove: () => void;
  register: ReturnType<typeof useFocusTargets>['register'];
}) {
  const name = form.watch(`regions.${index}.name`);
  const previousName = form.watch(`regions.${index}.previousName`);
  const editable = form.watch(`regions.${index}.editable`);
  const label = name || `region ${index + 1}`;
  const dropsWidgets = editable && widgets.length > 0;
  return (
    <li className="region-row">
      <span className="region-row__position" aria-hidden="true">
        {index + 1}
      </span>
      <div className="region-row__name">
        <FormTextField
          control={form.control}
          name={`regions.${index}.name`}
          label={`Name of region ${index + 1}`}
          isRequired
          {...IDENTIFIER_INPUT}
          maxLength={64}
          autoFocus={previousName === null && name === ''}
          description={
            previousName !== null && previousName !== name && name
              ? `Renamed from “${previousName}”: pages keep what they hold in it.`
              : undefined
          }
          rules={{
            validate: (v) => {
              if (!v) return 'Enter the region’s name.';
              const problem = validateWith(RegionName, 'The region name')(v);
              if (problem) return problem;
              const all = form.getValues('regions');
              return all.filter((r) => r.name === v).length > 1 ? `Another region is called “${v}”.` : true;
            },
          }}
        />
      </div>
      <div className="region-row__kind">
        <Controller
          control={form.control}
          name={`regions.${index}.editable`}
          render={({ field }) => (
            <Switch isSelected={field.value} onChange={field.onChange}>
              Filled by pages
            </Switch>
          )}
        />
        <p className="field__description">
          {dropsWidgets
            ? `Its ${widgets.length === 1 ? 'template widget' : `${widgets.length} template widgets`} (${widgets
                .map((w) => widgetTypeDef(w.type)?.label ?? w.type)
                .join(', ')}) will be removed when you save.`
            : editable
              ? 'Each page puts its own widgets here.'
              : widgets.length
                ? `Fixed: ${widgets.map((w) => widgetTypeDef(w.type)?.label ?? w.type).join(', ')} on every page.`
                : 'Fixed by the template.'}
        </p>
      </div>
      <div className="region-row__actions">
        <ItemActions
          id={id}
          itemName={`region “${label}”`}
          index={index}
          count={count}
          onMove={onMove}
          onRemove={onRemove}
          register={register}
        />
      </div>
    </li>
  );
}
