import { useIsMutating, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, type SyntheticEvent } from 'react';
import { Collection, ListLayout, TreeLoadMoreItem, Virtualizer, type Key, type TreeState } from 'react-aria-components';
import { SearchField } from '../../../components/ui/search-field';
import { Spinner } from '../../../components/ui/spinner';
import { ErrorState } from '../../../components/ui/status';
import { Tree } from '../../../components/ui/tree';
import { useApi } from '../../../lib/api';
import { focusLater } from '../../../lib/focus-later';
import { sitesQueryOptions } from '../../../lib/queries/sites';
import { foldersKeys } from '../../../lib/query-keys';
import { isMovable, LIBRARY_ITEM, siteItemsOf, type ExplorerItem } from '../../../lib/tree/items';
import { buildTree, type TreeNode } from '../../../lib/tree/tree-nodes';
import { useTreeListings } from '../../../lib/tree/use-listings';
import { canChange } from '../lib/access';
import { canChangeAnything, useExplorer } from './explorer-context';
import { ExplorerTreeItem } from './explorer-tree-item';
import { useFocusAfterRemoval } from './use-focus-after-removal';
import { useItemCommands } from './use-item-commands';
import { useTreeDragAndDrop } from './use-tree-drag-and-drop';
import { useTreeFilter } from './use-tree-filter';
import { useTreeKeyboard } from './use-tree-keyboard';
import { useTreeMenu } from './use-tree-menu';
import { useTreeRename } from './use-tree-rename';
import './explorer.css';

/** Height of a tree row in pixels (the virtualiser lays out fixed rows; keep in step with explorer.css). */
export const TREE_ROW_HEIGHT = 30;

/**
 * The explorer tree in the navigation area: every site the user may read and the asset library, children loaded
 * when a container expands, a filter over what is loaded, a context menu (right click, Menu key or Shift+F10, the
 * "…" button), inline rename (F2), drag and drop to move items into containers and to reorder sections and links,
 * and keyboard shortcuts for the rest (Delete, Alt+↑/↓). Long lists are virtualised: only visible rows are in the
 * DOM. Each of these is a hook beside this file (`use-tree-*.ts`); rows are `explorer-tree-item.tsx`.
 */
export function ExplorerTreePanel() {
  const explorer = useExplorer();
  const client = useApi();
  const queryClient = useQueryClient();
  const commands = useItemCommands();
  const savingCount = useIsMutating();
  const mayChange = canChangeAnything(explorer.role);
  const filter = useTreeFilter();
  const treeRef = useRef<HTMLDivElement>(null);
  const stateRef = useRef<TreeState<unknown> | null>(null);

  const sitesQuery = useQuery(sitesQueryOptions(client));
  const expandedPaths = useMemo(() => [...explorer.expanded].sort(), [explorer.expanded]);
  // The listings of expanded containers: this subscription re-renders the tree as they load.
  const listingOf = useTreeListings(expandedPaths);

  const roots = useMemo(() => [...siteItemsOf(sitesQuery.data), LIBRARY_ITEM], [sitesQuery.data]);
  const previous = useRef<Map<string, TreeNode> | undefined>(undefined);
  const built = buildTree({
    roots,
    expanded: explorer.expanded,
    listingOf,
    filter: filter.term,
    previous: previous.current,
  });
  useEffect(() => {
    previous.current = built.byPath;
  });

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

  const rename = useTreeRename(built, focusRow);
  const menu = useTreeMenu({ commands, expectRemoval, stateRef });
  const handleKeyDownCapture = useTreeKeyboard({
    built,
    commands,
    stateRef,
    onRename: rename.start,
    onMenu: menu.openAt,
    expectRemoval,
  });
  const dragAndDropHooks = useTreeDragAndDrop({ built, isDisabled: !mayChange || filter.filtering, mayChangeItem });

  const expandedKeys = filter.filtering ? (filter.expanded ?? built.expanded) : explorer.expanded;

  const handleExpandedChange = (keys: Set<Key>) => {
    if (filter.filtering) {
      filter.setExpanded(keys);
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
  const dependencies = [rename.renaming, mayChange, filter.filtering, explorer.role];

  const renderNode = (node: TreeNode) => (
    <ExplorerTreeItem
      key={node.id}
      node={node}
      canDrag={mayChange && !filter.filtering && isMovable(node.item) && mayChangeItem(node.item)}
      showMenuButton={mayChange}
      isRenaming={rename.renaming === node.id}
      onRenameCommit={(name) => rename.commit(node.item, name)}
      onRenameCancel={() => rename.cancel(node.id)}
      onMenuButton={(element) => menu.openAt(node.item, element)}
      onContextMenu={(x, y) => menu.openAtPointer(node.item, x, y)}
    >
      <Collection items={node.children} dependencies={dependencies}>
        {renderNode}
      </Collection>
      {/* A container whose children are not loaded yet still expands (react-aria counts this placeholder). */}
      {node.hasChildren && node.children.length === 0 && <TreeLoadMoreItem isLoading={false} />}
    </ExplorerTreeItem>
  );

  const busy = savingCount > 0;
  // The code of the screen of the row pointed at or focused loads while the person is about to open it, not after.
  const preloadScreenAt = (event: SyntheticEvent) => {
    const row = (event.target as Element).closest<HTMLElement>('[data-path]');
    const node = row?.dataset.path === undefined ? undefined : built.byPath.get(row.dataset.path);
    if (node) explorer.preloadScreenOf(node.item);
  };

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
          value={filter.text}
          onChange={filter.setText}
          placeholder="Filter"
        />
        {filter.filtering && (
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
        <div
          className="explorer-panel__tree"
          onKeyDownCapture={handleKeyDownCapture}
          onPointerOver={preloadScreenAt}
          onFocus={preloadScreenAt}
          data-keeps-focus-on-navigation=""
        >
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
      {menu.menu}
    </section>
  );
}

export default ExplorerTreePanel;
