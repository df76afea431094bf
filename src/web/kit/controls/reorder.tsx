import { useState, type DragEvent } from 'react';
import { Button } from '../../components/ui/button';
import { ArrowDownIcon, ArrowUpIcon, GripIcon, TrashIcon } from '../../components/ui/icons';
import './structured.css';

// Reordering a list, shared by the builders and the template editor: Move up / Move down / Remove buttons, the
// focus and the sentence after a move, and drag and drop by a grip for pointer users.

/**
 * The focus keys after item `id` moved by `delta`: its button of the same direction, or the other one once the
 * item has reached an end (that button is disabled there).
 */
export function movedFocusKeys(id: string, delta: -1 | 1): [string, string] {
  const [here, there] = delta < 0 ? ['up', 'down'] : ['down', 'up'];
  return [`${id}:${here}`, `${id}:${there}`];
}

/** What a screen reader hears after a move (`name` is how the list names the item: “Email”, field 2). */
export function movedSentence(name: string, position: number, count: number): string {
  return `${name} moved to position ${position} of ${count}.`;
}

/**
 * Move up, Move down and Remove for an item of a list. The buttons are named after the item ("Move “Email” up")
 * and registered as focus targets `${id}:up`, `${id}:down`, `${id}:remove`.
 */
export function ItemActions({
  id,
  itemName,
  index,
  count,
  onMove,
  onRemove,
  register,
  removeLabel = 'Remove',
}: {
  id: string;
  itemName: string;
  index: number;
  count: number;
  onMove: (delta: -1 | 1) => void;
  onRemove: () => void;
  register: (key: string) => (el: HTMLElement | null) => void | (() => void);
  removeLabel?: string;
}) {
  return (
    <div className="item-actions">
      <Button
        variant="quiet"
        size="sm"
        iconOnly
        aria-label={`Move ${itemName} up`}
        isDisabled={index === 0}
        onPress={() => onMove(-1)}
        ref={register(`${id}:up`)}
      >
        <ArrowUpIcon />
      </Button>
      <Button
        variant="quiet"
        size="sm"
        iconOnly
        aria-label={`Move ${itemName} down`}
        isDisabled={index === count - 1}
        onPress={() => onMove(1)}
        ref={register(`${id}:down`)}
      >
        <ArrowDownIcon />
      </Button>
      <Button
        variant="quiet"
        size="sm"
        iconOnly
        aria-label={`${removeLabel} ${itemName}`}
        onPress={onRemove}
        ref={register(`${id}:remove`)}
        className="item-actions__remove"
      >
        <TrashIcon />
      </Button>
    </div>
  );
}

/** Where a dragged item would land: before or after the item under the pointer. */
export type DropPosition = { index: number; side: 'before' | 'after' } | null;

/**
 * Drag and drop of a list's items by a grip, for pointer users (keyboard users have Move up / Move down).
 * `onMove(from, to)` receives the indexes of the list as it is.
 */
export function useDragReorder(onMove: (from: number, to: number) => void) {
  const [dragged, setDragged] = useState<number | null>(null);
  const [drop, setDrop] = useState<DropPosition>(null);
  const end = () => {
    setDragged(null);
    setDrop(null);
  };
  return {
    dragged,
    drop,
    /** Props of the grip of item `index` (inside the list item, which the browser shows being dragged). */
    gripProps: (index: number) => ({
      draggable: true,
      onDragStart: (event: DragEvent<HTMLElement>) => {
        event.dataTransfer.effectAllowed = 'move';
        event.dataTransfer.setData('text/plain', String(index));
        const item = event.currentTarget.closest('li');
        if (item) event.dataTransfer.setDragImage(item, 16, 16);
        setDragged(index);
      },
      onDragEnd: end,
    }),
    /** Class names of item `index` while a drag is under way. */
    itemClass: (index: number) =>
      [dragged === index ? 'is-dragged' : '', drop?.index === index ? `drop-${drop.side}` : '']
        .filter(Boolean)
        .join(' '),
    /** Props of item `index` as a drop target. */
    targetProps: (index: number) => ({
      onDragOver: (event: DragEvent<HTMLElement>) => {
        if (dragged === null) return;
        event.preventDefault();
        event.dataTransfer.dropEffect = 'move';
        const box = event.currentTarget.getBoundingClientRect();
        const side = event.clientY < box.top + box.height / 2 ? 'before' : 'after';
        if (drop?.index !== index || drop.side !== side) setDrop({ index, side });
      },
      onDrop: (event: DragEvent<HTMLElement>) => {
        event.preventDefault();
        if (dragged !== null && drop) {
          // The index the item ends at, once it has left its own place.
          let to = drop.side === 'before' ? drop.index : drop.index + 1;
          if (dragged < to) to -= 1;
          if (to !== dragged) onMove(dragged, to);
        }
        end();
      },
    }),
  };
}

/** The handle of a draggable item (hidden from assistive technology: the Move buttons do the same). */
export function DragGrip(props: Record<string, unknown>) {
  return (
    <span {...props} className="drag-grip" aria-hidden="true" title="Drag to reorder">
      <GripIcon />
    </span>
  );
}
