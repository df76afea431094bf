import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import {
  Collection,
  ListLayout,
  TreeItemContent,
  TreeLoadMoreItem,
  Virtualizer,
  type Key,
  type TreeState,
} from 'react-aria-components';
import { ErrorState } from '../ui/status';
import { Tree, TreeItem } from '../ui/tree';
import { useApi } from '../../lib/api';
import { sitesQueryOptions } from '../../lib/queries/sites';
import {
  accessibleNameOf,
  ancestorPathsOf,
  labelOf,
  LIBRARY_ITEM,
  siteItemsOf,
  type ExplorerItem,
} from '../../lib/tree/items';
import { buildTree, type TreeNode } from '../../lib/tree/tree-nodes';
import { useTreeListings } from '../../lib/tree/use-listings';
import { errorMessage } from '../../lib/errors';
import { TreeRowContent } from './tree-row';

const PICKER_ROW_HEIGHT = 30;

/**
 * A tree for choosing a place: where to move an item, which section a section link points at. It loads children
 * as containers open, like the explorer tree, and shows only the items `keep` accepts.
 */
export function ContainerPicker({
  label,
  realm,
  keep,
  selectedPath,
  onSelect,
  initiallyExpanded,
  autoFocus,
}: {
  /** Accessible name of the tree ("Move to"). */
  label: string;
  /** The sites, or the asset library. */
  realm: 'sites' | 'library';
  keep: (item: ExplorerItem) => boolean;
  selectedPath: string | null;
  onSelect: (item: ExplorerItem) => void;
  /** A container that starts open, with the ones above it (where the item is now). */
  initiallyExpanded?: string;
  /** Puts the focus in the tree when it shows: on the `initiallyExpanded` container's row, else the first row. */
  autoFocus?: boolean;
}) {
  const client = useApi();
  const [expanded, setExpanded] = useState<Set<string>>(
    () => new Set(initiallyExpanded ? [...ancestorPathsOf(initiallyExpanded), initiallyExpanded] : []),
  );
  const sites = useQuery({ ...sitesQueryOptions(client), enabled: realm === 'sites' });
  const expandedPaths = useMemo(() => [...expanded].sort(), [expanded]);
  const listingOf = useTreeListings(expandedPaths);
  const roots = useMemo(() => (realm === 'library' ? [LIBRARY_ITEM] : siteItemsOf(sites.data)), [realm, sites.data]);
  const built = buildTree({ roots, expanded, listingOf, keep });

  // Focus the row of the container the item is in once it is there (the sites load first, then the listings).
  const stateRef = useRef<TreeState<unknown> | null>(null);
  const treeRef = useRef<HTMLDivElement>(null);
  const focusDone = useRef(!autoFocus);
  const focusKey = initiallyExpanded && built.byPath.has(initiallyExpanded) ? initiallyExpanded : built.nodes[0]?.id;
  const focusReady = focusKey !== undefined && (focusKey === initiallyExpanded || !initiallyExpanded);
  useEffect(() => {
    const manager = stateRef.current?.selectionManager;
    if (focusDone.current || !focusReady || !manager || focusKey === undefined) return;
    focusDone.current = true;
    manager.setFocused(true);
    manager.setFocusedKey(focusKey);
    requestAnimationFrame(() =>
      treeRef.current?.querySelector<HTMLElement>(`[data-path="${CSS.escape(focusKey)}"]`)?.focus(),
    );
  }, [focusReady, focusKey]);

  if (realm === 'sites' && sites.isError) {
    return <ErrorState title="Could not load the sites" error={sites.error} onRetry={() => void sites.refetch()} />;
  }

  const renderNode = (node: TreeNode) => (
    <TreeItem<TreeNode>
      id={node.id}
      value={node}
      textValue={labelOf(node.item)}
      aria-label={accessibleNameOf(node.item)}
      hasChildItems={node.hasChildren}
      className="xtree-item"
      data-path={node.id}
    >
      <TreeItemContent>
        {({ hasChildItems, isExpanded, level }) => (
          <TreeRowContent
            item={node.item}
            hasChildItems={hasChildItems}
            isExpanded={isExpanded}
            level={level}
            status={node.status}
            errorText={node.status === 'error' ? `Could not load the contents: ${errorMessage(node.error)}` : undefined}
          />
        )}
      </TreeItemContent>
      <Collection items={node.children}>{renderNode}</Collection>
      {/* A container whose children are not loaded yet still expands (react-aria counts this placeholder). */}
      {node.hasChildren && node.children.length === 0 && <TreeLoadMoreItem isLoading={false} />}
    </TreeItem>
  );

  return (
    <div className="picker">
      <Virtualizer layout={ListLayout} layoutOptions={{ rowHeight: PICKER_ROW_HEIGHT }}>
        <Tree<TreeNode>
          ref={treeRef}
          stateRef={stateRef}
          autoFocus={autoFocus}
          aria-label={label}
          className="xtree picker__tree"
          items={built.nodes}
          selectionMode="single"
          keyboardNavigationBehavior="tab"
          selectedKeys={selectedPath ? [selectedPath] : []}
          onSelectionChange={(keys) => {
            if (keys === 'all') return;
            const [key] = [...keys];
            const node = key === undefined ? undefined : built.byPath.get(String(key));
            if (node) onSelect(node.item);
          }}
          expandedKeys={expanded}
          onExpandedChange={(keys: Set<Key>) => setExpanded(new Set([...keys].map(String)))}
          renderEmptyState={() => <p className="xtree__empty">Loading…</p>}
        >
          {renderNode}
        </Tree>
      </Virtualizer>
    </div>
  );
}
