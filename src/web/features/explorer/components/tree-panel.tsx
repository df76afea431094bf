import { useIsMutating, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  useCallback,
  useDeferredValue,
  useEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
  type KeyboardEvent,
} from 'react';
import {
  Button as AriaButton,
  Collection,
  DropIndicator,
  ListLayout,
  TreeItemContent,
  TreeLoadMoreItem,
  useDragAndDrop,
  Virtualizer,
  type DropTarget,
  type Key,
  type TreeState,
} from 'react-aria-components';
import { ItemName } from '../../../../shared/api/common';
import { GripIcon, MoreIcon } from '../../../components/ui/icons';
import { SearchField } from '../../../components/ui/search-field';
import { Spinner } from '../../../components/ui/spinner';
import { ErrorState } from '../../../components/ui/status';
import { toast } from '../../../components/ui/toast';
import { Tree, TreeItem } from '../../../components/ui/tree';
import { useApi } from '../../../lib/api';
import { focusLater } from '../../../lib/focus-later';
import { errorMessage, fieldSentence } from '../../../lib/errors';
import { sitesQueryOptions } from '../../../lib/queries/sites';
import { foldersKeys } from '../../../lib/query-keys';
import { useMoveItem } from '../api/move-item';
import { useRenameItem } from '../api/rename-item';
import { useReorderEntries } from '../api/reorder-entries';
import { canChange } from '../lib/access';
import {
  accessibleNameOf,
  isNavigationEntry,
  isMovable,
  labelOf,
  LIBRARY_ITEM,
  moveRefusal,
  parentPathOf,
  siteItemsOf,
  type ExplorerItem,
} from '../../../lib/tree/items';
import type { ActionEntry } from '../lib/item-actions';
import { buildTree, type TreeNode } from '../../../lib/tree/tree-nodes';
import { useTreeListings } from '../../../lib/tree/use-listings';
import { canChangeAnything, parentItemOf, useExplorer } from './explorer-context';
import { ItemMenuPopover } from './item-menu';
import { usePageTransitions } from '../../../lib/queries/pages';
import { TreeRowContent } from '../../../components/tree/tree-row';
import { useFocusAfterRemoval } from './use-focus-after-removal';
import { useItemCommands } from './use-item-commands';
import { useUndoToasts } from './use-undo-toasts';
import { navigationOrderOf } from '../api/undo';
import './explorer.css';

/** Height of a tree row in pixels (the virtualiser lays out fixed rows; keep in step with explorer.css). */
export const TREE_ROW_HEIGHT = 30;
/** Drag type of tree items (other drags — files from the desktop — are refused). */
const DRAG_TYPE = 'application/x-folio-item-path';

/** Where the context menu opens: at the pointer (right click) or at an element (a row, the "…" button). */
type MenuAnchor = { item: ExplorerItem; x: number; y: number } | { item: ExplorerItem; element: Element };

/** Subscribes to the query cache while `active` (the filter searches every loaded listing, expanded or not). */
function useCacheVersion(active: boolean): number {
  const queryClient = useQueryClient();
  const version = useRef(0);
  const subscribe = useCallback(
    (notify: () => void) =>
      active
        ? queryClient.getQueryCache().subscribe((event) => {
            if (event.type === 'updated' || event.type === 'removed') {
              version.current++;
              notify();
            }
          })
        : () => undefined,
    [queryClient, active],
  );
  return useSyncExternalStore(
    subscribe,
    () => version.current,
    () => version.current,
  );
}

/**
 * The explorer tree in the navigation area: every site the user may read and the asset library, children loaded
 * when a container expands, a filter over what is loaded, a context menu (right click, Menu key or Shift+F10, the
 * "…" button), inline rename (F2), drag and drop to move items into containers and to reorder sections and links,
 * and keyboard shortcuts for the rest (Delete, Alt+↑/↓). Long lists are virtualised: only visible rows are in the
 * DOM.
 */
