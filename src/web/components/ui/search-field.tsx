import { Button as AriaButton, Input, Label, SearchField as AriaSearchField } from 'react-aria-components';
import { CloseIcon, SearchIcon } from './icons';

/** A labelled search box; Escape clears it (react-aria SearchField). */
export function SearchField({
  label,
  value,
  onChange,
  placeholder,
  autoFocus,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  placeholder?: string;
  autoFocus?: boolean;
}) {
  return (
    <AriaSearchField className="field search-field" value={value} onChange={onChange} autoFocus={autoFocus}>
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
