import { useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import {
  Collection,
  ListLayout,
  TreeItemContent,
  TreeLoadMoreItem,
  Virtualizer,
  type Key,
} from 'react-aria-components';
import type { WithEtag } from '../../../shared/api/client';
import type { Folder } from '../../../shared/api/folders';
import { ErrorState } from '../ui/status';
import { Tree, TreeItem } from '../ui/tree';
import { useApi } from '../../lib/api';
import { folderQueryOptions } from '../../lib/queries/folders';
import { sitesQueryOptions } from '../../lib/queries/sites';
import { foldersKeys } from '../../lib/query-keys';
import { accessibleNameOf, ancestorPathsOf, itemAt, LIBRARY_ITEM, type ExplorerItem } from '../../lib/tree/items';
import { buildTree, type ListingState, type TreeNode } from '../../lib/tree/tree-nodes';
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
}) {
  const client = useApi();
  const queryClient = useQueryClient();
  const [expanded, setExpanded] = useState<Set<string>>(
    () => new Set(initiallyExpanded ? [...ancestorPathsOf(initiallyExpanded), initiallyExpanded] : []),
  );
  const sites = useQuery({ ...sitesQueryOptions(client), enabled: realm === 'sites' });
  const expandedPaths = useMemo(() => [...expanded].sort(), [expanded]);
  useQueries({ queries: expandedPaths.map((path) => folderQueryOptions(client, path)) });

  const listingOf = useCallback(
    (path: string): ListingState => {
      const state = queryClient.getQueryState<WithEtag<Folder>>(foldersKeys.detail(path));
      if (state?.data) return { status: 'loaded', folder: state.data.data };
      if (state?.status === 'error') return { status: 'error', error: state.error };
      return state ? { status: 'loading' } : { status: 'unknown' };
    },
    [queryClient],
  );
  const roots = useMemo(
    () => (realm === 'library' ? [LIBRARY_ITEM] : (sites.data ?? []).map((s) => itemAt(s.name, 'site'))),
    [realm, sites.data],
  );
  const built = buildTree({ roots, expanded, listingOf, keep });

  if (realm === 'sites' && sites.isError) {
    return <ErrorState title="Could not load the sites" error={sites.error} onRetry={() => void sites.refetch()} />;
  }

  const renderNode = (node: TreeNode) => (
    <TreeItem<TreeNode>
      id={node.id}
      value={node}
      textValue={node.item.name}
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
