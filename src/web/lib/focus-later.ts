/**
 * Focuses an element that may not be rendered yet (a tree row that appears once its listing is loaded), trying on
 * each animation frame for up to `frames` frames. A person who acts meanwhile (presses a key, clicks or taps) has
 * moved on: the attempt stops, so focus is never taken from a menu or a field they just opened. Returns a cancel.
 */
export function focusLater(find: () => HTMLElement | null | undefined, frames = 10): () => void {
  let tries = 0;
  let handle = 0;
  let stopped = false;
  const stop = () => {
    stopped = true;
    cancelAnimationFrame(handle);
    document.removeEventListener('pointerdown', stop, true);
    document.removeEventListener('keydown', stop, true);
  };
  document.addEventListener('pointerdown', stop, true);
  document.addEventListener('keydown', stop, true);
  const attempt = () => {
    if (stopped) return;
    const target = find();
    if (target) {
      stop();
      target.focus();
    } else if (tries++ < frames) handle = requestAnimationFrame(attempt);
    else stop();
  };
  handle = requestAnimationFrame(attempt);
  return stop;
}

/**
 * Focuses what `find` answers once the focus has dropped to the page (the focused control went away, e.g. a
 * dialog's trigger that its action removed), trying for up to `frames` frames; a focus that went anywhere else is
 * left where it is. Returns a cancel.
 */
export function focusWhenDropped(find: () => HTMLElement | null | undefined, frames = 30): () => void {
  return focusLater(() => {
    const active = document.activeElement;
    return active === null || active === document.body ? find() : null;
  }, frames);
}
