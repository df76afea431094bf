import { lazy, Suspense, useCallback, useEffect, useState, type ReactNode } from 'react';
import type { SearchHit } from '../../../../shared/api/search';
import { Button } from '../../../components/ui/button';
import { SearchIcon } from '../../../components/ui/icons';
import { isSearchShortcut, SEARCH_SHORTCUT_ARIA, SEARCH_SHORTCUT_LABEL } from '../lib/shortcut';
import './search-launcher.css';

// The dialog, its schemas and its filters load when search is first opened (or the button is pointed at).
const loadDialog = () => import('./search-dialog');
const SearchDialog = lazy(loadDialog);

export interface SearchLauncher {
  /** Opens search, with `q` in its text when given (the find field's). */
  open: (q?: string) => void;
  /** The header's "Search" button, showing the shortcut. */
  button: ReactNode;
  /** The dialog while open; render it once inside the router. */
  dialog: ReactNode;
}

/**
 * Search from anywhere: the shortcut (Ctrl+Shift+F, ⌘⇧F on a Mac) in any screen, even inside an editor, the
 * header's button, and `open` for the find field. Opening a result calls `onOpenHit` (the app knows the URLs); the
 * result that becomes active, `onActiveHit` (the app may start loading its screen).
 */
export function useSearchLauncher(
  onOpenHit: (hit: SearchHit) => void,
  onActiveHit?: (hit: SearchHit) => void,
): SearchLauncher {
  const [state, setState] = useState<{ isOpen: boolean; q: string; session: number }>({
    isOpen: false,
    q: '',
    session: 0,
  });
  const open = useCallback(
    (q = '') => setState((s) => ({ isOpen: true, q, session: s.isOpen ? s.session : s.session + 1 })),
    [],
  );

  useEffect(() => {
    // Capture phase: an editor below (tiptap, CodeMirror) never gets to swallow it.
    const onKeyDown = (event: KeyboardEvent) => {
      if (!isSearchShortcut(event) || event.repeat) return;
      event.preventDefault();
      event.stopPropagation();
      open(window.getSelection()?.toString().trim().slice(0, 100) ?? '');
    };
    window.addEventListener('keydown', onKeyDown, true);
    return () => window.removeEventListener('keydown', onKeyDown, true);
  }, [open]);

  const button = (
    <Button
      variant="secondary"
      size="sm"
      className="search-launcher"
      aria-keyshortcuts={SEARCH_SHORTCUT_ARIA}
      onHoverStart={() => void loadDialog()}
      onFocus={() => void loadDialog()}
      onPress={() => open()}
    >
      <SearchIcon /> Search <kbd aria-hidden="true">{SEARCH_SHORTCUT_LABEL}</kbd>
    </Button>
  );

  const dialog = state.isOpen ? (
    <Suspense fallback={null}>
      <SearchDialog
        // Each opening starts afresh (its text, filters and results).
        key={state.session}
        isOpen
        onOpenChange={(isOpen) => setState((s) => ({ ...s, isOpen }))}
        initialQuery={state.q}
        onOpenHit={onOpenHit}
        onActiveHit={onActiveHit}
      />
    </Suspense>
  ) : null;

  return { open, button, dialog };
}
