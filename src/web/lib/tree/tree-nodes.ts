import type { Folder } from '../../../shared/api/folders';
import { childrenOf, foldForSearch, isContainer, type ExplorerItem } from './items';

/** What the tree knows about a container's listing. */
export type ListingState =
  | {
      status: 'loaded';
      folder: Folder;
      /** Titles of the children by name, once they are known. */
      titles?: ReadonlyMap<string, string>;
    }
  | { status: 'loading' }
  | { status: 'error'; error: unknown }
  | { status: 'unknown' };

/** A row of the tree, with its children when it is shown expanded. */
export interface TreeNode {
  /** The item's path: its key in the tree. */
  id: string;
  item: ExplorerItem;
  /** Children rendered below the row (empty while collapsed, loading or failed). */
  children: TreeNode[];
  /** Whether the row can expand: a container that is not known to be empty. */
  hasChildren: boolean;
  /** The state of the container's listing (`unknown` for leaves and never-read containers). */
  status: ListingState['status'];
  error?: unknown;
}

export interface BuildOptions {
  roots: readonly ExplorerItem[];
  /** Containers whose children are shown (the user's expansion; ignored while filtering). */
  expanded: ReadonlySet<string>;
  /** The listing of a container, from the query cache. */
  listingOf: (path: string) => ListingState;
  /** A filter over what is loaded, by name or title; empty for none. */
  filter?: string;
  /** The previous build, so unchanged rows keep their identity (the tree re-renders only what changed). */
  previous?: ReadonlyMap<string, TreeNode>;
  /** Which children to show (pickers show only containers); all when absent. */
  keep?: (item: ExplorerItem) => boolean;
}

export interface BuiltTree {
  nodes: TreeNode[];
  /** Every node of this build by path (pass as `previous` to the next build). */
  byPath: Map<string, TreeNode>;
  /** Containers shown expanded: the user's expansion, or while filtering the ones holding matches. */
  expanded: Set<string>;
  /** While filtering: how many loaded items match. */
  matches: number;
}

/**
 * Children of containers are computed once per listing object and titles object (10k children are not rebuilt on
 * each render).
 */
const childrenCache = new WeakMap<Folder, WeakMap<object, Map<string, ExplorerItem[]>>>();
const NO_TITLES = {};

function cachedChildren(item: ExplorerItem, folder: Folder, titles?: ReadonlyMap<string, string>): ExplorerItem[] {
  let byTitles = childrenCache.get(folder);
  if (!byTitles) childrenCache.set(folder, (byTitles = new WeakMap()));
  let byPath = byTitles.get(titles ?? NO_TITLES);
  if (!byPath) byTitles.set(titles ?? NO_TITLES, (byPath = new Map()));
  let children = byPath.get(item.path);
  if (!children) byPath.set(item.path, (children = childrenOf(item, folder, titles)));
  return children;
}

function sameItems(a: readonly TreeNode[], b: readonly TreeNode[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Builds the rows of the tree from the roots, the expansion and the cached listings. Only expanded containers
 * contribute children, so the tree never needs more than the listings of what the user opened. With a filter,
 * every loaded listing is searched instead: matching items are shown with the containers leading to them.
 */
export function buildTree({ roots, expanded, listingOf, filter = '', previous, keep }: BuildOptions): BuiltTree {
  const byPath = new Map<string, TreeNode>();
  const shownExpanded = new Set<string>();
  const needle = foldForSearch(filter.trim());
  let matches = 0;

  const finish = (node: TreeNode): TreeNode => {
    const old = previous?.get(node.id);
    const reused =
      old &&
      old.item.kind === node.item.kind &&
      old.item.isLandingPage === node.item.isLandingPage &&
      old.item.title === node.item.title &&
      old.hasChildren === node.hasChildren &&
      old.status === node.status &&
      old.error === node.error &&
      sameItems(old.children, node.children)
        ? old
        : node;
    byPath.set(reused.id, reused);
    return reused;
  };

  const visit = (item: ExplorerItem): TreeNode | null => {
    const container = isContainer(item.kind);
    const listing: ListingState = container ? listingOf(item.path) : { status: 'unknown' };
    const allChildren = listing.status === 'loaded' ? cachedChildren(item, listing.folder, listing.titles) : null;
    const loadedChildren = allChildren && keep ? allChildren.filter(keep) : allChildren;
    const hasChildren = container && (loadedChildren === null || loadedChildren.length > 0);
    const base = {
      id: item.path,
      item,
      hasChildren,
      status: listing.status,
      ...(listing.status === 'error' ? { error: listing.error } : {}),
    };

    if (needle) {
      const selfMatches =
        foldForSearch(item.name).includes(needle) || (item.title ? foldForSearch(item.title).includes(needle) : false);
      if (selfMatches) matches++;
      const children = (loadedChildren ?? []).map(visit).filter((n): n is TreeNode => n !== null);
      if (!selfMatches && children.length === 0) return null;
      if (children.length > 0) shownExpanded.add(item.path);
      return finish({ ...base, children });
    }

    if (!expanded.has(item.path) || !container) return finish({ ...base, children: [] });
    shownExpanded.add(item.path);
    const children = (loadedChildren ?? []).map((child) => visit(child)!);
    return finish({ ...base, children });
  };

  const nodes = roots.map(visit).filter((n): n is TreeNode => n !== null);
  return { nodes, byPath, expanded: shownExpanded, matches };
}
