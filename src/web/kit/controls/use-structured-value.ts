import { useRef, useState } from 'react';
import { canonicalJson, type Parsed } from './structured-values';

interface Snapshot<M> {
  /** The value from outside the model was read from. */
  source: string | null;
  parsed: Parsed<M>;
}

/**
 * The model a builder edits, kept in step with the field's value: read once from the value the form holds,
 * written back (`onChange`) only when the user edits, and read again only when a value arrives that the builder
 * did not write (the form was reset, a draft restored). When an edit leaves the JSON as stored (a change undone),
 * the stored string itself is written back, so the form sees the field unchanged.
 */
export function useStructuredValue<M>({
  value,
  onChange,
  parse,
  serialise,
}: {
  value: string | null;
  onChange: (value: string | null) => void;
  parse: (value: string | null) => Parsed<M>;
  /** The JSON to write, or null while the model cannot be written (the builder shows why). */
  serialise: (model: M) => string | null;
}) {
  const [snapshot, setSnapshot] = useState<Snapshot<M>>(() => ({ source: value, parsed: parse(value) }));
  // What the builder last wrote: when the form hands it back, there is nothing to read again.
  const written = useRef<string | null | undefined>(undefined);
  const latest = useRef(snapshot);

  // Read again only when the prop itself changes to something the builder did not write: a form that hands
  // the written value back a render late must not undo the user's edit.
  const [previousValue, setPreviousValue] = useState(value);
  let current = snapshot;
  if (value !== previousValue) {
    setPreviousValue(value);
    const expected = written.current === undefined ? snapshot.source : written.current;
    if (value !== expected) {
      current = { source: value, parsed: parse(value) };
      written.current = undefined;
      setSnapshot(current);
    }
  }
  latest.current = current;

  const commit = (model: M) => {
    const next: Snapshot<M> = { source: latest.current.source, parsed: { ok: true, model } };
    latest.current = next;
    setSnapshot(next);
    const text = serialise(model);
    if (text === null) return;
    const source = next.source;
    const out = source !== null && canonicalJson(source) === text ? source : text;
    const sent = written.current === undefined ? source : written.current;
    if (out === sent) return;
    written.current = out;
    onChange(out);
  };

  return {
    parsed: current.parsed,
    /** The value the model was read from (shown read-only when it cannot be edited). */
    source: current.source,
    /** Applies a user's edit to the model and writes the result. */
    update(edit: (model: M) => M) {
      const parsed = latest.current.parsed;
      if (parsed.ok) commit(edit(parsed.model));
    },
    /** Replaces whatever was there (the explicit "Start over") and writes it. */
    replace(model: M) {
      commit(model);
    },
  };
}
