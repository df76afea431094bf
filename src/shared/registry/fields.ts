import { z } from 'zod';

/**
 * How a field's value is written. Every value travels as a string (or null = unset), as the reference system
 * sends them; the format says which strings are valid.
 */
export type FieldFormat =
  | 'text' // any string
  | 'html' // an HTML string (sanitised before the SPA renders it)
  | 'date' // MM/DD/YYYY
  | 'datetime' // YYYY-MM-DD hh:mm:ss.s
  | 'number' // a number sent as a string: "10"
  | 'boolean' // "true" or "false"
  | 'url' // an absolute http(s) URL
  | 'json'; // a string holding JSON of the shape in `json`

/** Which form control edits the field in the admin app. */
export type EditorKind =
  | 'text'
  | 'textarea'
  | 'html'
  | 'code'
  | 'date'
  | 'datetime'
  | 'number-as-string'
  | 'boolean-as-string'
  | 'json-structured'
  | 'asset-path'
  | 'site-path'
  | 'url'
  // A list of template names, written comma-separated ("blog-post,news").
  | 'template-list';

/** What a `json-structured` field holds, and so which builder edits it. */
export type JsonStructure =
  | 'form' // a form's `{config, fields}`: the form builder
  | 'poll' // a poll's `{question, answerType, answerChoices}`: the poll editor
  | 'settings'; // a flat object of settings: a name/value editor

export interface FieldDef {
  key: string;
  label: string;
  format: FieldFormat;
  editor: EditorKind;
  /** Needed to create an asset of the type. */
  required?: boolean;
  /** For `json` fields: the shape the JSON must have. */
  json?: z.ZodType;
  /** For `json-structured` fields: which builder edits the JSON. */
  structure?: JsonStructure;
  /** For `text` fields with a fixed set of values. */
  options?: readonly string[];
  /** Names the item among others of its kind (a form's or poll's unique name): a copy gets a value of its own. */
  unique?: boolean;
  help?: string;
}

/**
 * Whether a field holds words someone wrote, which search finds and shows in snippets: free text, HTML and the
 * JSON of a form or poll (labels, questions, choices). Not a value picked from `options` (a heading level, a
 * layout), a number, date, flag, address or a path to another item.
 */
export function holdsWords(def: FieldDef): boolean {
  if (def.format === 'html' || def.format === 'json') return true;
  if (def.format !== 'text' || def.options) return false;
  return def.editor !== 'asset-path' && def.editor !== 'site-path' && def.editor !== 'template-list';
}

const DATE = /^(0[1-9]|1[0-2])\/(0[1-9]|[12]\d|3[01])\/\d{4}$/;
const DATETIME = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01]) ([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d{1,3})?$/;
const NUMBER = /^-?\d+(\.\d+)?$/;

function validDate(v: string): boolean {
  if (!DATE.test(v)) return false;
  const [m, d, y] = v.split('/').map(Number) as [number, number, number];
  const dt = new Date(Date.UTC(y, m - 1, d));
  return dt.getUTCMonth() === m - 1 && dt.getUTCDate() === d;
}

/** Checks one value against its field; answers an error message, or null when valid. */
export function checkFieldValue(def: FieldDef, value: unknown): string | null {
  if (value === null || value === undefined || value === '') return null; // unset
  if (typeof value !== 'string') return 'must be a string (or null)';
  switch (def.format) {
    case 'text':
    case 'html':
      if (def.options && !def.options.includes(value)) return `must be one of ${def.options.join(', ')}`;
      return null;
    case 'date':
      return validDate(value) ? null : 'must be a date of the form MM/DD/YYYY';
    case 'datetime':
      return DATETIME.test(value) && validDate(`${value.slice(5, 7)}/${value.slice(8, 10)}/${value.slice(0, 4)}`)
        ? null
        : 'must be a date and time of the form YYYY-MM-DD hh:mm:ss.s';
    case 'number':
      return NUMBER.test(value) ? null : 'must be a number written as a string, e.g. "10"';
    case 'boolean':
      return value === 'true' || value === 'false' ? null : 'must be "true" or "false"';
    case 'url':
      try {
        const u = new URL(value);
        return u.protocol === 'http:' || u.protocol === 'https:'
          ? null
          : 'must be a web address starting with https:// or http://';
      } catch {
        return 'must be a web address starting with https:// or http://';
      }
    case 'json': {
      let parsed: unknown;
      try {
        parsed = JSON.parse(value);
      } catch {
        return 'must be a string holding valid JSON';
      }
      if (!def.json) return null;
      const r = def.json.safeParse(parsed);
      return r.success
        ? null
        : `JSON is not of the expected shape: ${r.error.issues.map((i) => `${i.path.join('.') || '(root)'} ${i.message}`).join('; ')}`;
    }
  }
}

/** A field error of `validateFields`. */
export interface FieldProblem {
  key: string;
  message: string;
}

/**
 * Validates a `fields` map against field definitions: unknown keys, wrong formats, and (when `creating`)
 * missing required fields are problems.
 */
export function validateFields(
  defs: readonly FieldDef[],
  fields: Record<string, unknown>,
  creating: boolean,
): FieldProblem[] {
  const byKey = new Map(defs.map((d) => [d.key, d]));
  const problems: FieldProblem[] = [];
  for (const [key, value] of Object.entries(fields)) {
    const def = byKey.get(key);
    if (!def) {
      problems.push({ key, message: 'is not a field of this type' });
      continue;
    }
    const msg = checkFieldValue(def, value);
    if (msg) problems.push({ key, message: msg });
  }
  if (creating) {
    for (const def of defs) {
      const v = fields[def.key];
      if (def.required && (v === undefined || v === null || v === ''))
        problems.push({ key: def.key, message: 'is required' });
    }
  }
  return problems;
}
