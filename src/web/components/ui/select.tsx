import {
  Button as AriaButton,
  FieldError,
  Label,
  ListBox,
  ListBoxItem,
  Popover,
  Select as AriaSelect,
  SelectValue,
  Text,
  type Key,
} from 'react-aria-components';
import { CheckIcon, ChevronDownIcon } from './icons';

export interface SelectOption<K extends string> {
  id: K;
  label: string;
  /** Second line in the list, e.g. what a role may do. */
  description?: string;
}

export interface SelectProps<K extends string> {
  label: string;
  options: readonly SelectOption<K>[];
  value: K | null;
  onChange: (value: K) => void;
  description?: string;
  errorMessage?: string;
  name?: string;
  isRequired?: boolean;
  isDisabled?: boolean;
  autoFocus?: boolean;
  /** 'aria' when a form library checks the value (react-hook-form); native form validation otherwise. */
  validationBehavior?: 'aria' | 'native';
  /** The label names the select for assistive technology only (its value says what it is, e.g. "Every type"). */
  isLabelHidden?: boolean;
}

/** A labelled single-choice list (react-aria Select: a button opening a listbox, type-ahead, form value). */
export function Select<K extends string>({
  label,
  options,
  value,
  onChange,
  description,
  errorMessage,
  isLabelHidden,
  ...props
}: SelectProps<K>) {
  return (
    <AriaSelect
      {...props}
      className="field"
      value={value}
      onChange={(key: Key | null) => {
        if (key !== null) onChange(String(key) as K);
      }}
      isInvalid={Boolean(errorMessage)}
    >
      <Label className={isLabelHidden ? 'field__label visually-hidden' : 'field__label'}>{label}</Label>
      <AriaButton className="select__button">
        <SelectValue className="select__value">
          {({ selectedText, isPlaceholder }) => (isPlaceholder ? 'Choose…' : selectedText)}
        </SelectValue>
        <ChevronDownIcon className="select__chevron" />
      </AriaButton>
      {description && (
        <Text slot="description" className="field__description">
          {description}
        </Text>
      )}
      <FieldError className="field__error">{errorMessage}</FieldError>
      <Popover className="popover" offset={4}>
        <ListBox className="listbox" items={options}>
          {(option) => (
            <ListBoxItem id={option.id} textValue={option.label} className="listbox__item">
              {({ isSelected }) => (
                <>
                  <span className="listbox__check">{isSelected && <CheckIcon />}</span>
                  <span className="listbox__text">
                    <Text slot="label">{option.label}</Text>
                    {option.description && (
                      <Text slot="description" className="listbox__description">
                        {option.description}
                      </Text>
                    )}
                  </span>
                </>
              )}
            </ListBoxItem>
          )}
        </ListBox>
      </Popover>
    </AriaSelect>
  );
}
