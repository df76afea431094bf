import { useEffect, useRef } from 'react';
import type { Focusable } from '../field-control';

/**
 * Hands the form a focus handle for the control's lifetime (null when it unmounts). `focus` is read through a
 * ref, so the handle always reaches the element of the latest render.
 */
export function useFocusHandle(focusRef: ((handle: Focusable | null) => void) | undefined, focus: () => void) {
  const focusFn = useRef(focus);
  useEffect(() => {
    focusFn.current = focus;
  });
  useEffect(() => {
    if (!focusRef) return;
    focusRef({ focus: () => focusFn.current() });
    return () => focusRef(null);
  }, [focusRef]);
}
