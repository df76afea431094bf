import { parseDate, type CalendarDate } from '@internationalized/date';
import { memo, useId, useState } from 'react';
import type { FieldDef } from '../../../../shared/registry';
import { DatePicker } from '../../../components/ui/date-picker';
import { Select, type SelectOption } from '../../../components/ui/select';
import { Switch } from '../../../components/ui/switch';
import { TextAreaField } from '../../../components/ui/text-area';
import { TextField } from '../../../components/ui/text-field';
import { TokenField } from '../../../components/ui/token-field';
import { FieldControl } from '../../../kit/field-control-for';
import { useTemplates } from '../../../lib/queries/templates';
import type { Page, RegionInput } from '../../../../shared/api/pages';
import type { PageProps } from '../lib/editor-doc';
import { TemplateSwitchDialog } from './template-switch-dialog';

/** A page date (`YYYY-MM-DD` or an ISO date-time) as the picker's date; null when unset or unreadable. */
function dateOf(value: string | null): CalendarDate | null {
  if (!value) return null;
  try {
    return parseDate(value.slice(0, 10));
  } catch {
    return null;
  }
}

/** A date field of the page: keeps a stored date-time until the user picks another day. */
function PageDateField({
  label,
  description,
  value,
  onChange,
  isReadOnly,
  errorMessage,
}: {
  label: string;
  description: string;
  value: string | null;
  onChange: (value: string | null) => void;
  isReadOnly: boolean;
  errorMessage?: string;
}) {
  return (
    <DatePicker
      label={label}
      description={description}
      value={dateOf(value)}
      onChange={(d) => onChange(d ? d.toString() : null)}
      isReadOnly={isReadOnly}
      errorMessage={errorMessage}
    />
  );
}

const codeDef = (key: string, label: string, help: string): FieldDef => ({
  key,
  label,
  format: 'html',
  editor: 'code',
  help,
});
const CODE_FIELDS = [
  codeDef('codeHead', 'Code in <head>', 'Meta tags, styles or scripts added to the page’s <head>.'),
  codeDef(
    'codeAfterStart',
    'Code after <body> starts',
    'Added right after the opening <body> tag (e.g. a tag manager).',
  ),
  codeDef('codeBeforeClose', 'Code before </body>', 'Added just before the closing </body> tag (e.g. scripts).'),
] as const;

/**
 * The page's properties: display name, summary, template (switching asks where each region's content goes and
 * what is dropped), search engine settings, calendar dates, code snippets and the post date.
 */
