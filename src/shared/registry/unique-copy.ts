import type { FieldDef } from './fields.js';

/** A value that ends in `-<number>`: the number a copy counts on from. */
const NUMBERED = /^(.*)-(\d+)$/;

/**
 * `value` made different from every one in `taken`, the way a person numbers copies: `contact-form` →
 * `contact-form-2`, and a copy of `contact-form-2` → `contact-form-3` (the first free number).
 */
export function nextUniqueValue(value: string, taken: ReadonlySet<string>): string {
  const numbered = NUMBERED.exec(value);
  const stem = numbered ? numbered[1]! : value;
  let n = numbered ? Number(numbered[2]) + 1 : 2;
  while (taken.has(`${stem}-${n}`)) n++;
  return `${stem}-${n}`;
}

/**
 * The fields of a copy of an item: each field marked `unique` that is set gets a value none of `others` holds
 * (`others`: the fields of the items it must differ from, the original among them); the rest are copied as they are.
 */
export function fieldsForCopy<V extends string | null>(
  defs: readonly FieldDef[],
  fields: Readonly<Record<string, V>>,
  others: readonly Readonly<Record<string, V>>[],
): Record<string, V | string> {
  const copy: Record<string, V | string> = { ...fields };
  for (const def of defs) {
    const value = fields[def.key];
    if (!def.unique || !value) continue;
    const taken = new Set(others.map((o) => o[def.key]).filter((v): v is V & string => Boolean(v)));
    copy[def.key] = nextUniqueValue(value, taken);
  }
  return copy;
}
