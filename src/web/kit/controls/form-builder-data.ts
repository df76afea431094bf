import { z } from 'zod';
import {
  isPlainObject,
  listItemProblems,
  moveItem,
  newId,
  parseJson,
  type ListItem,
  type Parsed,
} from './structured-values';

// The `formdata` of a form asset (`cmsFormAsset`) as the form builder reads and writes it. The registry only says
// `{config: {…}, fields: […]}`; this module decides what an entry of `fields` is:
//
//   {"type": "email", "name": "email", "label": "Your e-mail", "required": true}
//   {"type": "select", "name": "topic", "label": "Topic", "required": false, "options": ["Sales", "Support"]}
//
// Anything else in the stored JSON is kept exactly: `config`, other keys of the root, keys of a field the
// builder does not know, and entries it cannot edit (an unknown type, or known keys holding something else).

/** The field types the builder edits, in the order of its "Add field" menu. */
export const FORM_FIELD_TYPES = ['text', 'email', 'textarea', 'number', 'checkbox', 'radio', 'select'] as const;
export const FormFieldType = z.enum(FORM_FIELD_TYPES);
export type FormFieldType = z.infer<typeof FormFieldType>;

/** What editors call each type, with a line saying what visitors get. */
export const FORM_FIELD_TYPE_INFO: Record<FormFieldType, { label: string; description: string }> = {
  text: { label: 'Short text', description: 'One line of text' },
  email: { label: 'E-mail', description: 'An e-mail address, checked as typed' },
  textarea: { label: 'Paragraph', description: 'Several lines of text' },
  number: { label: 'Number', description: 'A number' },
  checkbox: { label: 'Checkbox', description: 'A yes/no tick box' },
  radio: { label: 'Multiple choice', description: 'One answer from a list (radio buttons)' },
  select: { label: 'Drop-down', description: 'One answer from a drop-down list' },
};

/** Types whose entries carry `options`. */
export function hasOptions(type: FormFieldType): boolean {
  return type === 'radio' || type === 'select';
}

/** A field name as submissions carry it: a letter or _, then letters, digits or _. */
export const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * One entry of `fields` as the builder writes it. Keys it does not know are kept (`looseObject`); `options`
 * is there for radio groups and selects only.
 */
export const FormField = z
  .looseObject({
    type: FormFieldType,
    name: z.string().regex(FIELD_NAME),
    label: z.string().trim().min(1),
    required: z.boolean(),
    options: z.array(z.string().trim().min(1)).min(1).optional(),
  })
  .refine((f) => hasOptions(f.type) === (f.options !== undefined), {
    message: 'radio groups and selects have options; other types have none',
    path: ['options'],
  });
export type FormField = z.infer<typeof FormField>;

const isKnownType = (type: unknown): type is FormFieldType => FORM_FIELD_TYPES.includes(type as FormFieldType);

/**
 * The `formdata` the builder writes: `config` kept as it was, every entry of a known type a `FormField` with a
 * name no other entry has; entries of other types kept as they were.
 */
export const FormBuilderData = z.looseObject({
  config: z.record(z.string(), z.unknown()),
  fields: z
    .array(
      z.unknown().superRefine((entry, ctx) => {
        if (!isPlainObject(entry) || !isKnownType(entry.type)) return;
        const r = FormField.safeParse(entry);
        if (!r.success) for (const issue of r.error.issues) ctx.addIssue({ ...issue, code: 'custom' });
      }),
    )
    .superRefine((fields, ctx) => {
      const seen = new Set<string>();
      fields.forEach((f, i) => {
        if (!isPlainObject(f) || typeof f.name !== 'string') return;
        const key = f.name.toLowerCase();
        if (seen.has(key)) ctx.addIssue({ code: 'custom', message: `name "${f.name}" is taken`, path: [i, 'name'] });
        seen.add(key);
      });
    }),
});

/** A field the builder edits. */
export interface EditableField {
  type: FormFieldType;
  name: string;
  label: string;
  required: boolean;
  /** Kept while the type has no options, so switching to a text field and back loses nothing. */
  options: ListItem[];
}

/** An entry of `fields` on screen. */
export type FormEntry =
  | {
      id: string;
      kind: 'field';
      field: EditableField;
      /** The entry as stored (null for a new one): written back as it is until the user edits it. */
      source: Record<string, unknown> | null;
      isEdited: boolean;
      /** The name is made from the label until the user types a name (new fields only: renaming a stored
       *  field would cut it off from the answers already collected under its name). */
      nameFollowsLabel: boolean;
    }
  | { id: string; kind: 'other'; source: unknown };

