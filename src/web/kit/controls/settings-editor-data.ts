import { isPlainObject, newId, parseJson, type Parsed } from './structured-values';

// A flat JSON object of settings (the comments form's `formdata`): {"moderated": true, "maxLength": 500,
// "title": "Comments"}. Texts, numbers and true/false are edited with their JSON type; lists, objects and null
// are shown and kept as they are.

/** How a setting's value is edited. `json`: a list, object or null, shown read-only and kept. */
export type SettingKind = 'text' | 'number' | 'boolean' | 'json';

/** The kinds a user may give a value (a `json` value keeps its own). */
export const EDITABLE_KINDS = ['text', 'number', 'boolean'] as const satisfies readonly SettingKind[];

export const SETTING_KIND_LABELS: Record<(typeof EDITABLE_KINDS)[number], string> = {
  text: 'Text',
  number: 'Number',
  boolean: 'True/false',
};

export interface SettingRow {
  id: string;
  name: string;
  kind: SettingKind;
  /** The value as typed (text and number rows). */
  text: string;
  /** The value of a true/false row. */
  bool: boolean;
  /** The stored value (undefined for a new row): written as it is until the row's value is edited. */
  source: unknown;
  isEdited: boolean;
}

export interface SettingsModel {
  rows: SettingRow[];
}

/** A number as JSON writes it: "10", "-2.5", "1e+21". */
const NUMBER = /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/;

function kindOf(value: unknown): SettingKind {
  if (typeof value === 'string') return 'text';
  if (typeof value === 'number') return 'number';
  if (typeof value === 'boolean') return 'boolean';
  return 'json';
}

/** A row for a stored setting. */
function readRow(name: string, value: unknown): SettingRow {
  return {
    id: newId(),
    name,
    kind: kindOf(value),
    text: typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '',
    bool: value === true,
    source: value,
    isEdited: false,
  };
}

/** A new, empty text setting. */
export function newSetting(): SettingRow {
  return { id: newId(), name: '', kind: 'text', text: '', bool: false, source: undefined, isEdited: true };
}

/** Reads a stored settings object (null = unset: no settings). */
export function parseSettings(value: string | null): Parsed<SettingsModel> {
  if (value === null || value === '') return { ok: true, model: { rows: [] } };
  const parsed = parseJson(value);
  if (!parsed.ok) return parsed;
  if (!isPlainObject(parsed.json)) return { ok: false, reason: 'It is not a JSON object of settings.' };
  return { ok: true, model: { rows: Object.entries(parsed.json).map(([name, v]) => readRow(name, v)) } };
}

/** Changes a row's kind, carrying the value over where it means the same ("true" ↔ true, "10" ↔ 10). */
export function changeKind(row: SettingRow, kind: (typeof EDITABLE_KINDS)[number]): SettingRow {
  if (row.kind === kind || row.kind === 'json') return row;
  const text = row.kind === 'boolean' ? String(row.bool) : row.text;
  return {
    ...row,
    kind,
    text,
    bool: kind === 'boolean' ? text.trim().toLowerCase() === 'true' : row.bool,
    isEdited: true,
  };
}

/** The problems of each row, by row id: the name and the value. */
export function settingsProblems(model: SettingsModel): Map<string, { name?: string; value?: string }> {
  const problems = new Map<string, { name?: string; value?: string }>();
  model.rows.forEach((row, i) => {
    const p: { name?: string; value?: string } = {};
    if (row.name === '') p.name = 'Give the setting a name.';
    else if (model.rows.findIndex((r) => r.name === row.name) < i) p.name = `Another setting is called “${row.name}”.`;
    if (row.kind === 'number' && !NUMBER.test(row.text.trim())) p.value = 'Write a number, like 10 or 2.5.';
    if (p.name || p.value) problems.set(row.id, p);
  });
  return problems;
}

function valueOf(row: SettingRow): unknown {
  if (!row.isEdited) return row.source;
  switch (row.kind) {
    case 'text':
      return row.text;
    case 'number':
      return Number(row.text.trim());
    case 'boolean':
      return row.bool;
    case 'json':
      return row.source;
  }
}

/**
 * Writes the settings as a JSON object, or answers null while they cannot be written as one: a setting
 * without a name, two with the same name, or a number that is not one. The editor then shows the problem and
 * keeps the last value it wrote.
 */
export function serialiseSettings(model: SettingsModel): string | null {
  if (settingsProblems(model).size > 0) return null;
  // fromEntries defines own properties, so a setting called "__proto__" stays a setting.
  return JSON.stringify(Object.fromEntries(model.rows.map((r) => [r.name, valueOf(r)])));
}

/** The form's check of a settings value beyond the registry's: null when fine, otherwise one sentence. */
export function checkSettingsValue(value: string | null): string | null {
  if (value === null || value === '') return null;
  const parsed = parseSettings(value);
  return parsed.ok ? null : parsed.reason;
}
