import {
  FieldError,
  Input,
  Label,
  Text,
  TextField as AriaTextField,
  type TextFieldProps as AriaTextFieldProps,
} from 'react-aria-components';
import type { Ref } from 'react';

export interface TextFieldProps extends Omit<AriaTextFieldProps, 'className' | 'children'> {
  label: string;
  description?: string;
  /** A server-side error for this field (shown until the value changes). Form-level errors use `<Form validationErrors>`. */
  errorMessage?: string;
  placeholder?: string;
  className?: string;
  /** The <input>, e.g. to move focus back to it after a failed submit. */
  inputRef?: Ref<HTMLInputElement>;
  /** Mobile keyboards: 'none' for user names and other identifiers. */
  autoCapitalize?: 'off' | 'none' | 'on' | 'sentences' | 'words' | 'characters';
}

/** Input settings for names, identifiers and addresses: no autocomplete, spelling or capitals. */
export const IDENTIFIER_INPUT = { autoComplete: 'off', spellCheck: 'false', autoCapitalize: 'none' } as const;

/** Labelled text input with description and inline error (react-aria: labels, aria-describedby, validation). */
export function TextField({
  label,
  description,
  errorMessage,
  placeholder,
  className,
  inputRef,
  autoCapitalize,
  ...props
}: TextFieldProps) {
  return (
    <AriaTextField
      {...props}
      isInvalid={errorMessage ? true : props.isInvalid}
      className={['field', className ?? ''].filter(Boolean).join(' ')}
    >
      <span className="field__label-row">
        <Label className="field__label">{label}</Label>
        {/* Outside the label, so the accessible name stays "Password"; aria-required says it is required. */}
        {props.isRequired && (
          <span className="field__required" aria-hidden="true">
            *
          </span>
        )}
      </span>
      <Input ref={inputRef} className="field__input" placeholder={placeholder} autoCapitalize={autoCapitalize} />
      {description && (
        <Text slot="description" className="field__description">
          {description}
        </Text>
      )}
      <FieldError className="field__error">{errorMessage}</FieldError>
    </AriaTextField>
  );
}
