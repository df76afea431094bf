import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Controller, useForm, type UseFormReturn } from 'react-hook-form';
import type { FieldError } from '../../shared/api/errors';
import { checkFieldValue, type FieldDef } from '../../shared/registry';
import { checkStructuredValue } from './controls/structured-checks';
import { FieldControl } from './field-control-for';
import './kit.css';

/** The values of an asset's or widget's fields: every value a string, or null when unset (as the server holds them). */
export type FieldValues = Record<string, string | null>;

const isEmpty = (v: string | null | undefined) => v === null || v === undefined || v === '';

/** Whether two values differ for the server: "" and null both mean unset. */
function differs(a: string | null | undefined, b: string | null | undefined): boolean {
  return isEmpty(a) ? !isEmpty(b) : a !== b;
}

/**
 * The message a field shows for a value, or null: the server's own check, in a sentence that names the field.
 * A builder's stricter check (a poll needs two answers) applies to values the user edited, so content stored
 * before keeps saving as it did.
 */
export function fieldProblem(
  def: FieldDef,
  value: string | null,
  mustBeSet: boolean,
  startValue?: string | null,
): string | null {
  if (isEmpty(value)) return mustBeSet ? `${def.label} is required.` : null;
  const message = checkFieldValue(def, value);
  if (message) return `${def.label} ${message}.`;
  if (def.editor === 'json-structured' && value !== startValue) return checkStructuredValue(def.structure, value);
  return null;
}

/** What `useFieldsForm` answers: the form state and what saving needs from it. */
export interface FieldsFormController {
  form: UseFormReturn<FieldValues>;
  defs: readonly FieldDef[];
  /** A new asset: required fields must be filled. */
  creating: boolean;
  /** The values the form started from (what the server holds). */
  start: FieldValues;
  /** Fields that differ from the values the form started from: exactly what an update sends. */
  changes(): FieldValues;
  /** Every set field (what a create sends). */
  values(): FieldValues;
  /** True when something differs from the start values (reactive). */
  isDirty: boolean;
  /** Checks every field as the server would; focuses the first invalid one; true when all pass. */
  validate(): Promise<boolean>;
  /**
   * Puts a 400's field errors on the fields they name (`<prefix><key>`, e.g. `fields.` for an asset PUT);
   * answers the errors that name no field of the form.
   */
  showServerErrors(errors: readonly FieldError[], prefix: string): FieldError[];
  /** Starts again from new values (after a save, or a reload of the other version). */
  reset(values: FieldValues): void;
}

/**
 * The form state of one set of fields from the registry (an asset type's fields, a widget's local settings).
 * `creating`: a new asset, so required fields must be filled; when editing, a required field that has a value
 * cannot be emptied (the server refuses to unset it).
 */
export function useFieldsForm({
  defs,
  initial,
  creating = false,
}: {
  defs: readonly FieldDef[];
  initial: FieldValues;
  creating?: boolean;
}): FieldsFormController {
  const startValues = useMemo(() => valuesFor(defs, initial), [defs, initial]);
  const [start, setStart] = useState(startValues);
  // `changes()` reads the start values here: `reset` fires the form's watchers before the new state renders, and
  // they must already see no change (the asset editor kept a draft of a value just saved).
  const startNow = useRef(startValues);
  const form = useForm<FieldValues>({ defaultValues: startValues, mode: 'onChange' });
  const watched = form.watch();
  const isDirty = defs.some((d) => differs(watched[d.key], start[d.key]));

  const changes = useCallback((): FieldValues => {
    const now = form.getValues();
    const out: FieldValues = {};
    const from = startNow.current;
    for (const d of defs) if (differs(now[d.key], from[d.key])) out[d.key] = isEmpty(now[d.key]) ? null : now[d.key]!;
    return out;
  }, [defs, form]);

  const values = useCallback((): FieldValues => {
    const now = form.getValues();
    const out: FieldValues = {};
    for (const d of defs) if (!isEmpty(now[d.key])) out[d.key] = now[d.key]!;
    return out;
  }, [defs, form]);

  const validate = useCallback(() => form.trigger(undefined, { shouldFocus: true }), [form]);

  const showServerErrors = useCallback(
    (errors: readonly FieldError[], prefix: string) => {
      const keys = new Set(defs.map((d) => d.key));
      const rest: FieldError[] = [];
      let focused = false;
      for (const e of errors) {
        const key = e.path.startsWith(prefix) ? e.path.slice(prefix.length) : null;
        if (key === null || !keys.has(key)) {
          rest.push(e);
          continue;
        }
        const label = defs.find((d) => d.key === key)!.label;
        form.setError(key, { type: 'server', message: `${label} ${e.message}.` }, { shouldFocus: !focused });
        focused = true;
      }
      return rest;
    },
    [defs, form],
  );

  const reset = useCallback(
    (next: FieldValues) => {
      const v = valuesFor(defs, next);
      startNow.current = v;
      setStart(v);
      form.reset(v);
    },
    [defs, form],
  );

  return { form, defs, creating, start, changes, values, isDirty, validate, showServerErrors, reset };
}

function valuesFor(defs: readonly FieldDef[], initial: FieldValues): FieldValues {
  const out: FieldValues = {};
  for (const d of defs) out[d.key] = initial[d.key] ?? null;
  return out;
}

/**
 * The form of a set of fields: one control per field, in registry order, each checked as the user types with
 * the server's own rules (`checkFieldValue`), required ones when left empty. `onValuesChange` hears every edit
 * with the fields changed so far (the page editor keeps drafts with it).
 */
export function FieldsForm({
  controller,
  isReadOnly,
  onValuesChange,
  className,
}: {
  controller: FieldsFormController;
  isReadOnly?: boolean;
  onValuesChange?: (changes: FieldValues) => void;
  className?: string;
}) {
  const { form, defs, creating, start } = controller;

  useEffect(() => {
    if (!onValuesChange) return;
    const subscription = form.watch(() => onValuesChange(controller.changes()));
    return () => subscription.unsubscribe();
  }, [form, onValuesChange, controller]);

  return (
    <div className={['fields-form', className ?? ''].filter(Boolean).join(' ')}>
      {defs.map((def) => {
        // Required to create; when editing, only a required field that holds a value must keep one.
        const mustBeSet = Boolean(def.required) && (creating || !isEmpty(start[def.key]));
        return (
          <Controller
            key={def.key}
            control={form.control}
            name={def.key}
            rules={{ validate: (v: string | null) => fieldProblem(def, v, mustBeSet, start[def.key]) ?? true }}
            render={({ field, fieldState }) => (
              <div className="fields-form__field" data-field={def.key} data-editor={def.editor}>
                <FieldControl
                  def={mustBeSet === Boolean(def.required) ? def : { ...def, required: mustBeSet }}
                  value={field.value ?? null}
                  onChange={(v) => field.onChange(v)}
                  onBlur={field.onBlur}
                  errorMessage={fieldState.error?.message}
                  isReadOnly={isReadOnly}
                  focusRef={field.ref}
                />
              </div>
            )}
          />
        );
      })}
    </div>
  );
}
