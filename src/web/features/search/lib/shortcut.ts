/*
 * The search shortcut: Ctrl+Shift+F (⌘⇧F on a Mac), "find in everything". It collides with none of the app's
 * own keys: the rich text editor takes Mod+K (link), Mod+B/I/U and Mod+Home/End, saving takes Mod+S, the page
 * history Mod+Z/Mod+Shift+Z, the tree F2, Delete and Alt+arrows; browsers keep Ctrl+F (find in page) and Ctrl+K
 * (the address bar's search).
 */

const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);

/** The shortcut as people read it on this platform. */
export const SEARCH_SHORTCUT_LABEL = isMac ? '⌘⇧F' : 'Ctrl+Shift+F';
/** The shortcut for `aria-keyshortcuts`. */
export const SEARCH_SHORTCUT_ARIA = isMac ? 'Meta+Shift+F' : 'Control+Shift+F';

/** True for the key press that opens search. */
export function isSearchShortcut(
  event: Pick<KeyboardEvent, 'key' | 'code' | 'ctrlKey' | 'metaKey' | 'shiftKey' | 'altKey'>,
) {
  const mod = isMac ? event.metaKey && !event.ctrlKey : event.ctrlKey && !event.metaKey;
  return mod && event.shiftKey && !event.altKey && (event.code === 'KeyF' || event.key.toLowerCase() === 'f');
}