export function ExplorerTreePanel() {
  const explorer = useExplorer();
  const client = useApi();
  const queryClient = useQueryClient();
  const commands = useItemCommands();
  const rename = useRenameItem();
  const move = useMoveItem();
  const reorder = useReorderEntries();
  const undoToasts = useUndoToasts();
  const savingCount = useIsMutating();
  const mayChange = canChangeAnything(explorer.role);

  const [filter, setFilter] = useState('');
  const deferredFilter = useDeferredValue(filter.trim());
  const filtering = deferredFilter.length > 0;
  const [filterExpanded, setFilterExpanded] = useState<Set<Key> | null>(null);
  const [renaming, setRenaming] = useState<string | null>(null);
  const [menu, setMenu] = useState<MenuAnchor | null>(null);
  const pointerAnchor = useRef<HTMLSpanElement>(null);
  const elementAnchor = useRef<Element | null>(null);
  const treeRef = useRef<HTMLDivElement>(null);
  const stateRef = useRef<TreeState<unknown> | null>(null);
  const dragged = useRef<string[]>([]);
  const lastMenuAt = useRef(0);

  const sitesQuery = useQuery(sitesQueryOptions(client));
  const expandedPaths = useMemo(() => [...explorer.expanded].sort(), [explorer.expanded]);
  // The listings of expanded containers: this subscription re-renders the tree as they load.
  const listingOf = useTreeListings(expandedPaths);
  const cacheVersion = useCacheVersion(filtering);

  const roots = useMemo(() => [...siteItemsOf(sitesQuery.data), LIBRARY_ITEM], [sitesQuery.data]);
  const previous = useRef<Map<string, TreeNode> | undefined>(undefined);
  const built = buildTree({
    roots,
    expanded: explorer.expanded,
    listingOf,
    filter: deferredFilter,
    previous: previous.current,
  });
  useEffect(() => {
    previous.current = built.byPath;
  });
  void cacheVersion;

  // Every new filter starts with all matches shown; the user may then collapse some.
  useEffect(() => setFilterExpanded(null), [deferredFilter]);

  // Show the item of the current URL: open the containers above it.
  const { currentPath, reveal } = explorer;
  useEffect(() => {
    if (currentPath) reveal(currentPath);
  }, [currentPath, reveal]);

  /**
   * Focuses the row of `path` once it is rendered (after a rename, a menu, a dialog), through react-aria's focus
   * state so the tree's own keyboard handling continues from there. Its container may still be loading: keep
   * trying for a while (frames; about two seconds).
   */
  // The row may appear only once its listing is loaded; a person who acts meanwhile keeps their focus.
  const findRow = useCallback((path: string) => {
    const row = treeRef.current?.querySelector<HTMLElement>(`[data-path="${CSS.escape(path)}"]`);
    if (row) stateRef.current?.selectionManager.setFocusedKey(path);
    return row;
  }, []);
  const focusRow = useCallback((path: string, frames = 10) => focusLater(() => findRow(path), frames), [findRow]);
  const expectRemoval = useFocusAfterRemoval(built, findRow);

  const { registerFocusInTree } = explorer;
  useEffect(() => {
    registerFocusInTree((path) => focusRow(path, 120));
    return () => registerFocusInTree(null);
  }, [registerFocusInTree, focusRow]);

  const mayChangeItem = useCallback(
    (item: ExplorerItem) => canChange(queryClient, explorer.role, item),
    [queryClient, explorer.role],
  );

  // F2 from anywhere (the item's screen) renames in the tree when the row is there.
  const { registerInlineRename } = explorer;
  useEffect(() => {
    registerInlineRename((item) => {
      if (!built.byPath.has(item.path)) return false;
      setRenaming(item.path);
      return true;
    });
    return () => registerInlineRename(null);
  });

  const openMenu = (anchor: MenuAnchor) => {
    lastMenuAt.current = Date.now();
    if ('element' in anchor) elementAnchor.current = anchor.element;
    setMenu(anchor);
  };

  // A page's workflow transitions load as its menu opens (the menu grows by them).
  usePageTransitions(menu?.item.path ?? '', { enabled: menu?.item.kind === 'page' });
  const menuActions: ActionEntry[] = menu ? commands.actionsOf(menu.item) : [];

  const commitRename = (item: ExplorerItem, newName: string) => {
    setRenaming(null);
    if (newName === item.name) {
      focusRow(item.path);
      return;
    }
    focusRow(`${parentPathOf(item.path) ?? ''}${parentPathOf(item.path) === null ? '' : '/'}${newName}`);
    rename.mutate(
      { item, newName },
      {
        onSuccess: (renamed) => {
          explorer.itemMoved(item.path, renamed);
          undoToasts.renamed(item, renamed);
        },
        onError: () => focusRow(item.path),
      },
    );
  };

  const handleKeyDownCapture = (event: KeyboardEvent<HTMLDivElement>) => {
    const row = event.target instanceof HTMLElement ? event.target : null;
    const path = row?.dataset.path;
    if (!row || path === undefined) return;
    const node = built.byPath.get(path);
    if (!node) return;
    const stop = () => {
      event.preventDefault();
      event.stopPropagation();
    };
    const item = node.item;
    if (event.key === 'F2') {
      stop();
      if (commands.actionsOf(item).some((a) => a.id === 'rename')) setRenaming(path);
    } else if (event.key === 'ContextMenu' || (event.key === 'F10' && event.shiftKey)) {
      stop();
      openMenu({ item, element: row });
    } else if (event.key === 'Delete') {
      stop();
      if (commands.actionsOf(item).some((a) => a.id === 'delete')) {
        expectRemoval(path);
        commands.perform(item, 'delete');
      }
    } else if (event.altKey && (event.key === 'ArrowUp' || event.key === 'ArrowDown')) {
      stop();
      const id = event.key === 'ArrowUp' ? 'move-up' : 'move-down';
      const action = commands.actionsOf(item).find((a) => a.id === id);
      if (action && !action.isDisabled) commands.perform(item, id);
    } else if (event.key === 'ArrowRight' && !event.altKey && node.children.length > 0) {
      // WAI-ARIA tree: Right on an open item moves to its first child (react-aria's treegrid does not).
      const state = stateRef.current;
      if (state?.expandedKeys.has(path)) {
        stop();
        state.selectionManager.setFocusedKey(node.children[0]!.id);
      }
    }
  };

  // ── Drag and drop: move into containers ('on'), reorder sections and links ('before'/'after'). ──
  const draggedItems = () =>
    dragged.current.map((p) => built.byPath.get(p)?.item).filter((i): i is ExplorerItem => i !== undefined);

  const dropAllowed = (target: DropTarget): boolean => {
    if (target.type !== 'item') return false;
    const targetNode = built.byPath.get(String(target.key));
    const items = draggedItems();
    if (!targetNode || items.length === 0) return false;
    if (target.dropPosition === 'on') {
      return (
        mayChangeItem(targetNode.item) &&
        items.every((i) => mayChangeItem(i) && moveRefusal(i, targetNode.item) === null)
      );
    }
    // Between two rows: only a reorder of sections and links within their site or section.
    const parent = parentPathOf(targetNode.id);
    return (
      parent !== null &&
      isNavigationEntry(targetNode.item.kind) &&
      mayChangeItem(parentItemOf(targetNode.item)) &&
      items.every((i) => isNavigationEntry(i.kind) && parentPathOf(i.path) === parent)
    );
  };

  const { dragAndDropHooks } = useDragAndDrop<TreeNode>({
    isDisabled: !mayChange || filtering,
    getItems: (keys) => [...keys].map((key) => ({ [DRAG_TYPE]: String(key), 'text/plain': String(key) })),
    getAllowedDropOperations: () => ['move'],
    onDragStart: (e) => {
      dragged.current = [...e.keys].map(String);
    },
    onDragEnd: () => {
      dragged.current = [];
    },
    getDropOperation: (target, types) => (types.has(DRAG_TYPE) && dropAllowed(target) ? 'move' : 'cancel'),
    renderDragPreview: (items) => (
      <div className="xtree-drag-preview">{items[0]?.['text/plain']?.split('/').pop() ?? ''}</div>
    ),
    renderDropIndicator: (target) => <DropIndicator target={target} className="xtree-drop-indicator" />,
    onMove: (e) => {
      const items = draggedItems();
      if (e.target.type !== 'item' || items.length === 0) return;
      const targetNode = built.byPath.get(String(e.target.key));
      if (!targetNode || !dropAllowed(e.target)) return;
      if (e.target.dropPosition === 'on') {
        for (const item of items) {
          const orderBefore = navigationOrderOf(queryClient, parentPathOf(item.path));
          move.mutate(
            { item, target: targetNode.item },
            {
              onSuccess: (moved) => {
                explorer.itemMoved(item.path, moved);
                undoToasts.moved(item, moved, targetNode.item, orderBefore);
              },
            },
          );
        }
        return;
      }
      const parentPath = parentPathOf(targetNode.id)!;
      const siblings = built.byPath.get(parentPath)?.children ?? [];
      const names = siblings.filter((n) => isNavigationEntry(n.item.kind)).map((n) => n.item.name);
      const moving = new Set(items.map((i) => i.name));
      const rest = names.filter((n) => !moving.has(n));
      const at = rest.indexOf(targetNode.item.name) + (e.target.dropPosition === 'after' ? 1 : 0);
      const order = [...rest.slice(0, at), ...items.map((i) => i.name), ...rest.slice(at)];
      reorder.mutate(
        { parent: parentItemOf(targetNode.item), order },
        {
          onSuccess: () =>
            undoToasts.reordered(
              parentPath,
              names,
              `Moved “${labelOf(items[0]!)}” in the navigation of “${labelOf(built.byPath.get(parentPath)?.item ?? parentItemOf(targetNode.item))}”`,
            ),
        },
      );
    },
  });

  const expandedKeys = filtering ? (filterExpanded ?? built.expanded) : explorer.expanded;

  const handleExpandedChange = (keys: Set<Key>) => {
    if (filtering) {
      setFilterExpanded(keys);
      return;
    }
    const next = new Set([...keys].map(String));
    for (const path of next) {
      // Opening a container whose listing failed tries again.
      if (!explorer.expanded.has(path) && listingOf(path).status === 'error') {
        void queryClient.refetchQueries({ queryKey: foldersKeys.detail(path), exact: true });
      }
    }
    explorer.setExpanded(next);
  };

  // What rows show besides their node: react-aria re-renders cached rows when one of these changes.
  const dependencies = [renaming, mayChange, filtering, explorer.role];

  const renderNode = (node: TreeNode) => (
    <ExplorerTreeItem
      key={node.id}
      node={node}
      canDrag={mayChange && !filtering && isMovable(node.item) && mayChangeItem(node.item)}
      showMenuButton={mayChange}
      isRenaming={renaming === node.id}
      onRenameCommit={(name) => commitRename(node.item, name)}
      onRenameCancel={() => {
        setRenaming(null);
        focusRow(node.id);
      }}
      onMenuButton={(element) => openMenu({ item: node.item, element })}
      onContextMenu={(x, y) => {
        // The Menu key opens the menu on keydown; the browser's contextmenu event that follows is ignored.
        if (Date.now() - lastMenuAt.current < 300) return;
        stateRef.current?.selectionManager.setFocusedKey(node.id);
        openMenu({ item: node.item, x, y });
      }}
    >
      <Collection items={node.children} dependencies={dependencies}>
        {renderNode}
      </Collection>
      {/* A container whose children are not loaded yet still expands (react-aria counts this placeholder). */}
      {node.hasChildren && node.children.length === 0 && <TreeLoadMoreItem isLoading={false} />}
    </ExplorerTreeItem>
  );

  const busy = savingCount > 0;

  return (
    <section className="explorer-panel" aria-labelledby="explorer-heading">
      <div className="explorer-panel__head">
        <h2 id="explorer-heading" className="explorer-panel__title">
          Content
        </h2>
        <span className="explorer-panel__status" role="status">
          {busy ? (
            <>
              <Spinner /> Saving…
            </>
          ) : null}
        </span>
      </div>
      <div className="explorer-panel__filter">
        <SearchField
          label="Filter loaded items by title or name"
          value={filter}
          onChange={setFilter}
          placeholder="Filter"
        />
        {filtering && (
          <p className="explorer-panel__hint" role="status">
            {built.matches === 0
              ? 'Nothing loaded matches. “Find” at the top searches everything.'
              : `${built.matches} loaded ${built.matches === 1 ? 'item matches' : 'items match'}`}
          </p>
        )}
      </div>
      {sitesQuery.isError ? (
        <ErrorState
          title="Could not load the sites"
          error={sitesQuery.error}
          onRetry={() => void sitesQuery.refetch()}
          isRetrying={sitesQuery.isFetching}
        />
      ) : (
        // Opening an item from the tree keeps the focus in the tree (the frame moves it to the screen otherwise).
        <div className="explorer-panel__tree" onKeyDownCapture={handleKeyDownCapture} data-keeps-focus-on-navigation="">
          <Virtualizer layout={ListLayout} layoutOptions={{ rowHeight: TREE_ROW_HEIGHT }}>
            <Tree<TreeNode>
              ref={treeRef}
              stateRef={stateRef}
              aria-label="Sites and asset library"
              aria-busy={sitesQuery.isPending || undefined}
              className="xtree"
              items={built.nodes}
              dependencies={dependencies}
              selectionMode="single"
              disallowEmptySelection
              keyboardNavigationBehavior="tab"
              selectedKeys={currentPath ? [currentPath] : []}
              onSelectionChange={(keys) => {
                if (keys === 'all') return;
                const [key] = [...keys];
                const node = key === undefined ? undefined : built.byPath.get(String(key));
                if (node && node.id !== currentPath) explorer.open(node.item);
              }}
              expandedKeys={expandedKeys}
              onExpandedChange={handleExpandedChange}
              dragAndDropHooks={dragAndDropHooks}
              // Nothing matching a filter is said once, above the tree.
              renderEmptyState={() => (sitesQuery.isPending ? <p className="xtree__empty">Loading sites…</p> : null)}
            >
              {renderNode}
            </Tree>
          </Virtualizer>
        </div>
      )}
      <span
        ref={pointerAnchor}
        className="explorer-panel__pointer-anchor"
        style={menu && 'x' in menu ? { left: menu.x, top: menu.y } : undefined}
      />
      {menu && (
        <ItemMenuPopover
          label={`Actions for ${accessibleNameOf(menu.item)}`}
          actions={menuActions}
          triggerRef={'x' in menu ? pointerAnchor : elementAnchor}
          isOpen
          onClose={() => setMenu(null)}
          onAction={(action) => {
            const item = menu.item;
            setMenu(null);
            if (action === 'delete') expectRemoval(item.path);
            commands.perform(item, action, { inline: true });
          }}
        />
      )}
    </section>
  );
}

