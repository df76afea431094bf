import { useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { ComboBox, Input, Label, ListBox, ListBoxItem, Popover, Text, type Key } from 'react-aria-components';
import { CloseIcon } from './icons';

export interface TokenFieldProps {
  label: string;
  value: readonly string[];
  onChange: (value: string[]) => void;
  description?: string;
  errorMessage?: string;
  isReadOnly?: boolean;
  isRequired?: boolean;
  placeholder?: string;
  /** Values offered as the user types (those already chosen are left out). */
  suggestions?: readonly string[];
  /** Checks one token before it is added; answers why it cannot be, or null. */
  validate?: (token: string) => string | null;
  /** Receives the text input, so a form can focus the field. */
  inputRef?: (el: HTMLInputElement | null) => void;
}

/**
 * A list of short values (tags, categories, template names) as removable tokens: type and press Enter or a comma
 * to add one, Backspace in the empty input removes the last, each token has its own remove button; suggestions
 * open as the user types (arrow keys and Enter pick one). Duplicates are refused with a message.
 */
export function TokenField({
  label,
  value,
  onChange,
  description,
  errorMessage,
  isReadOnly,
  isRequired,
  placeholder,
  suggestions = [],
  validate,
  inputRef,
}: TokenFieldProps) {
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const input = useRef<HTMLInputElement | null>(null);
  const shownError = problem ?? errorMessage;
  const available = useMemo(() => {
    const taken = new Set(value.map((v) => v.toLowerCase()));
    const needle = text.trim().toLowerCase();
    return suggestions
      .filter((s) => !taken.has(s.toLowerCase()) && (needle === '' || s.toLowerCase().includes(needle)))
      .map((s) => ({ id: s, name: s }));
  }, [suggestions, value, text]);

  const add = (raw: string): boolean => {
    const token = raw.trim();
    if (!token) return false;
    if (value.some((v) => v.toLowerCase() === token.toLowerCase())) {
      setProblem(`“${token}” is in the list already.`);
      return false;
    }
    const invalid = validate?.(token);
    if (invalid) {
      setProblem(invalid);
      return false;
    }
    setProblem(null);
    onChange([...value, token]);
    setText('');
    return true;
  };

  const remove = (index: number) => {
    const removed = value[index];
    onChange(value.filter((_, i) => i !== index));
    setProblem(null);
    input.current?.focus();
    return removed;
  };

  const handleKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if ((event.key === 'Enter' || event.key === ',') && text.trim() !== '') {
      // Enter on a highlighted suggestion is the combo box's; otherwise the typed text becomes a token.
      const highlighted = event.currentTarget.getAttribute('aria-activedescendant');
      if (event.key === 'Enter' && highlighted) return;
      event.preventDefault();
      add(text);
    } else if (event.key === 'Backspace' && text === '' && value.length > 0) {
      event.preventDefault();
      remove(value.length - 1);
    }
  };

  const combo = (children: ReactNode) =>
    isReadOnly ? (
      <div className="field token-field">{children}</div>
    ) : (
      <ComboBox
        className="field token-field"
        data-invalid={shownError ? true : undefined}
        inputValue={text}
        onInputChange={(t) => {
          setText(t.replace(/,/g, ''));
          setProblem(null);
        }}
        selectedKey={null}
        onSelectionChange={(key: Key | null) => {
          if (key !== null) add(String(key));
        }}
        items={available}
        allowsCustomValue
        menuTrigger="input"
        isInvalid={Boolean(shownError)}
        isRequired={isRequired}
      >
        {children}
      </ComboBox>
    );

  return combo(
    <>
      <span className="field__label-row">
        <Label className="field__label">{label}</Label>
        {isRequired && (
          <span className="field__required" aria-hidden="true">
            *
          </span>
        )}
      </span>
      <div className="token-field__box" onClick={() => input.current?.focus()}>
        {value.length > 0 && (
          <ul className="token-field__tokens" aria-label={`${label}: ${value.length} chosen`}>
            {value.map((token, i) => (
              <li key={`${token}-${i}`} className="token-field__token">
                <span>{token}</span>
                {!isReadOnly && (
                  // A native button: inside a react-aria ComboBox, its Button would become the list's trigger.
                  <button
                    type="button"
                    className="token-field__remove"
                    aria-label={`Remove ${token}`}
                    onClick={(e) => {
                      e.stopPropagation();
                      remove(i);
                    }}
                  >
                    <CloseIcon />
                  </button>
                )}
              </li>
            ))}
          </ul>
        )}
        {!isReadOnly && (
          <Input
            ref={(el) => {
              input.current = el;
              inputRef?.(el);
            }}
            className="token-field__input"
            placeholder={value.length ? undefined : placeholder}
            onKeyDown={handleKeyDown}
            onBlur={() => text.trim() && add(text)}
          />
        )}
      </div>
      {description && (
        <Text slot="description" className="field__description">
          {description}
        </Text>
      )}
      {shownError && (
        <span className="field__error" role="alert">
          {shownError}
        </span>
      )}
      {!isReadOnly && (
        <Popover className="popover" offset={4}>
          <ListBox className="listbox">
            {(item: { id: string; name: string }) => (
              <ListBoxItem id={item.id} className="listbox__item" textValue={item.name}>
                {item.name}
              </ListBoxItem>
            )}
          </ListBox>
        </Popover>
      )}
    </>,
  );
}
