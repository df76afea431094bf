import type { Folder, FolderChildren, ItemKind, TreeItem } from '../../../shared/api/folders';
import { ASSET_LIBRARY, splitPath } from '../../../shared/api/paths';
import type { SiteSummary } from '../../../shared/api/sites';
import { canContain as canContainKind, type TreeKind } from '../../../shared/tree/rules';

/**
 * The explorer's model of the tree: every item is addressed by its by-path path (`demo/about/team`,
 * `Assets/images`), which is also its key in the tree and the tail of its URL in the app. The asset library and
 * its folders get kinds of their own because what they hold and where they open differ from a site's folders.
 */
export type ExplorerKind =
  'site' | 'section' | 'sectionlink' | 'externallink' | 'folder' | 'page' | 'library' | 'assetfolder';

/** One item of the tree. */
export interface ExplorerItem {
  /** By-path path: `site/…/name`, `Assets/…`, or `Assets` for the asset library. */
  path: string;
  segments: string[];
  /** The last segment (a site's name for a site). */
  name: string;
  kind: ExplorerKind;
  /** The index page of a site or section: it cannot be moved, renamed or deleted on its own. */
  isLandingPage?: boolean;
  /** What people call it, when known: a page's display name, a site's, section's or link's display title. */
  title?: string;
}

/** Kinds in words, as accessible names and messages use them ("News, section"). */
export const KIND_LABEL: Record<ExplorerKind, string> = {
  site: 'site',
  section: 'section',
  sectionlink: 'section link',
  externallink: 'external link',
  folder: 'folder',
  page: 'page',
  library: 'asset library',
  assetfolder: 'asset folder',
};

/** "a section", "an external link". */
export function aKind(kind: ExplorerKind): string {
  const word = KIND_LABEL[kind];
  return /^[aeiou]/.test(word) ? `an ${word}` : `a ${word}`;
}

/** Kinds that hold other items (and so expand in the tree). */
export function isContainer(kind: ExplorerKind): boolean {
  return kind === 'site' || kind === 'section' || kind === 'folder' || kind === 'library' || kind === 'assetfolder';
}

/** Kinds listed in a site's or section's `subsections`, whose order is the navigation order. */
export function isNavigationEntry(kind: ExplorerKind): boolean {
  return kind === 'section' || kind === 'sectionlink' || kind === 'externallink';
}

/** Kinds whose own resource is a folder resource (everything but pages). */
export function isFolderResource(kind: ExplorerKind): boolean {
  return kind !== 'page';
}

/** The item at `path` of the given kind. */
export function itemAt(path: string, kind: ExplorerKind, isLandingPage?: boolean): ExplorerItem {
  const segments = splitPath(path);
  return {
    path: segments.join('/'),
    segments,
    name: segments[segments.length - 1] ?? '',
    kind,
    ...(isLandingPage ? { isLandingPage } : {}),
  };
}

/** The sites of the sites list as items, titled with their display titles. */
export function siteItemsOf(sites: readonly SiteSummary[] | undefined): ExplorerItem[] {
  return (sites ?? []).map((s) => ({
    ...itemAt(s.name, 'site'),
    ...(s.displayTitle ? { title: s.displayTitle } : {}),
  }));
}

/** The asset library root. */
export const LIBRARY_ITEM: ExplorerItem = itemAt(ASSET_LIBRARY, 'library');

/** True for paths in the asset library (`Assets`, `Assets/…`). */
export function isInLibrary(path: string): boolean {
  return path === ASSET_LIBRARY || path.startsWith(`${ASSET_LIBRARY}/`);
}

/** The path of the container holding `path`; null for a site or the asset library. */
export function parentPathOf(path: string): string | null {
  const i = path.lastIndexOf('/');
  return i < 0 ? null : path.slice(0, i);
}

/** Every ancestor of `path`, outermost first (`a/b/c` → `a`, `a/b`). */
export function ancestorPathsOf(path: string): string[] {
  const segments = splitPath(path);
  return segments.slice(0, -1).map((_, i) => segments.slice(0, i + 1).join('/'));
}

/** True when `path` is `ancestor` itself or lies below it. */
export function isSameOrBelow(path: string, ancestor: string): boolean {
  return path === ancestor || path.startsWith(`${ancestor}/`);
}

/** `path` after the item at `from` moved to `to` (unchanged when it is not at or below `from`). */
export function remapPath(path: string, from: string, to: string): string {
  return isSameOrBelow(path, from) ? to + path.slice(from.length) : path;
}

/** The kind of a child of a container, from the container's own kind. */
function folderKindIn(parent: ExplorerKind): ExplorerKind {
  return parent === 'library' || parent === 'assetfolder' ? 'assetfolder' : 'folder';
}

/**
 * The children of a container as the tree shows them: navigation entries in navigation order, then folders,
 * then pages, each group by name as the service lists them. The asset library and its folders show only their
 * folders (assets are listed in the asset library screen).
 */
export function childrenOf(parent: ExplorerItem, folder: Folder, titles?: ReadonlyMap<string, string>): ExplorerItem[] {
  const at = (name: string) => `${parent.path}/${name}`;
  const folderKind = folderKindIn(parent.kind);
  const out: ExplorerItem[] = [];
  const add = (item: ExplorerItem) => {
    const title = titles?.get(item.name);
    out.push(title ? { ...item, title } : item);
  };
  for (const entry of folder.subsections ?? []) add(itemAt(at(entry.name), entry.type));
  for (const sub of folder.subfolders ?? []) add(itemAt(at(sub.name), folderKind));
  if (folderKind === 'folder') {
    const landing = folder.sectionInfo?.landingPage?.name;
    for (const page of folder.pages ?? []) add(itemAt(at(page.name), 'page', page.name === landing));
  }
  return out;
}