/** One row of the tree: chevron, kind icon, name (or the rename field), loading or error mark, "…" button. */
function ExplorerTreeItem({
  node,
  canDrag,
  showMenuButton,
  isRenaming,
  onRenameCommit,
  onRenameCancel,
  onMenuButton,
  onContextMenu,
  children,
}: {
  node: TreeNode;
  canDrag: boolean;
  showMenuButton: boolean;
  isRenaming: boolean;
  onRenameCommit: (name: string) => void;
  onRenameCancel: () => void;
  onMenuButton: (element: Element) => void;
  onContextMenu: (x: number, y: number) => void;
  children: React.ReactNode;
}) {
  const { item } = node;
  return (
    <TreeItem<TreeNode>
      id={node.id}
      value={node}
      textValue={labelOf(item)}
      // The label replaces the row's content for assistive technology, so a failed listing is said here too.
      aria-label={`${accessibleNameOf(item)}${node.status === 'error' ? ', could not load its contents' : ''}`}
      hasChildItems={node.hasChildren}
      className="xtree-item"
      data-path={node.id}
      data-kind={item.kind}
      onContextMenu={(event) => {
        event.preventDefault();
        onContextMenu(event.clientX, event.clientY);
      }}
      onDragStartCapture={(event) => {
        // Sites, the asset library and landing pages stay where they are (react-aria then starts no drag).
        if (!canDrag) event.preventDefault();
      }}
    >
      <TreeItemContent>
        {({ hasChildItems, isExpanded, level, allowsDragging }) => (
          <TreeRowContent
            item={item}
            hasChildItems={hasChildItems}
            isExpanded={isExpanded}
            level={level}
            status={node.status}
            errorText={
              node.status === 'error'
                ? `Could not load the contents: ${errorMessage(node.error)} Collapse and open again to retry.`
                : undefined
            }
            beforeIcon={
              allowsDragging && (
                // Not a Tab stop in every row: keyboard users move items with "Move to…" (or Alt+↑/↓ to reorder).
                <AriaButton slot="drag" className="xtree-row__drag" excludeFromTabOrder isDisabled={!canDrag}>
                  <GripIcon />
                </AriaButton>
              )
            }
            name={
              isRenaming ? <RenameField item={item} onCommit={onRenameCommit} onCancel={onRenameCancel} /> : undefined
            }
            after={
              showMenuButton &&
              !isRenaming && (
                <AriaButton
                  className="xtree-row__more"
                  aria-label={`Actions for ${item.name}`}
                  aria-haspopup="menu"
                  excludeFromTabOrder
                  onPress={(e) => onMenuButton(e.target)}
                >
                  <MoreIcon />
                </AriaButton>
              )
            }
          />
        )}
      </TreeItemContent>
      {children}
    </TreeItem>
  );
}

