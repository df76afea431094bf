// Pure helpers shared by the json-structured builders' data modules (form, poll, settings).

/** What a builder makes of a stored JSON string: its model, or why it cannot edit it. */
export type Parsed<M> = { ok: true; model: M } | { ok: false; reason: string };

/** An item of an edited list (a choice, an option): the text and an id that follows it when the list is reordered. */
export interface ListItem {
  id: string;
  text: string;
}

let lastId = 0;
/** A new id for an item on screen (React keys and focus targets); never written to the server. */
export function newId(): string {
  lastId += 1;
  return `s${lastId}`;
}

/** True for `{…}` (not null, not an array). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Parses JSON, answering the reason in words when it is not JSON. */
export function parseJson(value: string): { ok: true; json: unknown } | { ok: false; reason: string } {
  try {
    return { ok: true, json: JSON.parse(value) };
  } catch (e) {
    return { ok: false, reason: `It is not valid JSON (${e instanceof Error ? e.message : String(e)}).` };
  }
}

/**
 * The string `JSON.stringify` would write for the same JSON, or null when `value` is not JSON. A builder
 * compares what it would write with this to hand back the stored string itself when nothing changed in
 * substance (spacing of the stored text included), so an edit undone leaves the field as it was.
 */
export function canonicalJson(value: string | null): string | null {
  if (value === null) return null;
  try {
    return JSON.stringify(JSON.parse(value));
  } catch {
    return null;
  }
}

/** The list with the item at `from` moved to `to` (a new array). */
export function moveItem<T>(list: readonly T[], from: number, to: number): T[] {
  if (to < 0 || to >= list.length || from === to) return [...list];
  const next = [...list];
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item!);
  return next;
}

/** Compares texts the way visitors would tell them apart: trimmed, case-insensitive. */
export function sameText(a: string, b: string): boolean {
  return a.trim().toLocaleLowerCase() === b.trim().toLocaleLowerCase();
}

/**
 * For each item, the problem a person would trip over in a list of texts (choices, options): an empty one, or
 * one that repeats an earlier one. Keyed by item id.
 */
export function listItemProblems(items: readonly ListItem[], noun: string): Record<string, string> {
  const problems: Record<string, string> = {};
  items.forEach((item, i) => {
    if (item.text.trim() === '') {
      problems[item.id] = `Write the ${noun} or remove it.`;
      return;
    }
    const first = items.findIndex((other) => sameText(other.text, item.text));
    if (first < i) problems[item.id] = `Same as ${noun} ${first + 1}.`;
  });
  return problems;
}
