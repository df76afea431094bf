import { createContext, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from 'react';
import type { Role } from '../../../../shared/api/auth';
import {
  ancestorPathsOf,
  isSameOrBelow,
  parentPathOf,
  remapPath,
  type ExplorerItem,
  type ExplorerKind,
} from '../../../lib/tree/items';

/** What the app tells the explorer about its URLs: the explorer never builds app URLs itself. */
export interface ExplorerNavigation {
  /** The app URL that shows an item (a site, section, folder or link; a page; an asset folder). */
  hrefOf: (item: Pick<ExplorerItem, 'kind' | 'segments'>) => string;
  /** Shows an item in the main area (a new history entry unless `replace`). */
  open: (item: ExplorerItem, options?: { replace?: boolean }) => void;
  /** Path of the item the current URL shows; null on other screens. */
  currentPath: string | null;
  /** Leaves the explorer's screens (after the last item shown was deleted). */
  openHome: () => void;
  /** The app URL of the screen `openHome` shows (the sites). */
  homeHref: string;
  /** Starts loading the code of the screen that shows an item (a link to it is pointed at or focused). */
  preloadScreenOf: (item: Pick<ExplorerItem, 'kind' | 'segments'>) => void;
}

/** Kinds the create dialogs make. */
export type CreatableKind = Extract<
  ExplorerKind,
  'section' | 'sectionlink' | 'externallink' | 'folder' | 'page' | 'assetfolder'
>;

/** A dialog the explorer shows over everything. */
export type ExplorerCommand =
  | { type: 'create'; kind: CreatableKind; parent: ExplorerItem }
  | { type: 'delete'; item: ExplorerItem }
  | { type: 'move'; item: ExplorerItem }
  | { type: 'reject'; item: ExplorerItem }
  | { type: 'rename'; item: ExplorerItem };

export interface ExplorerContextValue extends ExplorerNavigation {
  role: Role;
  /** Containers the user opened in the tree (their children are loaded and shown). */
  expanded: ReadonlySet<string>;
  setExpanded: (keys: ReadonlySet<string>) => void;
  /** Opens the containers down to `path` so it shows in the tree. */
  reveal: (path: string) => void;
  /** Opens one of the explorer's dialogs. */
  run: (command: ExplorerCommand) => void;
  /** The dialog open now (the app renders it with `ExplorerDialogs`, loaded when one first opens); null when none. */
  command: ExplorerCommand | null;
  /** Closes the open dialog. */
  closeCommand: () => void;
  /** An item moved or was renamed: expansion and the URL follow it. */
  itemMoved: (from: string, to: ExplorerItem) => void;
  /** An item was deleted: it leaves the expansion; a screen showing it (or something inside) goes to its parent. */
  itemDeleted: (item: ExplorerItem) => void;
  /** An item was created: its container opens in the tree and the new item is shown. */
  itemCreated: (item: ExplorerItem) => void;
  /** The tree's inline rename (F2), registered by the tree while it is mounted. */
  requestInlineRename: (item: ExplorerItem) => boolean;
  registerInlineRename: (handler: ((item: ExplorerItem) => boolean) | null) => void;
  /** Puts the keyboard focus on an item's row in the tree (once it is there), e.g. after a move. */
  focusInTree: (path: string) => void;
  registerFocusInTree: (handler: ((path: string) => void) | null) => void;
}

const ExplorerContext = createContext<ExplorerContextValue | null>(null);

/** The explorer of the signed-in frame: the tree's expansion, the dialogs, and the app's URLs. */
export function useExplorer(): ExplorerContextValue {
  const value = useContext(ExplorerContext);
  if (!value) throw new Error('useExplorer must be used inside <ExplorerProvider>.');
  return value;
}

/** True when the role may change anything at all (the service refuses Viewers every change). */
export function canChangeAnything(role: Role): boolean {
  return role !== 'Viewer';
}

const EXPANDED_STORAGE_KEY = 'folio.explorer.expanded';

function readExpanded(): Set<string> {
  try {
    const raw = globalThis.sessionStorage?.getItem(EXPANDED_STORAGE_KEY);
    const list: unknown = raw ? JSON.parse(raw) : [];
    return new Set(Array.isArray(list) ? list.filter((k): k is string => typeof k === 'string') : []);
  } catch {
    return new Set();
  }
}

function storeExpanded(keys: ReadonlySet<string>) {
  try {
    globalThis.sessionStorage?.setItem(EXPANDED_STORAGE_KEY, JSON.stringify([...keys]));
  } catch {
    // Storage may be unavailable; the expansion then lasts until a reload.
  }
}

/**
 * Holds what the tree in the navigation area and the screens in the main area share. Mounted once by the app
 * around the signed-in frame; the app passes its URL scheme in `navigation`.
 */
export function ExplorerProvider({
  role,
  navigation,
  children,
}: {
  role: Role;
  navigation: ExplorerNavigation;
  children: ReactNode;
}) {
  const [expanded, setExpandedState] = useState<ReadonlySet<string>>(readExpanded);
  const [command, setCommand] = useState<ExplorerCommand | null>(null);
  const inlineRename = useRef<((item: ExplorerItem) => boolean) | null>(null);
  const treeFocus = useRef<((path: string) => void) | null>(null);
  const navigationRef = useRef(navigation);
  navigationRef.current = navigation;

  const setExpanded = useCallback((keys: ReadonlySet<string>) => {
    // The tree hands over a new set on every change (react-aria's onExpandedChange).
    const next = new Set(keys);
    storeExpanded(next);
    setExpandedState(next);
  }, []);

  const reveal = useCallback((path: string) => {
    setExpandedState((current) => {
      const missing = ancestorPathsOf(path).filter((p) => !current.has(p));
      if (missing.length === 0) return current;
      const next = new Set([...current, ...missing]);
      storeExpanded(next);
      return next;
    });
  }, []);

  const itemMoved = useCallback((from: string, to: ExplorerItem) => {
    setExpandedState((current) => {
      const next = new Set([...current].map((p) => remapPath(p, from, to.path)));
      for (const p of ancestorPathsOf(to.path)) next.add(p);
      storeExpanded(next);
      return next;
    });
    const { currentPath, open } = navigationRef.current;
    if (currentPath !== null && isSameOrBelow(currentPath, from)) {
      const path = remapPath(currentPath, from, to.path);
      // The screen shows something inside the moved item: follow it to its new place.
      open(path === to.path ? to : { ...to, path, segments: path.split('/'), name: path.split('/').pop()! }, {
        replace: true,
      });
    }
  }, []);

  const itemDeleted = useCallback((item: ExplorerItem) => {
    setExpandedState((current) => {
      const next = new Set([...current].filter((p) => !isSameOrBelow(p, item.path)));
      storeExpanded(next);
      return next;
    });
    const { currentPath, open, openHome } = navigationRef.current;
    if (currentPath !== null && isSameOrBelow(currentPath, item.path)) {
      const parent = parentPathOf(item.path);
      if (parent === null) openHome();
      else open(parentItemOf(item), { replace: true });
    }
  }, []);

  const itemCreated = useCallback(
    (item: ExplorerItem) => {
      reveal(item.path);
      navigationRef.current.open(item);
    },
    [reveal],
  );

  const value = useMemo<ExplorerContextValue>(
    () => ({
      ...navigation,
      role,
      expanded,
      setExpanded,
      reveal,
      run: setCommand,
      command,
      closeCommand: () => setCommand(null),
      itemMoved,
      itemDeleted,
      itemCreated,
      requestInlineRename: (item) => inlineRename.current?.(item) ?? false,
      registerInlineRename: (handler) => {
        inlineRename.current = handler;
      },
      focusInTree: (path) => treeFocus.current?.(path),
      registerFocusInTree: (handler) => {
        treeFocus.current = handler;
      },
    }),
    [navigation, role, expanded, setExpanded, reveal, command, itemMoved, itemDeleted, itemCreated],
  );

  return <ExplorerContext.Provider value={value}>{children}</ExplorerContext.Provider>;
}

/** The container holding `item` as an item: a site, section or folder (or the asset library / an asset folder). */
export function parentItemOf(item: ExplorerItem): ExplorerItem {
  const segments = item.segments.slice(0, -1);
  const inLibrary = segments[0] === 'Assets';
  const kind: ExplorerKind = inLibrary
    ? segments.length === 1
      ? 'library'
      : 'assetfolder'
    : segments.length === 1
      ? 'site'
      : // A page or folder may sit in a section or a folder; screens read the real kind from the service.
        'folder';
  return { path: segments.join('/'), segments, name: segments[segments.length - 1] ?? '', kind };
}
