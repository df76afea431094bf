import { useEffect, useRef, type ReactNode } from 'react';
import { Button } from '../../../components/ui/button';
import { ArrowDownIcon, ArrowUpIcon, PlusIcon, TrashIcon } from '../../../components/ui/icons';
import { TextField } from '../../../components/ui/text-field';
import { moveItem } from './json-model';

/**
 * Move up, Move down and Remove for one item of a list, named after the item. After a move the same button of
 * the moved item keeps the focus (`focusKey` tells the list which one), so keyboard users can keep moving it.
 */
export function ItemActions({
  name,
  index,
  count,
  onMove,
  onRemove,
  isReadOnly,
  registerButton,
}: {
  /** The item in words ("the field “Your name”"). */
  name: string;
  index: number;
  count: number;
  onMove: (from: number, to: number, button: 'up' | 'down') => void;
  onRemove: () => void;
  isReadOnly?: boolean;
  registerButton?: (which: 'up' | 'down', el: HTMLButtonElement | null) => void;
}) {
  if (isReadOnly) return null;
  return (
    <span className="struct__item-actions">
      <Button
        size="sm"
        variant="quiet"
        iconOnly
        aria-label={`Move ${name} up`}
        isDisabled={index === 0}
        onPress={() => onMove(index, index - 1, 'up')}
        ref={(el) => registerButton?.('up', el)}
      >
        <ArrowUpIcon />
      </Button>
      <Button
        size="sm"
        variant="quiet"
        iconOnly
        aria-label={`Move ${name} down`}
        isDisabled={index === count - 1}
        onPress={() => onMove(index, index + 1, 'down')}
        ref={(el) => registerButton?.('down', el)}
      >
        <ArrowDownIcon />
      </Button>
      <Button size="sm" variant="quiet" iconOnly aria-label={`Remove ${name}`} onPress={onRemove}>
        <TrashIcon />
      </Button>
    </span>
  );
}

/** Focus bookkeeping for lists whose items move: the button to focus after the next render. */
export function useMoveFocus() {
  const buttons = useRef(new Map<string, HTMLButtonElement>());
  const pending = useRef<string | null>(null);
  useEffect(() => {
    if (!pending.current) return;
    const el = buttons.current.get(pending.current);
    pending.current = null;
    // A button that became disabled at the end of the list hands the focus to its sibling.
    if (el && !el.disabled) el.focus();
    else if (el) (el.parentElement?.querySelector('button:not([disabled])') as HTMLButtonElement | null)?.focus();
  });
  return {
    register: (id: string) => (which: 'up' | 'down', el: HTMLButtonElement | null) => {
      const key = `${id}:${which}`;
      if (el) buttons.current.set(key, el);
      else buttons.current.delete(key);
    },
    focusAfterRender: (id: string, which: 'up' | 'down') => {
      pending.current = `${id}:${which}`;
    },
  };
}

/** A list of short texts (a field's options, a poll's answers): edit, add, reorder and remove them. */
export function StringListEditor({
  label,
  itemLabel,
  items,
  onChange,
  isReadOnly,
  addLabel,
  newId,
}: {
  /** Name of the list ("Options of “Topic”"). */
  label: string;
  /** Name of one item ("Option"); numbered in its label. */
  itemLabel: string;
  items: readonly { id: string; text: string }[];
  onChange: (items: { id: string; text: string }[]) => void;
  isReadOnly?: boolean;
  addLabel: string;
  newId: () => string;
}) {
  const focus = useMoveFocus();
  const inputs = useRef(new Map<string, HTMLInputElement>());
  const toFocus = useRef<string | null>(null);
  useEffect(() => {
    if (!toFocus.current) return;
    inputs.current.get(toFocus.current)?.focus();
    toFocus.current = null;
  });
  return (
    <div className="struct__list" role="group" aria-label={label}>
      <ol className="struct__strings">
        {items.map((item, i) => (
          <li key={item.id} className="struct__string">
            <TextField
              label={`${itemLabel} ${i + 1}`}
              value={item.text}
              isReadOnly={isReadOnly}
              onChange={(text) => onChange(items.map((x) => (x.id === item.id ? { ...x, text } : x)))}
              inputRef={(el) => {
                if (el) inputs.current.set(item.id, el);
                else inputs.current.delete(item.id);
              }}
              onKeyDown={(e) => {
                // Enter adds the next item below, as in a list elsewhere.
                if (e.key === 'Enter' && !isReadOnly) {
                  e.preventDefault();
                  const id = newId();
                  const next = [...items];
                  next.splice(i + 1, 0, { id, text: '' });
                  toFocus.current = id;
                  onChange(next);
                }
              }}
            />
            <ItemActions
              name={`${itemLabel.toLowerCase()} ${i + 1}${item.text ? ` (“${item.text}”)` : ''}`}
              index={i}
              count={items.length}
              isReadOnly={isReadOnly}
              registerButton={focus.register(item.id)}
              onMove={(from, to, which) => {
                focus.focusAfterRender(item.id, which);
                onChange(moveItem(items, from, to));
              }}
              onRemove={() => {
                const next = items.filter((x) => x.id !== item.id);
                toFocus.current = next[Math.min(i, next.length - 1)]?.id ?? null;
                onChange(next);
              }}
            />
          </li>
        ))}
      </ol>
      {!isReadOnly && (
        <Button
          size="sm"
          onPress={() => {
            const id = newId();
            toFocus.current = id;
            onChange([...items, { id, text: '' }]);
          }}
        >
          <PlusIcon /> {addLabel}
        </Button>
      )}
    </div>
  );
}

/** The stored JSON cannot be read: say so, show it, and offer to start over (explicitly). */
export function UnreadableJson({
  message,
  json,
  onStartOver,
  isReadOnly,
  what,
}: {
  message: string;
  json: string | null;
  onStartOver: () => void;
  isReadOnly?: boolean;
  what: string;
}): ReactNode {
  return (
    <div className="struct__unreadable" role="alert">
      <p>
        <strong>{message}</strong> It is kept as it is; nothing is changed unless you start over.
      </p>
      <pre className="struct__json">{json}</pre>
      {!isReadOnly && (
        <Button size="sm" variant="danger" onPress={onStartOver}>
          Start over with an empty {what}
        </Button>
      )}
    </div>
  );
}