export interface FormBuilderModel {
  /** The stored root object (`config` and any other key), written back around the new `fields`. */
  root: Record<string, unknown>;
  entries: FormEntry[];
}

const optional = (v: unknown, type: 'string' | 'boolean') => v === undefined || typeof v === type;

/** Reads one stored entry: editable when every key the builder knows holds what it expects. */
function readEntry(entry: unknown): FormEntry {
  const id = newId();
  if (
    !isPlainObject(entry) ||
    !isKnownType(entry.type) ||
    !optional(entry.name, 'string') ||
    !optional(entry.label, 'string') ||
    !optional(entry.required, 'boolean') ||
    !(
      entry.options === undefined ||
      (Array.isArray(entry.options) && entry.options.every((o) => typeof o === 'string'))
    )
  ) {
    return { id, kind: 'other', source: entry };
  }
  return {
    id,
    kind: 'field',
    source: entry,
    isEdited: false,
    nameFollowsLabel: false,
    field: {
      type: entry.type,
      name: (entry.name as string | undefined) ?? '',
      label: (entry.label as string | undefined) ?? '',
      required: (entry.required as boolean | undefined) ?? false,
      options: ((entry.options as string[] | undefined) ?? []).map((text) => ({ id: newId(), text })),
    },
  };
}

/** Reads a stored `formdata` (null = unset: an empty form). */
export function parseFormData(value: string | null): Parsed<FormBuilderModel> {
  if (value === null || value === '') return { ok: true, model: { root: {}, entries: [] } };
  const parsed = parseJson(value);
  if (!parsed.ok) return parsed;
  const json = parsed.json;
  if (!isPlainObject(json)) return { ok: false, reason: 'It is not a JSON object with a list of fields.' };
  if (!Array.isArray(json.fields)) return { ok: false, reason: 'It has no list of fields ("fields").' };
  if (json.config !== undefined && !isPlainObject(json.config))
    return { ok: false, reason: 'Its settings ("config") are not a JSON object.' };
  return { ok: true, model: { root: json, entries: json.fields.map(readEntry) } };
}

/** The stored form of one entry: as it was unless edited; edited ones keep the keys the builder does not know. */
function writeEntry(entry: FormEntry): unknown {
  if (entry.kind === 'other' || !entry.isEdited) return entry.source;
  const { type, name, label, required, options } = entry.field;
  const out: Record<string, unknown> = { ...(entry.source ?? {}), type, name, label, required };
  if (hasOptions(type)) out.options = options.map((o) => o.text);
  else delete out.options;
  return out;
}

/** Writes the model as `formdata` JSON. */
export function serialiseFormData(model: FormBuilderModel): string {
  const fields = model.entries.map(writeEntry);
  // `config` is required by the server: a stored value without one gets an empty one, placed first.
  const root = model.root.config === undefined ? { config: {}, ...model.root, fields } : { ...model.root, fields };
  return JSON.stringify(root);
}

/** A new field's name from its label: "Your e-mail" → "your_e_mail", unique among `taken`. */
export function nameFromLabel(label: string, taken: ReadonlySet<string>): string {
  let base = label
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 40)
    .replace(/_+$/, '');
  if (!base) base = 'field';
  if (/^\d/.test(base)) base = `field_${base}`;
  let name = base;
  for (let n = 2; taken.has(name.toLowerCase()); n += 1) name = `${base}_${n}`;
  return name;
}

/** The names of all entries but `exceptId`, lower-cased (names are told apart regardless of case). */
function takenNames(model: FormBuilderModel, exceptId?: string): Set<string> {
  const names = new Set<string>();
  for (const e of model.entries) {
    if (e.id === exceptId) continue;
    const name = e.kind === 'field' ? e.field.name : isPlainObject(e.source) ? e.source.name : undefined;
    if (typeof name === 'string' && name) names.add(name.toLowerCase());
  }
  return names;
}

/** Adds a field of `type` at the end (its name made from the label as it is typed); answers its id too. */
export function addField(model: FormBuilderModel, type: FormFieldType): { model: FormBuilderModel; id: string } {
  const id = newId();
  const entry: FormEntry = {
    id,
    kind: 'field',
    source: null,
    isEdited: true,
    nameFollowsLabel: true,
    field: {
      type,
      name: nameFromLabel('', takenNames(model)),
      label: '',
      required: false,
      options: hasOptions(type) ? [{ id: newId(), text: '' }] : [],
    },
  };
  return { model: { ...model, entries: [...model.entries, entry] }, id };
}

