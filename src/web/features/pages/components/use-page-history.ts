import { useCallback, useEffect, useRef, useState } from 'react';
import type { EditorDoc } from '../lib/editor-doc';
import type { FocusTarget } from './use-widget-focus';

/** One step of the page's history: what it did, the doc before it, and where focus goes when it is undone or redone. */
export interface HistoryStep {
  id: number;
  /** What the step did, as a person says it ("Removed the Rich text widget from main"). */
  label: string;
  before: EditorDoc;
  /** Where focus goes once the step is undone (the widget brought back, or what follows the one taken away). */
  undoFocus?: FocusTarget;
  /** Where focus goes once the step is done again. */
  redoFocus?: FocusTarget;
  /** Field edits of one widget (its key) or of the properties (`props`) are one step until something else is done. */
  fieldsOf?: string;
}

/** What a step is recorded with, besides the change. */
export type StepOptions = Omit<HistoryStep, 'id' | 'label' | 'before'>;

const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);

/** The page's Undo keys, as `aria-keyshortcuts` writes them. */
export const UNDO_KEYS = isMac ? 'Meta+Z' : 'Control+Z';

/** The keys that edit text by themselves: there Ctrl+Z is the field's own undo. */
const TEXT_INPUT = 'input:not([type=checkbox]):not([type=radio]):not([type=button]):not([type=submit])';
const EDITABLE = `${TEXT_INPUT}, textarea, select, [contenteditable=""], [contenteditable="true"], .cm-editor`;

/** Whether `target` is a field that keeps its own undo history (a text box, rich text, code). */
function isEditableField(target: EventTarget | null): boolean {
  return target instanceof Element && target.closest(EDITABLE) !== null;
}

/**
 * The page's own undo history: one list of the steps a person took on the page (add, remove, move, duplicate,
 * link, detach, and field edits — a widget's or the properties' run of edits as one step), shown by the editor's
 * Undo button and used by the toasts' Undo. Ctrl+Z (Ctrl+Shift+Z or Ctrl+Y to redo) with the focus outside any
 * field applies it; inside a field the field's own undo runs. Never the browser's: that would reach the last rich
 * text or code editor that was typed in, wherever it is.
 *
 * `restore(doc, remount)` puts a doc back (`remount`: the forms read it again, as field values change).
 * A new base (a save, a reload, a restored draft) starts a new history.
 */
export function usePageHistory({
  doc,
  setDoc,
  restore,
  base,
  focusLater,
  announce,
}: {
  doc: EditorDoc;
  setDoc: (doc: EditorDoc) => void;
  restore: (doc: EditorDoc, remount: boolean) => void;
  base: unknown;
  focusLater: (target: FocusTarget) => void;
  announce: (message: string) => void;
}) {
  const [past, setPast] = useState<HistoryStep[]>([]);
  const [future, setFuture] = useState<HistoryStep[]>([]);
  const current = useRef(doc);
  current.current = doc;
  // The lists as last drawn, for toasts and key presses that act after the render that made them.
  const lists = useRef({ past, future });
  lists.current = { past, future };
  const nextId = useRef(0);

  useEffect(() => {
    setPast([]);
    setFuture([]);
  }, [base]);

  /** Applies `change` to the doc as one step of the history (none when it changes nothing); answers the step's id. */
  const record = useCallback(
    (label: string, change: (doc: EditorDoc) => EditorDoc, options: StepOptions = {}): number | null => {
      const before = current.current;
      const after = change(before);
      if (after === before) return null;
      nextId.current += 1;
      const step: HistoryStep = { id: nextId.current, label, before, ...options };
      const joins = (last: HistoryStep | undefined) => Boolean(options.fieldsOf) && last?.fieldsOf === options.fieldsOf;
      setPast((p) => (joins(p.at(-1)) ? p : [...p, step]));
      setFuture((f) => (f.length ? [] : f));
      current.current = after;
      setDoc(after);
      return step.id;
    },
    [setDoc],
  );

  const move = useCallback(
    (direction: 'undo' | 'redo') => {
      const step = (direction === 'undo' ? lists.current.past : lists.current.future).at(-1);
      if (!step) return;
      const opposite = { ...step, before: current.current };
      if (direction === 'undo') {
        setPast((p) => p.slice(0, -1));
        setFuture((f) => [...f, opposite]);
      } else {
        setFuture((f) => f.slice(0, -1));
        setPast((p) => [...p, opposite]);
      }
      current.current = step.before;
      restore(step.before, step.fieldsOf !== undefined);
      const focus = direction === 'undo' ? step.undoFocus : step.redoFocus;
      if (focus) focusLater(focus);
      announce(`${direction === 'undo' ? 'Undone' : 'Redone'}: ${step.label}.`);
    },
    [announce, focusLater, restore],
  );

  const undo = useCallback(() => move('undo'), [move]);
  const redo = useCallback(() => move('redo'), [move]);
  /** Undoes the step `id` when it is the last one; answers whether it was. */
  const undoIfLast = useCallback(
    (id: number | null) => {
      if (id === null || lists.current.past.at(-1)?.id !== id) return false;
      move('undo');
      return true;
    },
    [move],
  );
  useEffect(() => {
    // Capture phase: before any control below can see the keys (or stop them).
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.altKey || !(isMac ? event.metaKey : event.ctrlKey)) return;
      const key = event.key.toLowerCase();
      const isUndo = key === 'z' && !event.shiftKey;
      const isRedo = (key === 'z' && event.shiftKey) || (key === 'y' && !isMac && !event.shiftKey);
      if ((!isUndo && !isRedo) || isEditableField(event.target)) return;
      event.preventDefault();
      // A dialog's own keys are its business; the page's history is not what it is about.
      if (event.target instanceof Element && event.target.closest('[role="dialog"], [role="alertdialog"]')) return;
      move(isUndo ? 'undo' : 'redo');
    };
    window.addEventListener('keydown', onKeyDown, true);
    return () => window.removeEventListener('keydown', onKeyDown, true);
  }, [move]);

  return {
    record,
    undo,
    redo,
    undoIfLast,
    /** The step Undo would take back, if any. */
    lastStep: past.at(-1) ?? null,
    /** The step Redo would do again, if any. */
    nextStep: future.at(-1) ?? null,
  };
}

export type PageHistory = ReturnType<typeof usePageHistory>;