/** The inline name field of F2: Enter saves, Escape cancels, leaving the field saves a valid change. */
function RenameField({
  item,
  onCommit,
  onCancel,
}: {
  item: ExplorerItem;
  onCommit: (name: string) => void;
  onCancel: () => void;
}) {
  const [value, setValue] = useState(item.name);
  const inputRef = useRef<HTMLInputElement>(null);
  const done = useRef(false);
  const check = ItemName.safeParse(value);
  const problem = check.success ? null : fieldSentence(check.error.issues[0]?.message ?? 'is invalid', 'The name');

  useEffect(() => {
    const input = inputRef.current;
    if (!input) return;
    input.focus();
    // Select the name without its extension, as file managers do.
    const dot = item.name.lastIndexOf('.');
    input.setSelectionRange(0, dot > 0 ? dot : item.name.length);
  }, [item.name]);

  const finish = (save: boolean) => {
    if (done.current) return;
    done.current = true;
    if (save && !problem) onCommit(value);
    else onCancel();
  };

  return (
    <span className="xtree-rename">
      <input
        ref={inputRef}
        className="xtree-rename__input"
        aria-label={`New name for ${accessibleNameOf(item)}`}
        aria-invalid={problem ? true : undefined}
        title={problem ?? undefined}
        value={value}
        onChange={(e) => setValue(e.target.value)}
        // Keys and clicks belong to the field, not to the tree around it.
        onKeyDown={(e) => {
          e.stopPropagation();
          if (e.key === 'Enter') {
            e.preventDefault();
            if (problem) toast.error('This name cannot be used', problem);
            else finish(true);
          } else if (e.key === 'Escape') {
            e.preventDefault();
            finish(false);
          }
        }}
        onPointerDown={(e) => e.stopPropagation()}
        onMouseDown={(e) => e.stopPropagation()}
        onClick={(e) => e.stopPropagation()}
        onBlur={() => finish(true)}
      />
    </span>
  );
}

export default ExplorerTreePanel;