/** What `updateField` may change. */
export type FieldPatch = Partial<Pick<EditableField, 'type' | 'name' | 'label' | 'required' | 'options'>>;

/** Changes a field: a label change renames a new field whose name was not typed; a typed name stays. */
export function updateField(model: FormBuilderModel, id: string, patch: FieldPatch): FormBuilderModel {
  return {
    ...model,
    entries: model.entries.map((e) => {
      if (e.id !== id || e.kind !== 'field') return e;
      const field = { ...e.field, ...patch };
      let nameFollowsLabel = e.nameFollowsLabel;
      if (patch.name !== undefined) nameFollowsLabel = false;
      else if (patch.label !== undefined && nameFollowsLabel)
        field.name = nameFromLabel(patch.label, takenNames(model, id));
      // A type with options gets an empty one to fill in, rather than an error about having none.
      if (patch.type && hasOptions(patch.type) && field.options.length === 0)
        field.options = [{ id: newId(), text: '' }];
      return { ...e, field, isEdited: true, nameFollowsLabel };
    }),
  };
}

/** Moves the entry `id` by `delta` places (−1 up, +1 down). */
export function moveEntry(model: FormBuilderModel, id: string, delta: number): FormBuilderModel {
  const from = model.entries.findIndex((e) => e.id === id);
  return { ...model, entries: moveItem(model.entries, from, from + delta) };
}

/** Removes the entry `id`. */
export function removeEntry(model: FormBuilderModel, id: string): FormBuilderModel {
  return { ...model, entries: model.entries.filter((e) => e.id !== id) };
}

/** The problems of one field, shown beside its inputs. */
export interface FieldProblems {
  label?: string;
  name?: string;
  /** About the list of options as a whole. */
  options?: string;
  /** About single options, by option id. */
  option: Record<string, string>;
}

/** Every problem of the form, by entry id (entries without problems are left out). */
export function formBuilderProblems(model: FormBuilderModel): Map<string, FieldProblems> {
  const problems = new Map<string, FieldProblems>();
  // Every entry sharing a name is flagged, the one being typed in included (names differ regardless of case).
  const uses = new Map<string, number>();
  for (const e of model.entries) {
    const name = e.kind === 'field' ? e.field.name : isPlainObject(e.source) ? e.source.name : undefined;
    if (typeof name === 'string' && name) uses.set(name.toLowerCase(), (uses.get(name.toLowerCase()) ?? 0) + 1);
  }
  for (const e of model.entries) {
    if (e.kind !== 'field') continue;
    const { label, name, type, options } = e.field;
    const p: FieldProblems = { option: {} };
    if (label.trim() === '') p.label = 'Give the field a label.';
    if (name === '') p.name = 'Give the field a name.';
    else if (!FIELD_NAME.test(name)) p.name = 'Use letters, digits and _ only, and do not start with a digit.';
    else if ((uses.get(name.toLowerCase()) ?? 0) > 1) p.name = `Another field is also called “${name}”.`;
    if (hasOptions(type)) {
      if (options.length === 0) p.options = 'Add at least one option.';
      p.option = listItemProblems(options, 'option');
    }
    if (p.label || p.name || p.options || Object.keys(p.option).length) problems.set(e.id, p);
  }
  return problems;
}

/**
 * The form's check of a `formdata` value beyond the registry's: null when the builder has nothing to say,
 * otherwise one sentence naming the first problem (for the kit's form to block saving and show it).
 */
export function checkFormBuilderValue(value: string | null): string | null {
  if (value === null || value === '') return null;
  const parsed = parseFormData(value);
  if (!parsed.ok) return parsed.reason;
  const problems = formBuilderProblems(parsed.model);
  if (problems.size === 0) return null;
  const [id, p] = problems.entries().next().value!;
  const index = parsed.model.entries.findIndex((e) => e.id === id);
  const entry = parsed.model.entries[index]!;
  const name = entry.kind === 'field' && entry.field.label.trim() ? `“${entry.field.label.trim()}”` : `${index + 1}`;
  const message = p.label ?? p.name ?? p.options ?? Object.values(p.option)[0]!;
  const more = problems.size > 1 ? ` (${problems.size - 1} more field${problems.size > 2 ? 's' : ''} to fix)` : '';
  return `Field ${name}: ${message}${more}`;
}
