import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { isApiError } from '../../../../shared/api/client';
import { ItemName } from '../../../../shared/api/common';
import { ExternalUrl, type TargetWindow } from '../../../../shared/api/folders';
import { FormDialog } from '../../../components/ui/dialog';
import { InlineAlert } from '../../../components/ui/inline-alert';
import { Select } from '../../../components/ui/select';
import { TextField } from '../../../components/ui/text-field';
import { toast } from '../../../components/ui/toast';
import { allFieldErrorsPlaced, fieldErrorsOf } from '../../../lib/errors';
import { validateWith } from '../../../lib/validation';
import { useCreateItem, type NewItem } from '../api/create-item';
import { useTemplates } from '../../../lib/queries/templates';
import { cachedFolder } from '../api/tree-cache';
import { KIND_LABEL, labelOf, type ExplorerItem } from '../../../lib/tree/items';
import { nameFromTitle } from '../../../lib/names';
import { ContainerPicker } from '../../../components/tree/container-picker';
import { useExplorer, type CreatableKind } from './explorer-context';
import { TARGET_WINDOW_OPTIONS } from './target-window';

/** Where the service reports fields of the create requests. */
const FIELDS = {
  'body.name': 'name',
  'params.path': 'name',
  'body.sectionInfo.displayTitle': 'title',
  'body.displayName': 'title',
  'body.sectionInfo.externalLinkUrl': 'url',
  'body.sectionInfo.navClass': 'navClass',
  'body.sectionInfo.templateName': 'template',
  'body.templateName': 'template',
};

/** How each field's problems start. */
const LABELS = {
  name: 'The name',
  title: 'The title',
  url: 'The URL',
  navClass: 'The navigation class',
  template: 'The template',
};

const TITLES: Record<CreatableKind, string> = {
  section: 'New section',
  sectionlink: 'New section link',
  externallink: 'New external link',
  folder: 'New folder',
  assetfolder: 'New folder',
  page: 'New page',
};

const DESCRIPTIONS: Record<CreatableKind, string> = {
  section: 'A section appears in the navigation and gets a landing page made from the template you choose.',
  sectionlink: 'A navigation entry that leads to another section of a site.',
  externallink: 'A navigation entry that leads to an address outside Folio.',
  folder: 'A folder keeps pages and other folders together; it does not appear in the navigation.',
  assetfolder: 'A folder of the asset library, for images, files and shared content.',
  page: 'A page made from a template; fill its regions in the page editor.',
};

