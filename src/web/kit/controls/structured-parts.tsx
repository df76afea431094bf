import {
  useCallback,
  useEffect,
  useRef,
  useState,
  type FocusEvent,
  type KeyboardEvent,
  type ReactNode,
  type Ref,
} from 'react';
import {
  Button as AriaButton,
  FieldError,
  Input,
  ListBox,
  ListBoxItem,
  Popover,
  Select as AriaSelect,
  SelectValue,
  TextField as AriaTextField,
  type Key,
} from 'react-aria-components';
import { Button } from '../../components/ui/button';
import { CheckIcon, ChevronDownIcon } from '../../components/ui/icons';
import { InlineAlert } from '../../components/ui/inline-alert';
import './structured.css';

/** How long a focus request waits for its element to appear. */
const FOCUS_WAIT_MS = 1000;

// Parts the json-structured builders share: focus targets of a list that re-renders, inputs inside list rows,
// announcements, and the notice for a stored value a builder cannot read (reordering is in `reorder.tsx`).

/** Whether a mouse button, finger or pen is down right now (tracked for `afterPointerRelease`). */
let pointerIsDown = false;
if (typeof window !== 'undefined') {
  window.addEventListener('pointerdown', () => (pointerIsDown = true), true);
  window.addEventListener('pointerup', () => (pointerIsDown = false), true);
  window.addEventListener('pointercancel', () => (pointerIsDown = false), true);
}

/**
 * Runs `show` (which makes an error appear under a field that lost focus) once any press under way has ended.
 * A blur caused by pressing a button below the field would otherwise push that button down between pointer
 * down and up, and the press is lost: "Add choice" after leaving an empty choice did nothing.
 */
export function afterPointerRelease(show: () => void): void {
  if (!pointerIsDown) {
    show();
    return;
  }
  const run = () => {
    window.removeEventListener('pointerup', run, true);
    window.removeEventListener('pointercancel', run, true);
    // After the press's own handlers (react-aria presses on pointer up, the click follows it).
    setTimeout(show, 0);
  };
  window.addEventListener('pointerup', run, true);
  window.addEventListener('pointercancel', run, true);
}

/**
 * Elements a list can move the focus to after it re-renders (a moved item's button, a new item's input),
 * registered by key. A move re-inserts DOM nodes, which drops the focus; this puts it back.
 */
export function useFocusTargets() {
  // Several elements per key: react-aria renders some subtrees twice (a hidden copy to build its collections),
  // and the copy's elements are never connected to the page.
  const targets = useRef(new Map<string, Set<HTMLElement>>());
  // Keys to focus, until one is there or a moment has passed (a tab panel mounts its content a commit later
  // than the list that asked; a focus wanted long ago must not jump in when something unrelated appears).
  const pending = useRef<{ keys: readonly string[]; until: number } | null>(null);
  const [request, setRequest] = useState(0);

  const tryFocus = useCallback(() => {
    const p = pending.current;
    if (!p) return;
    if (Date.now() > p.until) {
      pending.current = null;
      return;
    }
    for (const key of p.keys) {
      const el = [...(targets.current.get(key) ?? [])].find((e) => e.isConnected && !e.hasAttribute('disabled'));
      if (el) {
        pending.current = null;
        el.focus();
        return;
      }
    }
  }, []);

  const register = useCallback(
    (key: string) => (el: HTMLElement | null) => {
      if (!el) return;
      const set = targets.current.get(key) ?? new Set<HTMLElement>();
      targets.current.set(key, set.add(el));
      // After the whole commit has attached its elements, so the first key asked for wins over a later one.
      if (pending.current) queueMicrotask(tryFocus);
      return () => {
        set.delete(el);
        if (set.size === 0 && targets.current.get(key) === set) targets.current.delete(key);
      };
    },
    [tryFocus],
  );

  useEffect(() => {
    if (request) tryFocus();
  }, [request, tryFocus]);

  return {
    /** A ref callback that records the element under `key`. */
    register,
    /** After the next render, focuses the first of `keys` that exists and is enabled. */
    focusLater: (...keys: string[]) => {
      pending.current = { keys, until: Date.now() + FOCUS_WAIT_MS };
      setRequest((n) => n + 1);
    },
  };
}

/** A blur handler that calls `onBlur` only when the focus leaves the element, not when it moves inside it. */
export function blurWithin(onBlur: (() => void) | undefined) {
  return (event: FocusEvent<HTMLElement>) => {
    if (onBlur && !event.currentTarget.contains(event.relatedTarget as Node | null)) onBlur();
  };
}

