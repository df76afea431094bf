import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';

/**
 * Where focus goes once the editor has drawn the next doc:
 * - `field`: into a widget's first field (a widget just added, or chosen in the outline);
 * - `card`: onto the widget's card itself (after an undo: the next Ctrl+Z is the page's again, not a field's);
 * - `move-up` / `move-down`: the button that moved the widget (or its other arrow at an end);
 * - `choose`: the widget's "Choose … image / file" button (after the asset picker closed);
 * - `in-region`: the widget now at `index` of `region`, else the one before it, else the region's Add button
 *   (after a remove; the skip link into an empty page);
 * - `invalid`: the first control marked invalid in the widget's field `field` (a builder's row, say), else the
 *   field's first control.
 */
export type FocusTarget =
  | { key: string; target: 'field' | 'card' | 'move-up' | 'move-down' | 'choose' }
  | { key: string; target: 'invalid'; field: string }
  | { target: 'in-region'; region: string; index: number };

/** Where focus goes in a widget, best first: a text to type in, then any field, then a button or link. */
const FIELD_SELECTORS = [
  '[contenteditable="true"], [data-rich-text-static], input:not([type=hidden]), textarea',
  '[role="spinbutton"], [role="combobox"], button:not([disabled]), a[href]',
].map((s) =>
  s
    .split(', ')
    .map((part) => `.widget-card__body ${part}`)
    .join(', '),
);

/** How often and how many times focus is tried again while heavy controls load or a dialog lets go. */
const RETRY_MS = 50;
const TRIES = 60;

/**
 * Scrolls the app's main area (not the whole document) so `el` sits just below the editor's sticky header.
 * `scrollIntoView` would scroll every ancestor, the document too, pushing the app's header out of sight.
 */
export function scrollMainTo(el: HTMLElement) {
  const main = el.closest('main');
  if (!main) return;
  const header = main.querySelector<HTMLElement>('.page-editor__header');
  const offset = (header?.getBoundingClientRect().height ?? 0) + 16;
  const top = el.getBoundingClientRect().top - main.getBoundingClientRect().top + main.scrollTop - offset;
  main.scrollTo({ top: Math.max(0, top), behavior: 'smooth' });
}

/**
 * Focuses what `find` answers once it exists and no dialog or menu holds the focus: heavy controls (rich text,
 * code) load after the card appears, and a dialog or menu that just closed puts focus back on its trigger (or,
 * when the trigger is gone, on the page) a moment later.
 */
function focusWhenReady(find: (tries: number) => HTMLElement | null) {
  let tries = 0;
  const attempt = () => {
    tries += 1;
    if (focusNow(find(tries))) return;
    if (tries < TRIES) window.setTimeout(attempt, RETRY_MS);
  };
  window.setTimeout(attempt, 0);
}

/** Focuses `el` unless a dialog or menu is open; answers whether the focus is in it now. */
function focusNow(el: HTMLElement | null): boolean {
  if (!el || document.querySelector('.modal-overlay, [role="menu"]') !== null) return false;
  el.focus({ preventScroll: true });
  return document.activeElement === el || el.contains(document.activeElement);
}

/** A widget's first field to type in (FIELD_SELECTORS), as drawn now. */
const fieldOf = (card: HTMLElement) =>
  FIELD_SELECTORS.map((sel) => card.querySelector<HTMLElement>(sel)).find(Boolean) ?? null;

const cardOf = (key: string) => document.querySelector<HTMLElement>(`[data-widget-key="${CSS.escape(key)}"]`);

/** The controls a person types in or operates, for the first of them in a field. */
const CONTROLS =
  'input:not([type=hidden]), textarea, [contenteditable="true"], [data-rich-text-static], [role="spinbutton"], button, select';
/** Tries that wait for a field to draw its invalid marks before its first control is taken instead. */
const INVALID_WAIT_TRIES = 6;

