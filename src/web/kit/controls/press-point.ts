import type { MouseEvent } from 'react';

/**
 * Where a primary-button press landed in a static copy of a field (a rich text's or a code field's), relative to
 * its box and its scroll, for the editor that replaces it to put the caret there; null for other buttons. Keeps
 * focus and selection out of the static copy: the editor takes both.
 */
export function pressPoint(e: MouseEvent<HTMLElement>): { x: number; y: number } | null {
  if (e.button !== 0) return null;
  e.preventDefault();
  const box = e.currentTarget.getBoundingClientRect();
  return { x: e.clientX - box.left, y: e.clientY - box.top + e.currentTarget.scrollTop };
}