/** Memoised: a keystroke in a widget does not draw the properties again. */
export const PropertiesPanel = memo(function PropertiesPanel({
  page,
  props,
  onChange,
  isReadOnly,
  isDirty,
  onSwitchTemplate,
  isSwitching,
}: {
  page: Page;
  props: PageProps;
  onChange: (next: PageProps) => void;
  isReadOnly: boolean;
  /** Unsaved changes: the template can only be switched once they are saved. */
  isDirty: boolean;
  /** Switches the template, moving content as `body` says (the template switch dialog's choice). */
  onSwitchTemplate: (templateName: string, body?: RegionInput[]) => Promise<boolean>;
  isSwitching: boolean;
}) {
  const templates = useTemplates();
  const [nextTemplate, setNextTemplate] = useState<string | null>(null);
  const seoId = useId();
  const calendarId = useId();
  const codeId = useId();
  const set =
    <K extends keyof PageProps>(key: K) =>
    (value: PageProps[K]) =>
      onChange({ ...props, [key]: value });

  const options: SelectOption<string>[] = (templates.data ?? []).map((t) => ({
    id: t.name,
    label: t.label,
    description: t.description,
  }));
  if (!options.some((o) => o.id === page.templateName))
    options.push({ id: page.templateName, label: page.templateName });

  const endBeforeStart = Boolean(
    props.startDate && props.endDate && props.endDate.slice(0, 10) < props.startDate.slice(0, 10),
  );

  return (
    <div className="properties-panel">
      <section className="card properties-panel__card">
        <h2 className="card__title">Page</h2>
        <TextField
          label="Display name"
          value={props.displayName}
          onChange={set('displayName')}
          isReadOnly={isReadOnly}
          isRequired
          maxLength={255}
          errorMessage={props.displayName.trim() === '' ? 'The display name must not be empty.' : undefined}
          description="The page’s title in lists, navigation and the browser (unless a browser title is set)."
        />
        <TextAreaField
          label="Summary"
          value={props.summary}
          onChange={set('summary')}
          isReadOnly={isReadOnly}
          rows={3}
          description="A sentence or two for lists of pages and search results."
        />
        <div className="properties-panel__template">
          <Select
            label="Template"
            options={options}
            value={page.templateName}
            onChange={(name) => {
              if (name !== page.templateName) setNextTemplate(name);
            }}
            isDisabled={isReadOnly || isDirty || isSwitching}
            description={
              isDirty
                ? 'Save or discard your changes before switching the template.'
                : 'Sets the page’s regions. Switching asks where their content goes.'
            }
          />
        </div>
        <PageDateField
          label="Post date"
          description="Shown as the page’s date instead of the day it was created (e.g. for imported pages)."
          value={props.overridePostDate}
          onChange={set('overridePostDate')}
          isReadOnly={isReadOnly}
        />
      </section>

      <section className="card properties-panel__card" aria-labelledby={seoId}>
        <h2 id={seoId} className="card__title">
          Search engines
        </h2>
        <TextField
          label="Browser title"
          value={props.browserTitle}
          onChange={set('browserTitle')}
          isReadOnly={isReadOnly}
          maxLength={500}
          description="The title in the browser tab and search results; the display name when empty."
        />
        <TextAreaField
          label="Meta description"
          value={props.metaDescription}
          onChange={set('metaDescription')}
          isReadOnly={isReadOnly}
          rows={2}
          maxLength={2000}
          description="The snippet search engines show under the title (about 150 characters)."
        />
        <Switch isSelected={props.hideSearch} onChange={set('hideSearch')} isReadOnly={isReadOnly}>
          Hide from search
        </Switch>
        <TokenField
          label="Tags"
          value={props.tags}
          onChange={set('tags')}
          isReadOnly={isReadOnly}
          description="Type a tag and press Enter or a comma."
          validate={(t) => (t.length > 255 ? 'A tag has at most 255 characters.' : null)}
        />
        <TokenField
          label="Categories"
          value={props.categories}
          onChange={set('categories')}
          isReadOnly={isReadOnly}
          description="Type a category and press Enter or a comma."
          validate={(t) => (t.length > 255 ? 'A category has at most 255 characters.' : null)}
        />
      </section>

      <section className="card properties-panel__card" aria-labelledby={calendarId}>
        <h2 id={calendarId} className="card__title">
          Calendar
        </h2>
        <div className="properties-panel__pair">
          <PageDateField
            label="Start date"
            description="When the page appears in calendars."
            value={props.startDate}
            onChange={set('startDate')}
            isReadOnly={isReadOnly}
          />
          <PageDateField
            label="End date"
            description="After this day the page counts as expired."
            value={props.endDate}
            onChange={set('endDate')}
            isReadOnly={isReadOnly}
            errorMessage={endBeforeStart ? 'The end date is before the start date.' : undefined}
          />
        </div>
      </section>

      <section className="card properties-panel__card" aria-labelledby={codeId}>
        <h2 id={codeId} className="card__title">
          Code snippets
        </h2>
        {CODE_FIELDS.map((def) => (
          <FieldControl
            key={def.key}
            def={def}
            value={props[def.key as 'codeHead'] || null}
            onChange={(v) => set(def.key as 'codeHead')(v ?? '')}
            isReadOnly={isReadOnly}
          />
        ))}
      </section>

      {nextTemplate !== null && (
        <TemplateSwitchDialog
          page={page}
          templateName={nextTemplate}
          target={templates.data?.find((t) => t.name === nextTemplate)}
          isPending={isSwitching}
          onSwitch={(name, body) => {
            void onSwitchTemplate(name, body).then((ok) => {
              if (ok) setNextTemplate(null);
            });
          }}
          onClose={() => setNextTemplate(null)}
        />
      )}
    </div>
  );
});
