import type { KeyboardEvent } from 'react';
import { Select, type SelectOption } from '../../components/ui/select';
import { Switch } from '../../components/ui/switch';
import { TextAreaField } from '../../components/ui/text-area';
import { TextField } from '../../components/ui/text-field';
import type { FieldControlProps } from '../field-control';

/** The input handle of a react-aria field, passed to the form so it can focus the field. */
function inputRef(props: FieldControlProps) {
  return (el: HTMLInputElement | HTMLTextAreaElement | null) => props.focusRef?.(el);
}

/** `text`: one line of text. */
export function TextControl(props: FieldControlProps) {
  const { def, value, onChange, onBlur, errorMessage, isReadOnly } = props;
  return (
    <TextField
      label={def.label}
      description={def.help}
      name={def.key}
      value={value ?? ''}
      onChange={onChange}
      onBlur={onBlur}
      isRequired={def.required}
      isReadOnly={isReadOnly}
      errorMessage={errorMessage}
      inputRef={inputRef(props)}
    />
  );
}

const NOT_SET = '';

/** `text` with `options`: a choice among fixed values; "Not set" clears it unless it is required. */
export function OptionsControl(props: FieldControlProps) {
  const { def, value, onChange, errorMessage, isReadOnly } = props;
  const options: SelectOption<string>[] = (def.options ?? []).map((o) => ({ id: o, label: o }));
  if (!def.required) options.unshift({ id: NOT_SET, label: 'Not set' });
  // A value outside the options (older content) stays visible and selected rather than silently dropped.
  if (value && !def.options?.includes(value)) {
    options.push({ id: value, label: value, description: 'Not one of the choices: saving it is refused' });
  }
  return (
    <Select
      label={def.label}
      description={def.help}
      name={def.key}
      options={options}
      value={value ?? (def.required ? null : NOT_SET)}
      onChange={(id) => onChange(id === NOT_SET ? null : id)}
      isRequired={def.required}
      isDisabled={isReadOnly}
      errorMessage={errorMessage}
    />
  );
}

/** `textarea`: several lines of plain text. */
export function TextareaControl(props: FieldControlProps) {
  const { def, value, onChange, onBlur, errorMessage, isReadOnly } = props;
  return (
    <TextAreaField
      label={def.label}
      description={def.help}
      name={def.key}
      value={value ?? ''}
      onChange={onChange}
      onBlur={onBlur}
      isRequired={def.required}
      isReadOnly={isReadOnly}
      errorMessage={errorMessage}
      textAreaRef={inputRef(props)}
    />
  );
}

/** `url`: an absolute http(s) address, checked as typed. */
export function UrlControl(props: FieldControlProps) {
  const { def, value, onChange, onBlur, errorMessage, isReadOnly } = props;
  return (
    <TextField
      label={def.label}
      description={def.help ?? 'An address starting with https:// or http://.'}
      name={def.key}
      type="url"
      placeholder="https://"
      value={value ?? ''}
      onChange={onChange}
      onBlur={onBlur}
      isRequired={def.required}
      isReadOnly={isReadOnly}
      errorMessage={errorMessage}
      inputRef={inputRef(props)}
    />
  );
}

const INTEGER = /^-?\d+$/;

/**
 * `number-as-string`: a number kept exactly as written ("10", "2.50"): a text input, so nothing is reformatted,
 * with ↑/↓ stepping whole numbers as in a number field.
 */
export function NumberControl(props: FieldControlProps) {
  const { def, value, onChange, onBlur, errorMessage, isReadOnly } = props;
  const handleKeyDown = (event: KeyboardEvent) => {
    if (isReadOnly || (event.key !== 'ArrowUp' && event.key !== 'ArrowDown')) return;
    const current = value ?? '';
    if (current !== '' && !INTEGER.test(current)) return;
    event.preventDefault();
    const n = current === '' ? 0 : Number(current);
    onChange(String(event.key === 'ArrowUp' ? n + 1 : n - 1));
  };
  return (
    <div onKeyDown={handleKeyDown}>
      <TextField
        label={def.label}
        description={def.help ?? 'A number; ↑ and ↓ step it by one.'}
        name={def.key}
        inputMode="decimal"
        value={value ?? ''}
        onChange={onChange}
        onBlur={onBlur}
        isRequired={def.required}
        isReadOnly={isReadOnly}
        errorMessage={errorMessage}
        inputRef={inputRef(props)}
      />
    </div>
  );
}

/** `boolean-as-string`: a switch writing "true" or "false" (unset reads as off until it is switched). */
export function BooleanControl(props: FieldControlProps) {
  const { def, value, onChange, errorMessage, isReadOnly } = props;
  return (
    <div className="field">
      <Switch
        name={def.key}
        isSelected={value === 'true'}
        onChange={(on) => onChange(on ? 'true' : 'false')}
        isReadOnly={isReadOnly}
        inputRef={(el: HTMLInputElement | null) => props.focusRef?.(el)}
      >
        {def.label}
      </Switch>
      {def.help && <span className="field__description">{def.help}</span>}
      {errorMessage && (
        <span className="field__error" role="alert">
          {errorMessage}
        </span>
      )}
    </div>
  );
}