/** A polite live region and the function that says something in it (moves, additions, removals). */
export function useAnnouncer() {
  const [message, setMessage] = useState({ text: '', n: 0 });
  return {
    announce: (text: string) => setMessage((m) => ({ text, n: m.n + 1 })),
    // A zero-width space alternates so that saying the same sentence twice ("Moved to position 2 of 3.")
    // is still a change the screen reader announces.
    region: (
      <div className="visually-hidden" aria-live="polite" aria-atomic="true">
        {message.text}
        {message.n % 2 ? '\u200b' : ''}
      </div>
    ),
  };
}

/** A text input inside a list row: named by `aria-label` (the row says what it is), with its error under it. */
export function InlineTextInput({
  label,
  value,
  onChange,
  onBlur,
  onKeyDown,
  errorMessage,
  placeholder,
  isReadOnly,
  inputRef,
  inputMode,
  className,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  onBlur?: () => void;
  onKeyDown?: (event: KeyboardEvent) => void;
  errorMessage?: string;
  placeholder?: string;
  isReadOnly?: boolean;
  inputRef?: Ref<HTMLInputElement>;
  inputMode?: 'text' | 'decimal';
  className?: string;
}) {
  return (
    <AriaTextField
      aria-label={label}
      value={value}
      onChange={onChange}
      onBlur={onBlur}
      onKeyDown={onKeyDown}
      isReadOnly={isReadOnly}
      isInvalid={Boolean(errorMessage)}
      className={['field', 'inline-input', className ?? ''].filter(Boolean).join(' ')}
    >
      <Input ref={inputRef} className="field__input" placeholder={placeholder} inputMode={inputMode} />
      <FieldError className="field__error">{errorMessage}</FieldError>
    </AriaTextField>
  );
}

/** A select inside a list row, named by `aria-label` (the app's Select has a visible label). */
export function InlineSelect<K extends string>({
  label,
  options,
  value,
  onChange,
  isDisabled,
}: {
  label: string;
  options: readonly { id: K; label: string }[];
  value: K;
  onChange: (value: K) => void;
  isDisabled?: boolean;
}) {
  return (
    <AriaSelect
      aria-label={label}
      value={value}
      onChange={(key: Key | null) => {
        if (key !== null) onChange(String(key) as K);
      }}
      isDisabled={isDisabled}
      className="field inline-select"
    >
      <AriaButton className="select__button">
        {/* The selected text only: by default SelectValue repeats the whole item, check mark included. */}
        <SelectValue className="select__value">{({ selectedText }) => selectedText}</SelectValue>
        <ChevronDownIcon className="select__chevron" />
      </AriaButton>
      <Popover className="popover" offset={4}>
        <ListBox className="listbox" items={options}>
          {(option) => (
            <ListBoxItem id={option.id} textValue={option.label} className="listbox__item">
              {({ isSelected }) => (
                <>
                  <span className="listbox__check">{isSelected && <CheckIcon />}</span>
                  <span className="listbox__text">{option.label}</span>
                </>
              )}
            </ListBoxItem>
          )}
        </ListBox>
      </Popover>
    </AriaSelect>
  );
}

/**
 * A stored value the builder cannot read: said so, shown as it is (read-only), kept until the user explicitly
 * starts over. Never dropped on its own.
 */
export function StoredValueProblem({
  subject,
  reason,
  value,
  isReadOnly,
  onStartOver,
  startOverRef,
  startOverLabel,
}: {
  /** What the field holds, as the sentence's subject ("This form", "These settings"). */
  subject: string;
  reason: string;
  value: string;
  isReadOnly?: boolean;
  onStartOver: () => void;
  startOverRef?: Ref<HTMLButtonElement>;
  /** What starting over gives ("an empty form"). */
  startOverLabel: string;
}) {
  return (
    <div className="stored-problem">
      <InlineAlert tone="danger" title={`${subject} cannot be edited here`}>
        <p>
          {reason} It is kept unchanged below
          {isReadOnly ? '.' : <>; “Start over” replaces it with {startOverLabel} when you save.</>}
        </p>
      </InlineAlert>
      <pre className="stored-problem__value" tabIndex={0} role="region" aria-label="Stored value">
        {value}
      </pre>
      {!isReadOnly && (
        <div>
          <Button variant="secondary" onPress={onStartOver} ref={startOverRef}>
            Start over
          </Button>
        </div>
      )}
    </div>
  );
}

/** The message shown when a list is empty, with what to do. */
export function EmptyList({ children }: { children: ReactNode }) {
  return <p className="empty-list">{children}</p>;
}
