/*
 * What another save changed, for the conflict dialog: rows of "this field was X, they made it Y" (and "you made
 * it Z" when the same field changed on both sides); the history's comparison of two versions uses the same rows. Generic over flat records; editors add their own rows for
 * what is not a flat field (widgets of a page, see features/pages).
 */

/** One thing the other save changed. */
export interface ConflictRow {
  /** Stable id of the row (a field key, a widget id). */
  key: string;
  /** Heading the row is listed under ("Properties", "Region main"). */
  group: string;
  /** What changed, for people ("Display name", "Rich text widget"). */
  label: string;
  kind: 'changed' | 'added' | 'removed' | 'moved';
  /** Their value (in the history: the later version's), as text (whole: the changed words are marked against `before`). */
  theirs: string;
  /** The value before both edits, as text. */
  before?: string;
  /** My value when I changed the same thing (a real collision). */
  yours?: string;
}

/** One field compared by `diffFields`. */
export interface DiffField<R> {
  key: string;
  label: string;
  group?: string;
  /** Reads the field from a record (defaults to `record[key]`). */
  read?: (record: R) => unknown;
}

/**
 * A value as readable text, whole (the conflict dialog and the history show the whole difference): HTML as its
 * text (with `keepBlocks`, one line per paragraph, heading or list item), lists joined.
 */
export function fullValue(value: unknown, keepBlocks = false): string {
  if (value === null || value === undefined || value === '') return '(empty)';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (Array.isArray(value)) return value.length ? value.map((v) => fullValue(v)).join(', ') : '(none)';
  if (typeof value === 'object') {
    const parts = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== null && v !== undefined && v !== '')
      .map(([k, v]) => `${k}: ${fullValue(v)}`);
    return parts.length ? parts.join('; ') : '(empty)';
  }
  return textOf(String(value), keepBlocks) || '(empty)';
}

/** Where a block of HTML ends: a line of its text. */
const BLOCK_END = /<\/(p|h[1-6]|li|blockquote|pre|div|tr|figcaption)\s*>|<br\s*\/?>/gi;

/**
 * The readable text of HTML (tags dropped, entities of the common kind read, spaces collapsed); with
 * `keepBlocks`, each block (paragraph, heading, list item…) on a line of its own.
 */
export function textOf(html: string, keepBlocks = false): string {
  const lines = keepBlocks ? html.replace(BLOCK_END, '\n').split('\n') : [html];
  return lines
    .map((line) => inlineText(line))
    .filter((line) => line.length > 0)
    .join('\n');
}

function inlineText(html: string): string {
  if (!/[<&]/.test(html)) return html.replace(/\s+/g, ' ').trim();
  return html
    .replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Whether two values are the same for a save ("" and null both mean unset; arrays and objects by content). */
export function sameValue(a: unknown, b: unknown): boolean {
  const norm = (v: unknown) => (v === '' || v === undefined ? null : v);
  return JSON.stringify(norm(a)) === JSON.stringify(norm(b));
}

/**
 * Rows for the fields the other save changed (`base` → `theirs`), each with my value when I changed it too
 * (`base` → `mine`). Fields only I changed are not listed: overwriting keeps them either way. Without `mine`
 * (the history: one version against another), only what changed from `base` to `theirs`. `show` writes a value.
 */
export function diffFields<R>(
  fields: readonly DiffField<R>[],
  base: R,
  theirs: R,
  mine?: R,
  defaultGroup = 'Properties',
  show: (value: unknown) => string = fullValue,
): ConflictRow[] {
  const rows: ConflictRow[] = [];
  for (const f of fields) {
    const read = f.read ?? ((r: R) => (r as Record<string, unknown>)[f.key]);
    const b = read(base);
    const t = read(theirs);
    if (sameValue(b, t)) continue;
    const m = mine === undefined ? b : read(mine);
    rows.push({
      key: f.key,
      group: f.group ?? defaultGroup,
      label: f.label,
      kind: 'changed',
      before: show(b),
      theirs: show(t),
      yours: sameValue(b, m) ? undefined : show(m),
    });
  }
  return rows;
}
