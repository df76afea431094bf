import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Form } from 'react-aria-components';
import { isApiError, type WithEtag } from '../../../../shared/api/client';
import { DEFAULT_FOLDER_WORKFLOW, ExternalUrl, type Folder } from '../../../../shared/api/folders';
import { DEFAULT_WORKFLOW } from '../../../../shared/api/workflow';
import { Button } from '../../../components/ui/button';
import { InlineAlert } from '../../../components/ui/inline-alert';
import { Select, type SelectOption } from '../../../components/ui/select';
import { TextField } from '../../../components/ui/text-field';
import { toast } from '../../../components/ui/toast';
import { useApi } from '../../../lib/api';
import { errorMessage, errorTitle, fieldErrorsOf } from '../../../lib/errors';
import { validateWith } from '../../../lib/validation';
import { folderQueryOptions } from '../../../lib/queries/folders';
import { useTemplates } from '../../../lib/queries/templates';
import { UnsavedChangesGuard } from '../../../kit/saving/unsaved-changes-guard';
import { useUpdateFolder } from '../api/update-folder';
import type { ExplorerItem } from '../../../lib/tree/items';
import { ContainerPicker } from '../../../components/tree/container-picker';
import { ACCESS_OPTIONS, changesOf, FIELDS, valuesOf, type Values } from './properties-values';
import { TARGET_WINDOW_OPTIONS, targetWindowLabel } from './target-window';

/**
 * The properties of a site, section, folder, link or asset folder: display title, target window, navigation
 * class, landing page template, link address or target, workflow, and (admins) the access level. Saved with
 * If-Match; when someone else saved in between, the form says so and offers to reload or overwrite.
 */
