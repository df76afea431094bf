import { Controller, type Control, type FieldPath, type FieldValues, type RegisterOptions } from 'react-hook-form';
import { Select, type SelectProps } from './select';
import { TextAreaField, type TextAreaFieldProps } from './text-area';
import { TextField, type TextFieldProps } from './text-field';

/*
 * The app's fields bound to a react-hook-form form: the form holds the value and checks it (`rules`), the field
 * shows the value, the error and — with `isRequired` — the required mark and aria-required. Errors from the server
 * are put on fields with `form.setError` (see lib/form-errors.ts).
 */

type Rules<T extends FieldValues, N extends FieldPath<T>> = Omit<
  RegisterOptions<T, N>,
  'valueAsNumber' | 'valueAsDate' | 'setValueAs' | 'disabled'
>;

/** A `TextField` (a `TextAreaField` with `rows`) whose value and error live in a react-hook-form form. */
export function FormTextField<T extends FieldValues, N extends FieldPath<T>>({
  control,
  name,
  rules,
  onValueChange,
  rows,
  ...props
}: Omit<TextFieldProps & TextAreaFieldProps, 'value' | 'onChange' | 'name' | 'errorMessage' | 'validate'> & {
  control: Control<T>;
  name: N;
  rules?: Rules<T, N>;
  /** Hears every edit (after the form took it), e.g. to derive another field. */
  onValueChange?: (value: string) => void;
  /** Several lines: a text area this many lines high. */
  rows?: number;
}) {
  return (
    <Controller
      control={control}
      name={name}
      rules={rules}
      render={({ field, fieldState }) => {
        const bound = {
          ...props,
          name: field.name,
          value: (field.value as string | undefined) ?? '',
          onChange: (value: string) => {
            field.onChange(value);
            onValueChange?.(value);
          },
          onBlur: field.onBlur,
          errorMessage: fieldState.error?.message,
          // The form checks the value; aria-required and aria-invalid tell assistive technology.
          validationBehavior: 'aria' as const,
        };
        return rows ? (
          <TextAreaField {...bound} rows={rows} textAreaRef={field.ref} />
        ) : (
          <TextField {...bound} inputRef={field.ref} />
        );
      }}
    />
  );
}

/** A `Select` whose value and error live in a react-hook-form form. */
export function FormSelect<T extends FieldValues, N extends FieldPath<T>, K extends string>({
  control,
  name,
  rules,
  ...props
}: Omit<SelectProps<K>, 'value' | 'onChange' | 'name' | 'errorMessage'> & {
  control: Control<T>;
  name: N;
  rules?: Rules<T, N>;
}) {
  return (
    <Controller
      control={control}
      name={name}
      rules={rules}
      render={({ field, fieldState }) => (
        <Select<K>
          {...props}
          name={field.name}
          value={(field.value as K | null | undefined) ?? null}
          onChange={(value) => field.onChange(value)}
          errorMessage={fieldState.error?.message}
          validationBehavior="aria"
        />
      )}
    />
  );
}
