import type { KeyboardEvent } from 'react';
import { Button as AriaButton, Input, Label, SearchField as AriaSearchField } from 'react-aria-components';
import { CloseIcon, SearchIcon } from './icons';

/**
 * A labelled search box; Escape clears it (react-aria SearchField). A list it drives from the keyboard names
 * itself with `aria-controls` and its highlighted entry with `aria-activedescendant`.
 */
export function SearchField({
  label,
  value,
  onChange,
  placeholder,
  autoFocus,
  onKeyDown,
  ...aria
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  placeholder?: string;
  autoFocus?: boolean;
  onKeyDown?: (event: KeyboardEvent) => void;
  'aria-controls'?: string;
  'aria-activedescendant'?: string;
  'aria-describedby'?: string;
}) {
  return (
    <AriaSearchField
      className="field search-field"
      value={value}
      onChange={onChange}
      autoFocus={autoFocus}
      onKeyDown={onKeyDown}
      {...aria}
    >
      <Label className="field__label visually-hidden">{label}</Label>
      <div className="search-field__box">
        <SearchIcon className="search-field__icon" />
        <Input className="field__input search-field__input" placeholder={placeholder} />
        {value && (
          <AriaButton className="search-field__clear" aria-label="Clear search">
            <CloseIcon />
          </AriaButton>
        )}
      </div>
    </AriaSearchField>
  );
}
