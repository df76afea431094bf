import type { AssetListQueryInput } from '../../shared/api/assets';
import { splitPath } from '../../shared/api/paths';
import type { SearchQuery } from '../../shared/api/search';

/** A version of a page or asset: a revision's number, or the live one. */
export type VersionRef = number | 'live';

/*
 * Every query key of the app, one factory per resource, general to specific: invalidating a prefix refreshes
 * everything below it. Keys of items end with their path segments, so the key of a folder is a prefix of the keys
 * of everything inside it: removing `foldersKeys.detail('demo/about')` (not exact) forgets the whole subtree after
 * a move, rename or delete. One resource read under one key only (the sites list was once cached twice).
 */

/** GET /cms/rest/sites. */
export const sitesKeys = {
  all: ['sites'] as const,
  list: () => [...sitesKeys.all, 'list'] as const,
};

/** Sites, folders, sections, links and asset folders (folder resources), their contents and the find field. */
export const foldersKeys = {
  all: ['folders'] as const,
  details: () => [...foldersKeys.all, 'detail'] as const,
  detail: (path: string) => [...foldersKeys.details(), ...splitPath(path)] as const,
  contents: (path: string) => [...foldersKeys.all, 'contents', ...splitPath(path)] as const,
  /** The children of a container with their titles, states and changes (prefix of the children of a subtree). */
  children: (path: string) => [...foldersKeys.all, 'children', ...splitPath(path)] as const,
  /** Only the folders among a container's children (an object, so never a child's name). */
  childFolders: (path: string) => [...foldersKeys.children(path), { kind: 'folder' }] as const,
  find: (q: string) => [...foldersKeys.all, 'find', q] as const,
};

/** Pages and their workflow transitions. */
export const pagesKeys = {
  all: ['pages'] as const,
  details: () => [...pagesKeys.all, 'detail'] as const,
  detail: (path: string) => [...pagesKeys.details(), ...splitPath(path)] as const,
  transitions: (path: string) => [...pagesKeys.all, 'transitions', ...splitPath(path)] as const,
  /** The page's revision list (every page of it). */
  revisions: (path: string) => [...pagesKeys.all, 'revisions', ...splitPath(path)] as const,
  /** The page at a revision, or its live version. */
  version: (path: string, version: VersionRef) =>
    [...pagesKeys.all, 'version', ...splitPath(path), { version }] as const,
};

/** Templates: the list and each one. */
export const templatesKeys = {
  all: ['templates'] as const,
  list: () => [...templatesKeys.all, 'list'] as const,
  detail: (name: string) => [...templatesKeys.all, 'detail', name] as const,
  usage: (name: string, regions?: readonly string[]) =>
    [...templatesKeys.all, 'usage', name, regions?.join(',') ?? ''] as const,
};

/** Assets: folder listings (per query), metadata, where they are used, their workflow transitions. */
export const assetsKeys = {
  all: ['assets'] as const,
  lists: () => [...assetsKeys.all, 'list'] as const,
  /** Every listing of one folder, whatever the query. */
  folderLists: (folderPath: string) => [...assetsKeys.lists(), ...splitPath(folderPath)] as const,
  list: (folderPath: string, query: Omit<AssetListQueryInput, 'cursor'>) =>
    [...assetsKeys.folderLists(folderPath), { query }] as const,
  details: () => [...assetsKeys.all, 'detail'] as const,
  detail: (path: string) => [...assetsKeys.details(), ...splitPath(path)] as const,
  usage: (path: string) => [...assetsKeys.all, 'usage', ...splitPath(path)] as const,
  transitions: (path: string) => [...assetsKeys.all, 'transitions', ...splitPath(path)] as const,
  /** The asset's revision list (every page of it). */
  revisions: (path: string) => [...assetsKeys.all, 'revisions', ...splitPath(path)] as const,
  /** The asset at a revision, or its live version. */
  version: (path: string, version: VersionRef) =>
    [...assetsKeys.all, 'version', ...splitPath(path), { version }] as const,
};

/** Users (admins). */
export const usersKeys = {
  all: ['users'] as const,
  list: () => [...usersKeys.all, 'list'] as const,
};

/** Full-text search answers, per query (without the cursor: pages of one query share a key). */
export const searchKeys = {
  all: ['search'] as const,
  results: (query: Omit<SearchQuery, 'cursor'>) => [...searchKeys.all, { query }] as const,
};

/** The trash: its list (one key for every page of it). */
export const trashKeys = {
  all: ['trash'] as const,
  list: () => [...trashKeys.all, 'list'] as const,
};
