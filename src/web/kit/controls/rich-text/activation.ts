import type { Editor } from '@tiptap/core';

/** How the editor takes over from the static view: at a point of it (px from its corner), at the start, unfocused. */
export type Activation = { x: number; y: number } | 'start' | 'none';

/*
 * Type-ahead: between the press (or focus) that makes a static view the editor and the moment that editor has the
 * focus — a lite card drawn whole, the editor's code still loading, the editor being created — no element takes
 * keys, so they would be lost. They are held, and typed into the editor once it has the focus, where the press put
 * the caret. Only what a person types into text is held; every other key (Tab, Escape, shortcuts, IME) goes on as
 * usual, and Tab, Escape, a press elsewhere or an editor that never comes let the held keys go.
 */

/** How long the editor may take to come before the keys typed meanwhile are let go. */
export const HOLD_KEYS_MS = 3000;

/** Caret moves, as `Selection.modify` says them. */
const MOVES: Record<string, [direction: 'backward' | 'forward', granularity: 'character' | 'line' | 'lineboundary']> = {
  ArrowLeft: ['backward', 'character'],
  ArrowRight: ['forward', 'character'],
  ArrowUp: ['backward', 'line'],
  ArrowDown: ['forward', 'line'],
  Home: ['backward', 'lineboundary'],
  End: ['forward', 'lineboundary'],
};

type HeldKey = Pick<KeyboardEvent, 'key' | 'code' | 'shiftKey'>;

let held: { keys: HeldKey[]; stop: () => void } | null = null;

/** Whether `event` is a key typed into text: a character, Backspace, Delete, Enter or a caret move (with Shift). */
export function isTextKey(event: KeyboardEvent): boolean {
  if (event.ctrlKey || event.metaKey || event.altKey) return false;
  const { key } = event;
  return [...key].length === 1 || key === 'Backspace' || key === 'Delete' || key === 'Enter' || key in MOVES;
}

/** Holds the keys typed from now until `releaseKeys` (the editor has the focus) or until they are let go. */
export function holdKeys() {
  if (held) return;
  const keys: HeldKey[] = [];
  const onKeyDown = (event: KeyboardEvent) => {
    // A composition (IME) or a move out of the field is the person's own business from here.
    if (event.isComposing || event.keyCode === 229 || event.key === 'Tab' || event.key === 'Escape') return dropKeys();
    if (!isTextKey(event)) return;
    event.preventDefault();
    keys.push({ key: event.key, code: event.code, shiftKey: event.shiftKey });
  };
  const timer = window.setTimeout(dropKeys, HOLD_KEYS_MS);
  window.addEventListener('keydown', onKeyDown, true);
  // Any later press goes elsewhere (the press that started holding came before this).
  window.addEventListener('pointerdown', dropKeys, true);
  held = {
    keys,
    stop: () => {
      window.clearTimeout(timer);
      window.removeEventListener('keydown', onKeyDown, true);
      window.removeEventListener('pointerdown', dropKeys, true);
    },
  };
}

/** Lets the held keys go, typed nowhere. */
export function dropKeys() {
  held?.stop();
  held = null;
}

/** Types the held keys into `editor`, which has just taken the focus with the caret where the press put it. */
export function releaseKeys(editor: Editor) {
  const keys = held?.keys ?? [];
  dropKeys();
  const { view } = editor;
  if (!view.hasFocus()) return;
  for (const { key, code, shiftKey } of keys) {
    // The editor's own key bindings first (Enter splits the block or the list item, Backspace joins blocks …).
    const event = new KeyboardEvent('keydown', { key, code, shiftKey, bubbles: true, cancelable: true });
    if (view.someProp('handleKeyDown', (f) => f(view, event))) continue;
    const move = MOVES[key];
    if (move) {
      moveCaret(editor, shiftKey ? 'extend' : 'move', ...move);
    } else if (key === 'Backspace' || key === 'Delete') {
      if (view.state.selection.empty)
        moveCaret(editor, 'extend', key === 'Delete' ? 'forward' : 'backward', 'character');
      if (!view.state.selection.empty) view.dispatch(view.state.tr.deleteSelection().scrollIntoView());
    } else if (key !== 'Enter') {
      const { from, to } = view.state.selection;
      const insert = () => view.state.tr.insertText(key, from, to);
      // Input rules ("# " makes a heading) come through handleTextInput, as they do for typed text.
      if (!view.someProp('handleTextInput', (f) => f(view, from, to, key, insert)))
        view.dispatch(insert().scrollIntoView());
    }
  }
}

/** Moves (or extends) the selection as the browser would for a key, and tells the editor. */
function moveCaret(
  editor: Editor,
  alter: 'move' | 'extend',
  direction: 'backward' | 'forward',
  granularity: 'character' | 'line' | 'lineboundary',
) {
  const { view } = editor;
  const selection = view.dom.ownerDocument.getSelection();
  // jsdom has no Selection.modify; every browser does.
  if (!selection || typeof selection.modify !== 'function') return;
  selection.modify(alter, direction, granularity);
  const { anchorNode, anchorOffset, focusNode, focusOffset } = selection;
  if (!anchorNode || !focusNode || !view.dom.contains(anchorNode) || !view.dom.contains(focusNode)) return;
  editor.commands.setTextSelection({
    from: view.posAtDOM(anchorNode, anchorOffset),
    to: view.posAtDOM(focusNode, focusOffset),
  });
}
