import { MAX_TEMPLATE_REGIONS, type Template, type TemplatePutBody } from '../../../../shared/api/templates';
import type { WidgetType } from '../../../../shared/registry';
import type { FieldValues } from '../../../kit/fields-form';

/** A template widget in the editor: its type and content, keyed so its form survives moves. */
export interface WidgetValues {
  key: string;
  type: WidgetType;
  fields: FieldValues;
}

export interface RegionValues {
  name: string;
  /** The region's name as stored (null for a region added in this form): a different `name` renames it. */
  previousName: string | null;
  editable: boolean;
  /** The template's widgets of a fixed region (kept while it is marked as filled by pages, dropped on save). */
  widgets: WidgetValues[];
}

/** The template editor's form. */
export interface Values {
  label: string;
  name: string;
  description: string;
  regions: RegionValues[];
}

let widgetCount = 0;
/** A key for a widget new to this form (or read into it). */
export const newWidgetKey = () => `tw${++widgetCount}`;

/** A region added in the form: filled by pages, no widgets. */
export const newRegion = (): RegionValues => ({ name: '', previousName: null, editable: true, widgets: [] });

export const EMPTY: Values = {
  label: '',
  name: '',
  description: '',
  regions: [
    { name: 'header', previousName: null, editable: false, widgets: [] },
    { name: 'main', previousName: null, editable: true, widgets: [] },
    { name: 'footer', previousName: null, editable: false, widgets: [] },
  ],
};

/** The form's values for a stored template. */
export function valuesOf(t: Template): Values {
  return {
    label: t.label,
    name: t.name,
    description: t.description,
    regions: t.regions.map((r) => ({
      name: r.name,
      previousName: r.name,
      editable: r.editable,
      widgets: r.widgets.map((w) => ({ key: newWidgetKey(), type: w.type, fields: { ...w.asset.fields } })),
    })),
  };
}

/** A widget's fields as stored: unset ones ("" or null) left out. */
function setFields(fields: FieldValues): Record<string, string> {
  return Object.fromEntries(Object.entries(fields).filter((e): e is [string, string] => e[1] !== null && e[1] !== ''));
}

/** The PUT body of the form: regions in order, renamed ones with their previous name, fixed ones with widgets. */
export function bodyOf(values: Values): TemplatePutBody {
  return {
    label: values.label.trim(),
    description: values.description.trim(),
    regions: values.regions.map((r) => ({
      name: r.name,
      ...(r.previousName !== null && r.previousName !== r.name ? { previousName: r.previousName } : {}),
      editable: r.editable,
      widgets: r.editable
        ? []
        : r.widgets.map((w) => ({
            type: w.type,
            scope: 'template' as const,
            editable: false as const,
            asset: { fields: setFields(w.fields) },
          })),
    })),
  };
}

/**
 * Where "Add region" puts a new region unless the person chooses: before the fixed regions that close the
 * template (its footer), at the end when it ends with a region pages fill.
 */
export function defaultInsertIndex(regions: readonly Pick<RegionValues, 'editable'>[]): number {
  let at = regions.length;
  while (at > 1 && !regions[at - 1]!.editable) at--;
  return at;
}

/** The places a new region can go, as `index` (the position it takes) and words naming its neighbours. */
export function insertPlaces(names: readonly string[]): { index: number; label: string }[] {
  const named = (n: string, i: number) => `“${n || `region ${i + 1}`}”`;
  return names.length === 0
    ? [{ index: 0, label: 'First' }]
    : [
        { index: 0, label: `At the top, before ${named(names[0]!, 0)}` },
        ...names
          .slice(1)
          .map((n, i) => ({ index: i + 1, label: `Between ${named(names[i]!, i)} and ${named(n, i + 1)}` })),
        { index: names.length, label: `At the end, after ${named(names[names.length - 1]!, names.length - 1)}` },
      ];
}

type ServerField = { name: `regions.${number}.name` | 'label' | 'description' | 'name'; label: string };

/** The fields of the form that a 400's paths name. */
export const SERVER_FIELDS: Record<string, ServerField> = {
  'body.label': { name: 'label', label: 'The label' },
  'body.description': { name: 'description', label: 'The description' },
  'params.name': { name: 'name', label: 'The name' },
};
for (let i = 0; i < MAX_TEMPLATE_REGIONS; i++) {
  SERVER_FIELDS[`body.regions.${i}.name`] = { name: `regions.${i}.name`, label: 'The region name' };
}

/** The prefix of a 400's paths that name the fields of widget `j` of region `i`. */
export const widgetFieldsPath = (i: number, j: number) => `body.regions.${i}.widgets.${j}.asset.fields.`;
