import { parseObject, type Parsed } from './json-model';

/** How a setting's value is kept: its JSON type. Objects and lists are kept as they are, not edited. */
export type SettingKind = 'text' | 'number' | 'boolean' | 'kept';

export interface Setting {
  id: string;
  name: string;
  kind: SettingKind;
  value: unknown;
}

let nextId = 0;
export const newSettingId = () => `s${++nextId}`;

export function kindOf(value: unknown): SettingKind {
  if (typeof value === 'string') return 'text';
  if (typeof value === 'number') return 'number';
  if (typeof value === 'boolean') return 'boolean';
  return 'kept';
}

/** Reads a flat object of settings. */
export function parseSettings(json: string | null): Parsed<Setting[]> {
  const obj = parseObject(json);
  if (!obj.ok) return obj;
  return {
    ok: true,
    model: Object.entries(obj.model).map(([name, value]) => ({ id: newSettingId(), name, kind: kindOf(value), value })),
  };
}

/** The settings back to JSON, in their order. */
export function serializeSettings(settings: readonly Setting[]): string {
  return JSON.stringify(Object.fromEntries(settings.map((s) => [s.name, s.value])));
}

/** A value converted to another kind ("10" → 10, anything → its text). */
export function convertValue(value: unknown, kind: SettingKind): unknown {
  if (kind === 'text')
    return value === null || value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);
  if (kind === 'number') {
    const n = Number(value);
    return Number.isFinite(n) ? n : 0;
  }
  if (kind === 'boolean') return value === true || value === 'true' || value === 1;
  return value;
}

/** What is wrong with one setting, in words. */
export function settingProblem(s: Setting, all: readonly Setting[]): string | null {
  if (s.name.trim() === '') return 'Give the setting a name.';
  if (all.some((o) => o.id !== s.id && o.name === s.name)) return `Another setting is named “${s.name}”.`;
  return null;
}