const titleMaps = new WeakMap<FolderChildren, ReadonlyMap<string, string>>();

/** The titles of a container's children by name (computed once per answer). */
export function titlesOf(children: FolderChildren): ReadonlyMap<string, string> {
  let map = titleMaps.get(children);
  if (!map) {
    map = new Map(children.items.flatMap((c) => (c.title ? [[c.name, c.title] as const] : [])));
    titleMaps.set(children, map);
  }
  return map;
}

/** What people call an item: its title, or its name when it has none. */
export function labelOf(item: Pick<ExplorerItem, 'name' | 'title'>): string {
  return item.title || item.name;
}

/** The name, when it says something the title does not (shown beside the title as secondary text). */
export function secondaryNameOf(item: Pick<ExplorerItem, 'name' | 'title'>): string | undefined {
  return item.title && item.title !== item.name ? item.name : undefined;
}

/** The explorer kind of a folder resource, from what the service answered for it. */
export function kindOfFolder(path: string, folder: Folder): ExplorerKind {
  if (path === ASSET_LIBRARY) return 'library';
  if (isInLibrary(path)) return 'assetfolder';
  if (!path.includes('/')) return 'site';
  if (folder.sectionInfo?.type === 'externallink') return 'externallink';
  if (folder.sectionInfo?.type === 'sectionlink') return 'sectionlink';
  return folder.sectionInfo ? 'section' : 'folder';
}

/** The explorer item of a `find`/move/rename answer. */
export function itemOfTreeItem(t: TreeItem): ExplorerItem {
  const kind: ExplorerKind =
    t.kind === 'folder'
      ? t.path === ASSET_LIBRARY
        ? 'library'
        : isInLibrary(t.path)
          ? 'assetfolder'
          : 'folder'
      : // Assets are shown in their folder's screen.
        t.kind === 'asset'
        ? 'assetfolder'
        : t.kind;
  const path = t.kind === 'asset' ? (parentPathOf(t.path) ?? t.path) : t.path;
  const item = itemAt(path, kind);
  return t.kind !== 'asset' && t.title ? { ...item, title: t.title } : item;
}

/**
 * The explorer kind of a folder item known by its path and the API's word for its kind (`site`, `section`, …, as
 * a search hit's `type` says): anything in the asset library is an asset folder, an unknown word a folder.
 */
export function kindOfFolderItem(path: string, type: string): ExplorerKind {
  if (path === ASSET_LIBRARY) return 'library';
  if (isInLibrary(path)) return 'assetfolder';
  const known: readonly string[] = ['site', 'section', 'sectionlink', 'externallink', 'folder'];
  const lower = type.toLowerCase();
  return known.includes(lower) ? (lower as ExplorerKind) : 'folder';
}

/** The item kinds the API uses for an explorer kind (for `find`). */
export function apiKindOf(kind: ExplorerKind): ItemKind {
  return kind === 'library' || kind === 'assetfolder' ? 'folder' : kind;
}

/**
 * The accessible name of a tree item: its title (with the name when it differs) and kind ("Latest news (news),
 * section"; "articles, folder"; "Welcome (index), landing page").
 */
export function accessibleNameOf(item: ExplorerItem): string {
  const secondary = secondaryNameOf(item);
  return `${labelOf(item)}${secondary ? ` (${secondary})` : ''}, ${item.isLandingPage ? 'landing page' : KIND_LABEL[item.kind]}`;
}

/** The service's kind of an explorer kind (asset folders are folders of the asset library). */
function treeKindOf(kind: ExplorerKind): TreeKind {
  return kind === 'assetfolder' ? 'folder' : kind;
}

/** Whether a container of kind `parent` may hold an item of kind `child` (the shared rule; the service stays the judge). */
export function canContain(parent: ExplorerKind, child: ExplorerKind): boolean {
  const realm = parent === 'library' || parent === 'assetfolder' ? 'assets' : 'site';
  return canContainKind(treeKindOf(parent), realm, treeKindOf(child));
}

/** Whether an item may be moved, renamed or deleted at all (sites are only renamed or deleted). */
export function isMovable(item: ExplorerItem): boolean {
  return item.kind !== 'site' && item.kind !== 'library' && !item.isLandingPage;
}

/**
 * Why `item` cannot be moved into `target`, in words; null when the move is allowed. Checked before anything is
 * sent, so drag and drop and the "Move to…" dialog refuse cycles and impossible targets alike.
 */
export function moveRefusal(item: ExplorerItem, target: ExplorerItem): string | null {
  if (!isMovable(item)) {
    return item.isLandingPage
      ? 'A landing page stays with its site or section.'
      : `${capitalise(aKind(item.kind))} cannot be moved.`;
  }
  if (target.path === item.path) return `“${item.name}” cannot be moved into itself.`;
  if (isSameOrBelow(target.path, item.path)) return `“${item.name}” cannot be moved into a folder inside it.`;
  if (parentPathOf(item.path) === target.path) return `“${item.name}” is already in “${target.name}”.`;
  if (!isContainer(target.kind)) return `Nothing can be put in ${aKind(target.kind)}.`;
  if (isInLibrary(item.path) !== isInLibrary(target.path)) {
    return isInLibrary(item.path)
      ? 'Asset folders stay in the asset library.'
      : 'Only asset folders go into the asset library.';
  }
  if (!canContain(target.kind, item.kind)) {
    return `${capitalise(aKind(target.kind))} cannot hold ${aKind(item.kind)}${
      target.kind === 'folder' && isNavigationEntry(item.kind) ? ': sections and links live in sites and sections' : ''
    }.`;
  }
  return null;
}

export function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** Case- and accent-insensitive form for filtering by name. */
export function foldForSearch(s: string): string {
  return s
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();
}
