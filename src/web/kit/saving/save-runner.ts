import { useCallback, useEffect, useRef } from 'react';
import { isApiError } from '../../../shared/api/client';
import { useReauth } from '../../lib/reauth';

/** True for the answer of a save whose `If-Match` was stale (someone else saved meanwhile). */
export function isConflict(error: unknown): boolean {
  return isApiError(error, 412);
}

/**
 * Runs a save so that an ended session never loses it: on a 401 the user signs in again in a dialog (the screen
 * stays), then the same save is sent again once. A 412 is left to the caller (it opens the conflict dialog).
 */
export function useSaveRunner() {
  const { reauthenticate } = useReauth();
  return useCallback(
    async <T>(attempt: () => Promise<T>): Promise<T> => {
      try {
        return await attempt();
      } catch (error) {
        if (isApiError(error, 401) && (await reauthenticate())) return attempt();
        throw error;
      }
    },
    [reauthenticate],
  );
}

const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);

/** How the save shortcut is written on this computer ("Ctrl+S", "⌘S"). */
export const SAVE_SHORTCUT = isMac ? '⌘S' : 'Ctrl+S';

/**
 * Ctrl+S (Cmd+S on a Mac) anywhere on the page runs `onSave` instead of the browser's "Save page as". Heard in the
 * capture phase, before any control: a field that handles its own keys (react-aria stops their propagation) must
 * not swallow it.
 */
export function useSaveShortcut(onSave: () => void, enabled = true) {
  const handler = useRef(onSave);
  handler.current = onSave;
  useEffect(() => {
    if (!enabled) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key.toLowerCase() !== 's' || event.altKey || event.shiftKey) return;
      if (!(isMac ? event.metaKey : event.ctrlKey)) return;
      event.preventDefault();
      handler.current();
    };
    window.addEventListener('keydown', onKeyDown, true);
    return () => window.removeEventListener('keydown', onKeyDown, true);
  }, [enabled]);
}