/** The element a target names in the doc as drawn now (null while it is not there yet). */
function elementFor(next: FocusTarget, tries = 0): HTMLElement | null {
  if (next.target === 'in-region') {
    const list = document.querySelector(`[data-region-widgets="${CSS.escape(next.region)}"]`);
    const cards = list ? [...list.querySelectorAll<HTMLElement>(':scope > [data-widget-key]')] : [];
    return (
      cards[next.index] ??
      cards[next.index - 1] ??
      document.querySelector<HTMLElement>(`[data-add-widget="${CSS.escape(next.region)}"]`)
    );
  }
  const card = cardOf(next.key);
  if (!card || next.target === 'card' || next.target === 'field') return card;
  if (next.target === 'choose') return card.querySelector<HTMLElement>('[data-action="choose"]') ?? card;
  if (next.target === 'invalid') {
    const field = card.querySelector<HTMLElement>(`[data-field="${CSS.escape(next.field)}"]`);
    if (!field) return card;
    const invalid = [...field.querySelectorAll<HTMLElement>('[aria-invalid="true"]')].find((el) =>
      el.matches(CONTROLS),
    );
    if (invalid) return invalid;
    return tries < INVALID_WAIT_TRIES ? null : (field.querySelector<HTMLElement>(CONTROLS) ?? card);
  }
  const button = card.querySelector<HTMLButtonElement>(`[data-action="${next.target}"]`);
  const other = card.querySelector<HTMLButtonElement>(
    `[data-action="${next.target === 'move-up' ? 'move-down' : 'move-up'}"]`,
  );
  return button && !button.disabled ? button : (other ?? card);
}

/**
 * The page editor's focus: after every action focus lands on something sensible (never on the page itself).
 * `focusLater(target)` takes effect once the editor has drawn the doc the action produced.
 */
export function useWidgetFocus() {
  const next = useRef<FocusTarget | null>(null);
  /** A widget whose field takes the focus after this commit's effects (see below). */
  const fieldLater = useRef<{ key: string; card: HTMLElement } | null>(null);
  // Bumped so the editor draws again (and the effect runs) even when an action changed nothing else.
  const [, setTick] = useState(0);

  useLayoutEffect(() => {
    const target = next.current;
    if (!target) return;
    const el = target.target === 'invalid' ? cardOf(target.key) : elementFor(target);
    if (!el) return;
    next.current = null;
    if (target.target === 'move-up' || target.target === 'move-down') return el.focus();
    scrollMainTo(el);
    if (target.target !== 'field') return focusWhenReady((tries) => elementFor(target, tries));
    if (focusNow(fieldOf(el))) return;
    el.focus({ preventScroll: true });
    fieldLater.current = { key: target.key, card: el };
  });

  // A field drawn in this very commit (a widget just added: its editor mounts with it) takes the focus once the
  // effects have run, not a timer's tick later: a dialog closed by the same action (the palette) lets the page
  // take focus again in its effect's cleanup (react-aria's `inert`), and then finds the focus placed and leaves it.
  useEffect(() => {
    const pending = fieldLater.current;
    if (!pending) return;
    fieldLater.current = null;
    // Looked up again each try: a lite card focused here is replaced by the whole card (widget-card-lite.tsx).
    const find = () => fieldOf(cardOf(pending.key) ?? pending.card);
    if (!focusNow(find())) focusWhenReady(find);
  });

  const focusLater = useCallback((target: FocusTarget) => {
    next.current = target;
    setTick((n) => n + 1);
  }, []);

  /** Scrolls to a region's heading and focuses it. */
  const focusRegion = useCallback((region: string) => {
    requestAnimationFrame(() => {
      const heading = document.querySelector<HTMLElement>(`[data-region-heading="${CSS.escape(region)}"]`);
      if (!heading) return;
      scrollMainTo(heading);
      heading.focus({ preventScroll: true });
    });
  }, []);

  return { focusLater, focusRegion };
}