/** Creates a section, section link, external link, folder or page inside `parent`. */
export function CreateItemDialog({
  kind,
  parent,
  onClose,
}: {
  kind: CreatableKind;
  parent: ExplorerItem;
  onClose: () => void;
}) {
  const explorer = useExplorer();
  const queryClient = useQueryClient();
  const create = useCreateItem();
  const hasTitle = kind !== 'folder' && kind !== 'assetfolder';
  const hasTemplate = kind === 'section' || kind === 'page';
  const templates = useTemplates();
  const parentTemplate = cachedFolder(queryClient, parent.path)?.data.sectionInfo?.templateName;

  const [title, setTitle] = useState('');
  const [name, setName] = useState('');
  const [nameEdited, setNameEdited] = useState(false);
  const [template, setTemplate] = useState<string | null>(null);
  const [targetWindow, setTargetWindow] = useState<TargetWindow>(kind === 'externallink' ? '_blank' : '_self');
  const [navClass, setNavClass] = useState('');
  const [url, setUrl] = useState('https://');
  const [target, setTarget] = useState<ExplorerItem | null>(null);
  const [targetMissing, setTargetMissing] = useState(false);

  const templateOptions = (templates.data ?? []).map((t) => ({
    id: t.name,
    label: t.label,
    description: t.description,
  }));
  // The parent's template is the natural default; otherwise the first one.
  const chosenTemplate =
    template ??
    (parentTemplate && templateOptions.some((o) => o.id === parentTemplate)
      ? parentTemplate
      : templateOptions[0]?.id) ??
    null;

  const handleTitle = (value: string) => {
    setTitle(value);
    if (!nameEdited) setName(nameFromTitle(value));
  };

  const itemOf = (): NewItem | null => {
    const trimmedTitle = title.trim();
    switch (kind) {
      case 'section':
        return chosenTemplate
          ? {
              kind,
              name,
              displayTitle: trimmedTitle,
              templateName: chosenTemplate,
              targetWindow,
              navClass: navClass.trim(),
            }
          : null;
      case 'sectionlink':
        return target ? { kind, name, displayTitle: trimmedTitle, targetWindow, targetPath: target.path } : null;
      case 'externallink':
        return { kind, name, displayTitle: trimmedTitle, targetWindow, url: url.trim() };
      case 'page':
        return chosenTemplate ? { kind, name, displayName: trimmedTitle, templateName: chosenTemplate } : null;
      default:
        return { kind, name };
    }
  };

  const handleSubmit = () => {
    if (kind === 'sectionlink' && !target) {
      setTargetMissing(true);
      return;
    }
    const item = itemOf();
    if (!item) return;
    create.mutate(
      { parent, item },
      {
        onSuccess: (created) => {
          toast.success(`Created ${KIND_LABEL[created.kind]} “${created.name}”`, `In “${labelOf(parent)}”.`);
          onClose();
          explorer.itemCreated(created);
        },
      },
    );
  };

  const error = create.error;
  const needsTemplates = hasTemplate && (templates.isPending || templates.isError || templateOptions.length === 0);
  return (
    <FormDialog
      isOpen
      onOpenChange={(open) => !open && onClose()}
      title={`${TITLES[kind]} in “${labelOf(parent)}”`}
      description={DESCRIPTIONS[kind]}
      submitLabel={`Create ${KIND_LABEL[kind]}`}
      onSubmit={handleSubmit}
      isPending={create.isPending}
      validationErrors={fieldErrorsOf(error, FIELDS, LABELS)}
      error={error && !(isApiError(error) && allFieldErrorsPlaced(error, FIELDS)) ? error : undefined}
    >
      {hasTitle && (
        <TextField
          label={kind === 'page' ? 'Display name' : 'Display title'}
          name="title"
          value={title}
          onChange={handleTitle}
          isRequired
          autoFocus
          maxLength={kind === 'page' ? 255 : 1000}
          description={
            kind === 'page' ? 'The page’s title as readers see it.' : 'The entry’s label in the site’s navigation.'
          }
        />
      )}
      <TextField
        label="Name"
        name="name"
        value={name}
        onChange={(value) => {
          setName(value);
          setNameEdited(true);
        }}
        isRequired
        autoFocus={!hasTitle}
        autoComplete="off"
        spellCheck="false"
        autoCapitalize="none"
        maxLength={255}
        description={`Part of the address: ${parent.path}/${name || '…'}`}
        validate={validateWith(ItemName, 'The name')}
      />
      {kind === 'externallink' && (
        <TextField
          label="URL"
          name="url"
          type="url"
          value={url}
          onChange={setUrl}
          isRequired
          description="An absolute address starting with http:// or https://."
          validate={(value) => {
            if (value === '' || value === 'https://' || value === 'http://')
              return 'Enter the address the link leads to.';
            return validateWith(ExternalUrl, 'The URL')(value.trim());
          }}
        />
      )}
      {kind === 'sectionlink' && (
        <div className="field">
          <span className="field__label" id="link-target-label">
            Target section <span className="field__required">*</span>
          </span>
          <ContainerPicker
            label="Target section"
            realm="sites"
            keep={(i) => i.kind === 'section'}
            selectedPath={target?.path ?? null}
            onSelect={(item) => {
              setTarget(item);
              setTargetMissing(false);
              if (!title) handleTitle(item.name);
            }}
            initiallyExpanded={parent.path}
          />
          <p className="field__description" role="status">
            {target ? `Leads to “${target.path}”.` : 'Choose a site or section in the tree above.'}
          </p>
          {targetMissing && <p className="field__error">Choose the section the link leads to.</p>}
        </div>
      )}
      {hasTemplate &&
        (needsTemplates ? (
          <InlineAlert tone={templates.isError ? 'danger' : 'info'} title="Templates">
            {templates.isPending
              ? 'Loading the templates…'
              : templates.isError
                ? 'Could not load the templates. Close the dialog and try again.'
                : 'There are no templates yet. An admin adds them under Templates.'}
          </InlineAlert>
        ) : (
          <Select
            label={kind === 'section' ? 'Landing page template' : 'Template'}
            name="template"
            options={templateOptions}
            value={chosenTemplate}
            onChange={setTemplate}
            isRequired
            description={
              kind === 'section'
                ? 'The section’s landing page (“index”) is made from it.'
                : 'Defines the page’s regions.'
            }
          />
        ))}
      {(kind === 'section' || kind === 'sectionlink' || kind === 'externallink') && (
        <Select
          label="Target window"
          name="targetWindow"
          options={TARGET_WINDOW_OPTIONS}
          value={targetWindow}
          onChange={setTargetWindow}
        />
      )}
      {kind === 'section' && (
        <TextField
          label="Navigation class"
          name="navClass"
          value={navClass}
          onChange={setNavClass}
          maxLength={255}
          description="Optional CSS class of the entry in the navigation."
        />
      )}
    </FormDialog>
  );
}
