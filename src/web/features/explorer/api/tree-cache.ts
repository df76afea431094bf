import type { QueryClient } from '@tanstack/react-query';
import type { WithEtag } from '../../../../shared/api/client';
import type { Folder } from '../../../../shared/api/folders';
import { parentPathOf } from '../../../lib/tree/items';
import { sitesKeys, foldersKeys, pagesKeys } from '../../../lib/query-keys';

/**
 * Targeted cache updates after a change in the tree: only the containers whose listing changed are read again,
 * and what was at a path that no longer exists is forgotten (never refetched into a 404).
 */

/** Forgets the item at `path` and everything below it (folders and pages). */
export function forgetSubtree(queryClient: QueryClient, path: string) {
  queryClient.removeQueries({ queryKey: foldersKeys.detail(path) });
  queryClient.removeQueries({ queryKey: pagesKeys.detail(path) });
}

/** Reads the listing of the container at `path` again (and the sites list for the roots). */
export function refreshContainer(queryClient: QueryClient, path: string | null) {
  if (path === null) return queryClient.invalidateQueries({ queryKey: sitesKeys.all });
  return queryClient.invalidateQueries({ queryKey: foldersKeys.detail(path), exact: true });
}

/** Reads the listing holding `path` again. */
export function refreshParentOf(queryClient: QueryClient, path: string) {
  return refreshContainer(queryClient, parentPathOf(path));
}

/** A cached folder and its ETag, or undefined. */
export function cachedFolder(queryClient: QueryClient, path: string): WithEtag<Folder> | undefined {
  return queryClient.getQueryData<WithEtag<Folder>>(foldersKeys.detail(path));
}

/** A listing as it was before an optimistic update, to roll back to. */
export interface ListingSnapshot {
  path: string;
  previous: WithEtag<Folder> | undefined;
}

/**
 * Changes the cached listing of the container at `path` at once (optimistic update) and answers what to roll
 * back to. Running fetches of that listing are cancelled so they cannot overwrite the change.
 */
export async function updateListing(
  queryClient: QueryClient,
  path: string,
  change: (folder: Folder) => Folder,
): Promise<ListingSnapshot> {
  const key = foldersKeys.detail(path);
  await queryClient.cancelQueries({ queryKey: key, exact: true });
  const previous = queryClient.getQueryData<WithEtag<Folder>>(key);
  if (previous) queryClient.setQueryData<WithEtag<Folder>>(key, { ...previous, data: change(previous.data) });
  return { path, previous };
}

/** Puts listings back as they were before an optimistic update that failed. */
export function rollBack(queryClient: QueryClient, snapshots: readonly ListingSnapshot[] | undefined) {
  for (const s of snapshots ?? []) {
    if (s.previous) queryClient.setQueryData(foldersKeys.detail(s.path), s.previous);
  }
}

/** A listing without the child named `name`. */
export function withoutChild(folder: Folder, name: string): Folder {
  const keep = <T extends { name: string }>(list: T[] | undefined) => list?.filter((e) => e.name !== name);
  return {
    ...folder,
    subsections: keep(folder.subsections),
    subfolders: keep(folder.subfolders),
    pages: keep(folder.pages),
    assets: keep(folder.assets),
  };
}

/** A listing where the child `from` is called `to` (same place in its group). */
export function withRenamedChild(folder: Folder, from: string, to: string): Folder {
  const rename = <T extends { name: string }>(list: T[] | undefined) =>
    list?.map((e) => (e.name === from ? { ...e, name: to } : e));
  return {
    ...folder,
    subsections: rename(folder.subsections),
    subfolders: rename(folder.subfolders),
    pages: rename(folder.pages),
    assets: rename(folder.assets),
  };
}
