import type { Ref } from 'react';
import {
  FieldError,
  Label,
  Text,
  TextArea as AriaTextArea,
  TextField as AriaTextField,
  type TextFieldProps as AriaTextFieldProps,
} from 'react-aria-components';

export interface TextAreaFieldProps extends Omit<AriaTextFieldProps, 'className' | 'children'> {
  label: string;
  description?: string;
  /** Shown under the field and marks it invalid. */
  errorMessage?: string;
  placeholder?: string;
  /** Visible lines before it scrolls (the user can resize it). */
  rows?: number;
  textAreaRef?: Ref<HTMLTextAreaElement>;
}

/** A labelled multi-line text input with description and inline error (react-aria TextField + TextArea). */
export function TextAreaField({
  label,
  description,
  errorMessage,
  placeholder,
  rows = 4,
  textAreaRef,
  ...props
}: TextAreaFieldProps) {
  return (
    <AriaTextField {...props} isInvalid={errorMessage ? true : props.isInvalid} className="field">
      <span className="field__label-row">
        <Label className="field__label">{label}</Label>
        {props.isRequired && (
          <span className="field__required" aria-hidden="true">
            *
          </span>
        )}
      </span>
      <AriaTextArea ref={textAreaRef} className="field__input field__textarea" placeholder={placeholder} rows={rows} />
      {description && (
        <Text slot="description" className="field__description">
          {description}
        </Text>
      )}
      <FieldError className="field__error">{errorMessage}</FieldError>
    </AriaTextField>
  );
}
