import { useRef, useState, type RefObject } from 'react';
import type { TreeState } from 'react-aria-components';
import { usePageTransitions } from '../../../lib/queries/pages';
import { accessibleNameOf, type ExplorerItem } from '../../../lib/tree/items';
import { ItemMenuPopover } from './item-menu';
import type { useItemCommands } from './use-item-commands';

/** Where the context menu opens: at the pointer (right click) or at an element (a row, the "…" button). */
type MenuAnchor = { item: ExplorerItem; x: number; y: number } | { item: ExplorerItem; element: Element };

/**
 * The tree's context menu of an item: opened at a row (Menu key, Shift+F10), at its "…" button, or at the
 * pointer (right click). `menu` is the menu with its anchor, to render once below the tree.
 */
export function useTreeMenu({
  commands,
  expectRemoval,
  stateRef,
}: {
  commands: ReturnType<typeof useItemCommands>;
  /** Called before a delete from the menu, so the focus can go to the row's neighbour. */
  expectRemoval: (path: string) => void;
  stateRef: RefObject<TreeState<unknown> | null>;
}) {
  const [anchor, setAnchor] = useState<MenuAnchor | null>(null);
  const pointerAnchor = useRef<HTMLSpanElement>(null);
  const elementAnchor = useRef<Element | null>(null);
  const lastOpenedAt = useRef(0);

  // A page's workflow transitions load as its menu opens (the menu grows by them).
  usePageTransitions(anchor?.item.path ?? '', { enabled: anchor?.item.kind === 'page' });

  const open = (next: MenuAnchor) => {
    lastOpenedAt.current = Date.now();
    if ('element' in next) elementAnchor.current = next.element;
    setAnchor(next);
  };

  const item = anchor?.item;
  const menu = (
    <>
      <span
        ref={pointerAnchor}
        className="explorer-panel__pointer-anchor"
        style={anchor && 'x' in anchor ? { left: anchor.x, top: anchor.y } : undefined}
      />
      {item && (
        <ItemMenuPopover
          label={`Actions for ${accessibleNameOf(item)}`}
          actions={commands.actionsOf(item)}
          triggerRef={'x' in anchor ? pointerAnchor : elementAnchor}
          isOpen
          onClose={() => setAnchor(null)}
          onAction={(action) => {
            setAnchor(null);
            if (action === 'delete') expectRemoval(item.path);
            commands.perform(item, action, { inline: true });
          }}
        />
      )}
    </>
  );

  return {
    /** Opens the menu of `item` at an element (a row for the Menu key, its "…" button). */
    openAt: (item: ExplorerItem, element: Element) => open({ item, element }),
    /** Opens the menu of the row `path` at the pointer (right click). */
    openAtPointer: (item: ExplorerItem, x: number, y: number) => {
      // The Menu key opens the menu on keydown; the browser's contextmenu event that follows is ignored.
      if (Date.now() - lastOpenedAt.current < 300) return;
      stateRef.current?.selectionManager.setFocusedKey(item.path);
      open({ item, x, y });
    },
    menu,
  };
}