export function PropertiesForm({
  item,
  folder,
  canEdit,
  isAdmin,
}: {
  item: ExplorerItem;
  folder: WithEtag<Folder>;
  canEdit: boolean;
  isAdmin: boolean;
}) {
  const client = useApi();
  const queryClient = useQueryClient();
  const save = useUpdateFolder(item.path);
  const templates = useTemplates();
  const headingId = useId();
  const [base, setBase] = useState<Values>(() => valuesOf(folder.data));
  const [values, setValues] = useState<Values>(base);
  const [isReloading, setReloading] = useState(false);
  const [pickTarget, setPickTarget] = useState(false);
  const dirty = Object.keys(changesOf(item, base, values)).length > 0;
  const formRef = useRef<HTMLFormElement>(null);

  // A save the server refused for fields it names: each shows its message; the focus goes to the first.
  useEffect(() => {
    if (!isApiError(save.error, 400) || save.error.errors.length === 0) return;
    formRef.current
      ?.querySelector<HTMLElement>(
        '[data-invalid] input:not([type="hidden"]), [data-invalid] textarea, [data-invalid] button',
      )
      ?.focus();
  }, [save.error]);

  // A newer version arrived (a refetch, a save elsewhere in the app): show it unless the user is editing.
  useEffect(() => {
    if (dirty) return;
    const fresh = valuesOf(folder.data);
    setBase(fresh);
    setValues(fresh);
  }, [folder.etag]);

  const set =
    <K extends keyof Values>(key: K) =>
    (value: Values[K]) =>
      setValues((v) => ({ ...v, [key]: value }));
  const isNavigation =
    item.kind === 'site' || item.kind === 'section' || item.kind === 'sectionlink' || item.kind === 'externallink';
  const hasTemplate = item.kind === 'site' || item.kind === 'section';
  const stale = isApiError(save.error, 412);

  const submit = (etag: string | null) => {
    save.mutate(
      { body: changesOf(item, base, values), etag },
      {
        onSuccess: (saved) => {
          const fresh = valuesOf(saved.data);
          setBase(fresh);
          setValues(fresh);
          toast.success(`Saved the properties of “${item.name}”`);
        },
      },
    );
  };

  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (dirty && !save.isPending) submit(folder.etag);
  };

  /** "Save and leave" of the navigation guard: resolves true once saved. */
  const saveBeforeLeaving = async (): Promise<boolean> => {
    try {
      const saved = await save.mutateAsync({ body: changesOf(item, base, values), etag: folder.etag });
      const fresh = valuesOf(saved.data);
      setBase(fresh);
      setValues(fresh);
      toast.success(`Saved the properties of “${item.name}”`);
      return true;
    } catch {
      return false;
    }
  };

  const reload = async () => {
    setReloading(true);
    try {
      const fresh = await queryClient.fetchQuery({ ...folderQueryOptions(client, item.path), staleTime: 0 });
      const next = valuesOf(fresh.data);
      setBase(next);
      setValues(next);
      save.reset();
    } finally {
      setReloading(false);
    }
  };

  const overwrite = async () => {
    setReloading(true);
    try {
      // What I changed goes over their version; fields I left alone keep their changes.
      const mine = changesOf(item, base, values);
      const fresh = await queryClient.fetchQuery({ ...folderQueryOptions(client, item.path), staleTime: 0 });
      save.mutate(
        { body: mine, etag: fresh.etag },
        {
          onSuccess: (saved) => {
            const next = valuesOf(saved.data);
            setBase(next);
            setValues(next);
            toast.success(`Saved the properties of “${item.name}”`, 'Your version replaced the other one.');
          },
        },
      );
    } finally {
      setReloading(false);
    }
  };

  const templateOptions: SelectOption<string>[] = (templates.data ?? []).map((t) => ({
    id: t.name,
    label: t.label,
    description: t.description,
  }));
  if (values.templateName && !templateOptions.some((o) => o.id === values.templateName)) {
    templateOptions.push({ id: values.templateName, label: values.templateName });
  }
  const workflowOptions: SelectOption<string>[] = [
    {
      id: DEFAULT_FOLDER_WORKFLOW,
      label: 'System default',
      description: 'Follows the default workflow, whatever it is.',
    },
    { id: DEFAULT_WORKFLOW, label: DEFAULT_WORKFLOW, description: 'Uses this workflow even if the default changes.' },
  ];
  if (!workflowOptions.some((o) => o.id === values.workflow)) {
    workflowOptions.push({ id: values.workflow, label: values.workflow });
  }

  if (!canEdit) {
    return (
      <section className="card" aria-labelledby={headingId}>
        <h2 id={headingId} className="card__title">
          Properties
        </h2>
        <dl className="facts">
          {isNavigation && <Fact term="Display title">{values.displayTitle || '—'}</Fact>}
          {item.kind === 'externallink' && (
            <Fact term="URL">
              <a href={values.url} target="_blank" rel="noreferrer noopener">
                {values.url}
              </a>
            </Fact>
          )}
          {item.kind === 'sectionlink' && <Fact term="Leads to">{values.linkTarget || '—'}</Fact>}
          {isNavigation && <Fact term="Target window">{targetWindowLabel(values.targetWindow)}</Fact>}
          {isNavigation && <Fact term="Navigation class">{values.navClass || '—'}</Fact>}
          {hasTemplate && <Fact term="Landing page template">{values.templateName || '—'}</Fact>}
          <Fact term="Workflow">{workflowOptions.find((o) => o.id === values.workflow)?.label ?? values.workflow}</Fact>
          <Fact term="Your access">{folder.data.accessLevel === 'READ' ? 'Read only' : folder.data.accessLevel}</Fact>
        </dl>
      </section>
    );
  }

  return (
    <section className="card" aria-labelledby={headingId}>
      <h2 id={headingId} className="card__title">
        Properties
      </h2>
      <UnsavedChangesGuard
        when={dirty}
        itemLabel={`the properties of “${item.name}”`}
        onSave={saveBeforeLeaving}
        onDiscard={() => setValues(base)}
      />
      <Form
        ref={formRef}
        className="properties-form"
        onSubmit={handleSubmit}
        validationErrors={stale ? undefined : fieldErrorsOf(save.error, FIELDS)}
        aria-labelledby={headingId}
      >
        {isNavigation && (
          <TextField
            label="Display title"
            name="displayTitle"
            value={values.displayTitle}
            onChange={set('displayTitle')}
            maxLength={1000}
            description="The entry’s label in the site’s navigation."
          />
        )}
        {item.kind === 'externallink' && (
          <TextField
            label="URL"
            name="url"
            type="url"
            value={values.url}
            onChange={set('url')}
            isRequired
            validate={validateWith(ExternalUrl, 'The URL')}
            description="An absolute address starting with http:// or https://."
          />
        )}
        {item.kind === 'sectionlink' && (
          <div className="field">
            <span className="field__label">Leads to</span>
            <p className="properties-form__target">
              <code>{values.linkTarget || '—'}</code>
              <Button size="sm" onPress={() => setPickTarget((p) => !p)} aria-expanded={pickTarget}>
                {pickTarget ? 'Done' : 'Choose another section…'}
              </Button>
            </p>
            {pickTarget && (
              <ContainerPicker
                label="Section the link leads to"
                realm="sites"
                keep={(i) => i.kind === 'section'}
                selectedPath={values.linkTarget || null}
                onSelect={(target) => set('linkTarget')(target.path)}
                initiallyExpanded={values.linkTarget || undefined}
              />
            )}
          </div>
        )}
        {isNavigation && (
          <Select
            label="Target window"
            name="targetWindow"
            options={TARGET_WINDOW_OPTIONS}
            value={values.targetWindow}
            onChange={set('targetWindow')}
          />
        )}
        {isNavigation && (
          <TextField
            label="Navigation class"
            name="navClass"
            value={values.navClass}
            onChange={set('navClass')}
            maxLength={255}
            description="Optional CSS class of the entry in the navigation."
          />
        )}
        {hasTemplate && (
          <Select
            label="Landing page template"
            name="templateName"
            options={templateOptions}
            value={values.templateName || null}
            onChange={set('templateName')}
            description="Used for landing pages made from now on; the current landing page keeps its template."
          />
        )}
        <Select
          label="Workflow"
          name="workflow"
          options={workflowOptions}
          value={values.workflow}
          onChange={set('workflow')}
        />
        {isAdmin && (
          <Select
            label="Access for non-admins"
            name="access"
            options={ACCESS_OPTIONS}
            value={values.access}
            onChange={set('access')}
            description="Applies to this item and everything inside it."
          />
        )}
        {stale ? (
          <InlineAlert title="Changed by someone else">
            <p>
              “{item.name}” was changed by someone else after you opened it, so your changes were not saved. Reload to
              see their version (your changes are dropped), or overwrite it with yours.
            </p>
            <div className="properties-form__conflict-actions">
              <Button size="sm" onPress={() => void reload()} isPending={isReloading && !save.isPending}>
                Reload
              </Button>
              <Button size="sm" variant="danger" onPress={() => void overwrite()} isPending={save.isPending}>
                Overwrite
              </Button>
            </div>
          </InlineAlert>
        ) : (
          save.error !== null && <InlineAlert title={errorTitle(save.error)}>{errorMessage(save.error)}</InlineAlert>
        )}
        <div className="properties-form__actions">
          <Button
            variant="quiet"
            onPress={() => {
              setValues(base);
              save.reset();
            }}
            isDisabled={!dirty || save.isPending}
          >
            Discard changes
          </Button>
          <Button type="submit" variant="primary" isPending={save.isPending && !stale} isDisabled={!dirty || stale}>
            Save properties
          </Button>
        </div>
      </Form>
    </section>
  );
}

function Fact({ term, children }: { term: string; children: React.ReactNode }) {
  return (
    <div className="facts__row">
      <dt>{term}</dt>
      <dd>{children}</dd>
    </div>
  );
}
