import type { FieldDef } from '../../shared/registry';

/** Something a form can move the keyboard focus to (the first invalid field, an outline entry). */
export interface Focusable {
  focus(): void;
}

/**
 * What every control of the kit receives: one field of the registry and its value as the server holds it.
 *
 * Values travel as strings (or null = unset). A control never rewrites a value the user did not change: it
 * shows `value` and calls `onChange` only when the user edits, so loading and saving an unchanged form sends
 * nothing. Each control renders its own label (`def.label`), help (`def.help`) and `errorMessage`.
 */
export interface FieldControlProps {
  def: FieldDef;
  value: string | null;
  onChange: (value: string | null) => void;
  /** When the control loses focus (the form shows "required" only after the user has been there). */
  onBlur?: () => void;
  /** The message to show under the field: a check as typed, or the server's answer. */
  errorMessage?: string;
  /** Shown, not editable (a linked shared asset, a Viewer). */
  isReadOnly?: boolean;
  /** Receives a handle that moves focus into the control (null when it unmounts). */
  focusRef?: (handle: Focusable | null) => void;
}
