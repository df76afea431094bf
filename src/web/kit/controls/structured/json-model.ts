import { useRef, useState } from 'react';

/** The result of reading a stored JSON string into a builder's model. */
export type Parsed<M> = { ok: true; model: M } | { ok: false; message: string };

/**
 * A builder's model of a JSON field: read from `value` once (and again when a different value arrives from
 * outside), written back with `serialize` on every edit. A value the user did not touch is never re-serialised.
 */
export function useJsonModel<M>(
  value: string | null,
  parse: (json: string | null) => Parsed<M>,
  serialize: (model: M) => string,
  onChange: (value: string | null) => void,
): { parsed: Parsed<M>; update: (model: M) => void; startOver: (model: M) => void } {
  const last = useRef<string | null>(value);
  const [parsed, setParsed] = useState<Parsed<M>>(() => parse(value));
  if (value !== last.current) {
    // A new value from outside (a reset or reload): read it again.
    last.current = value;
    const next = parse(value);
    setParsed(next);
    return { parsed: next, update: () => {}, startOver: () => {} };
  }
  const update = (model: M) => {
    const json = serialize(model);
    last.current = json;
    setParsed({ ok: true, model });
    onChange(json);
  };
  return { parsed, update, startOver: update };
}

/** An object parsed from JSON, or a message saying why it is not one. */
export function parseObject(json: string | null): Parsed<Record<string, unknown>> {
  if (json === null || json.trim() === '') return { ok: true, model: {} };
  try {
    const v: unknown = JSON.parse(json);
    if (v === null || typeof v !== 'object' || Array.isArray(v)) {
      return { ok: false, message: 'The stored value is JSON, but not an object.' };
    }
    return { ok: true, model: v as Record<string, unknown> };
  } catch {
    return { ok: false, message: 'The stored value is not valid JSON.' };
  }
}

/** Moves the item at `from` to `to` (both in range). */
export function moveItem<T>(list: readonly T[], from: number, to: number): T[] {
  const next = [...list];
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item!);
  return next;
}
