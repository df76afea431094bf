import { z } from 'zod';
import { parseObject, type Parsed } from './json-model';

/** The field types the form builder makes. */
export const FORM_FIELD_TYPES = ['text', 'email', 'textarea', 'number', 'checkbox', 'radio', 'select'] as const;
export type FormFieldType = (typeof FORM_FIELD_TYPES)[number];

export const FORM_FIELD_TYPE_LABEL: Record<FormFieldType, string> = {
  text: 'Text',
  email: 'E-mail',
  textarea: 'Long text',
  number: 'Number',
  checkbox: 'Checkbox',
  radio: 'Radio group',
  select: 'Drop-down list',
};

/** Types whose field offers a list of options. */
export const TYPES_WITH_OPTIONS: readonly FormFieldType[] = ['radio', 'select'];

/**
 * One field of a form's `formdata.fields`, as the builder writes it: `{type, name, label, required, options?}`.
 * Keys it does not know are kept on the object as they were.
 */
export const FormField = z
  .object({
    type: z.enum(FORM_FIELD_TYPES),
    name: z.string(),
    label: z.string(),
    required: z.boolean().optional(),
    options: z.array(z.string()).optional(),
  })
  .passthrough();
export type FormField = z.infer<typeof FormField>;

/** An entry of `fields`: a field the builder edits, or one it keeps as it is (an unknown kind). */
export type FieldEntry = { id: string; known: true; field: FormField } | { id: string; known: false; raw: unknown };

/** The builder's model of `formdata`: the object as stored (config and any more members) and its fields. */
export interface FormModel {
  rest: Record<string, unknown>;
  fields: FieldEntry[];
}

let nextId = 0;
/** An id for React keys and focus (never stored). */
export const newId = () => `f${++nextId}`;

/** Reads `formdata` (`{config, fields}`) into the builder's model. */
export function parseFormData(json: string | null): Parsed<FormModel> {
  const obj = parseObject(json);
  if (!obj.ok) return obj;
  // `rest` keeps every member in its place (`fields` too: it is replaced where it stands when written back).
  const rest = { ...obj.model };
  const fields = rest.fields;
  if (fields !== undefined && !Array.isArray(fields)) return { ok: false, message: '“fields” is not a list.' };
  if (!('config' in rest)) rest.config = {};
  return {
    ok: true,
    model: {
      rest,
      fields: ((fields as unknown[] | undefined) ?? []).map((raw) => {
        const f = FormField.safeParse(raw);
        return f.success ? { id: newId(), known: true, field: f.data } : { id: newId(), known: false, raw };
      }),
    },
  };
}

/** The builder's model back to `formdata` JSON (members in their first order, `fields` where it was). */
export function serializeFormData(model: FormModel): string {
  return JSON.stringify({ ...model.rest, fields: model.fields.map((e) => (e.known ? e.field : e.raw)) });
}

const NAME = /^[A-Za-z][A-Za-z0-9_-]*$/;

/** A field name suggested from its label ("Your e-mail" → "your_e_mail"). */
export function nameFromLabel(label: string): string {
  const base = label
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  return /^[a-z]/.test(base) ? base : base ? `field_${base}` : '';
}

/** What is wrong with one field, in words (empty when nothing). */
export function fieldProblems(field: FormField, all: readonly FieldEntry[], id: string): string[] {
  const out: string[] = [];
  if (field.label.trim() === '') out.push('Give the field a label.');
  if (!NAME.test(field.name)) out.push('The name starts with a letter and holds letters, digits, "_" or "-".');
  else if (all.some((e) => e.id !== id && e.known && e.field.name === field.name)) {
    out.push(`Another field is named “${field.name}”.`);
  }
  if (TYPES_WITH_OPTIONS.includes(field.type)) {
    const options = (field.options ?? []).map((o) => o.trim()).filter(Boolean);
    if (options.length < 2) out.push('Give at least two options.');
    if (new Set(options).size !== options.length) out.push('Each option appears once.');
  }
  return out;
}
