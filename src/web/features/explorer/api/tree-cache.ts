import type { Query, QueryClient } from '@tanstack/react-query';
import type { WithEtag } from '../../../../shared/api/client';
import type { ChildSummary, Folder, FolderChildren } from '../../../../shared/api/folders';
import { parentPathOf } from '../../../lib/tree/items';
import { sitesKeys, foldersKeys, pagesKeys } from '../../../lib/query-keys';

/**
 * Targeted cache updates after a change in the tree: only the containers whose listing changed are read again,
 * and what was at a path that no longer exists is forgotten (never refetched into a 404).
 */

/**
 * Forgets what was cached at `path` and below it (folders, their children's summaries, contents counts, pages),
 * after a rename, move or delete. A query that a screen, the tree or a dialog still shows is forgotten only once
 * nothing shows it any more: removing it earlier would make that observer fetch the old path again (a 404) in the
 * moment before the app has moved on to the new one.
 */
export function forgetSubtree(queryClient: QueryClient, path: string) {
  const cache = queryClient.getQueryCache();
  const prefixes = [
    foldersKeys.detail(path),
    foldersKeys.children(path),
    foldersKeys.contents(path),
    pagesKeys.detail(path),
  ];
  const stillShown = new Set<Query>();
  for (const queryKey of prefixes) {
    for (const query of cache.findAll({ queryKey })) {
      if (query.getObserversCount() === 0) cache.remove(query);
      else {
        // Nothing may read the old path again, not even a refetch that is already on its way.
        void query.cancel({ revert: true });
        stillShown.add(query);
      }
    }
  }
  if (stillShown.size === 0) return;
  const unsubscribe = cache.subscribe((event) => {
    if (event.type !== 'observerRemoved' || !stillShown.has(event.query)) return;
    if (event.query.getObserversCount() > 0) return;
    stillShown.delete(event.query);
    cache.remove(event.query);
    if (stillShown.size === 0) unsubscribe();
  });
}

/** Reads the listing of the container at `path` again, with its children's summaries (the sites list for roots). */
export async function refreshContainer(queryClient: QueryClient, path: string | null) {
  if (path === null) return queryClient.invalidateQueries({ queryKey: sitesKeys.all });
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: foldersKeys.detail(path), exact: true }),
    queryClient.invalidateQueries({ queryKey: foldersKeys.children(path), exact: true }),
    queryClient.invalidateQueries({ queryKey: foldersKeys.childFolders(path), exact: true }),
  ]);
}

/** Reads the listing holding `path` again. */
export function refreshParentOf(queryClient: QueryClient, path: string) {
  return refreshContainer(queryClient, parentPathOf(path));
}

/** A cached folder and its ETag, or undefined. */
export function cachedFolder(queryClient: QueryClient, path: string): WithEtag<Folder> | undefined {
  return queryClient.getQueryData<WithEtag<Folder>>(foldersKeys.detail(path));
}

/** A listing (and its children's summaries) as it was before an optimistic update, to roll back to. */
export interface ListingSnapshot {
  path: string;
  previous: WithEtag<Folder> | undefined;
  previousChildren?: FolderChildren;
}

/** The cached summaries of a container's children (titles, states), or undefined. */
export function cachedChildren(queryClient: QueryClient, path: string): FolderChildren | undefined {
  return queryClient.getQueryData<FolderChildren>(foldersKeys.children(path));
}

/**
 * Changes the cached listing of the container at `path` at once (optimistic update), and its children's summaries
 * with `changeChildren`, and answers what to roll back to. Running fetches of them are cancelled so they cannot
 * overwrite the change.
 */
export async function updateListing(
  queryClient: QueryClient,
  path: string,
  change: (folder: Folder) => Folder,
  changeChildren?: (children: FolderChildren) => FolderChildren,
): Promise<ListingSnapshot> {
  const key = foldersKeys.detail(path);
  const childrenKey = foldersKeys.children(path);
  await Promise.all([
    queryClient.cancelQueries({ queryKey: key, exact: true }),
    changeChildren && queryClient.cancelQueries({ queryKey: childrenKey, exact: true }),
  ]);
  const previous = queryClient.getQueryData<WithEtag<Folder>>(key);
  if (previous) queryClient.setQueryData<WithEtag<Folder>>(key, { ...previous, data: change(previous.data) });
  const previousChildren = changeChildren ? cachedChildren(queryClient, path) : undefined;
  if (changeChildren && previousChildren) queryClient.setQueryData(childrenKey, changeChildren(previousChildren));
  return { path, previous, previousChildren };
}

/** Puts listings back as they were before an optimistic update that failed. */
export function rollBack(queryClient: QueryClient, snapshots: readonly ListingSnapshot[] | undefined) {
  for (const s of snapshots ?? []) {
    if (s.previous) queryClient.setQueryData(foldersKeys.detail(s.path), s.previous);
    if (s.previousChildren) queryClient.setQueryData(foldersKeys.children(s.path), s.previousChildren);
  }
}

/** Summaries without the child named `name`. */
export function withoutChildSummary(children: FolderChildren, name: string): FolderChildren {
  return { ...children, items: children.items.filter((c) => c.name !== name) };
}

/** Summaries where the child `from` is called `to`. */
export function withRenamedChildSummary(children: FolderChildren, from: string, to: string): FolderChildren {
  return { ...children, items: children.items.map((c) => (c.name === from ? { ...c, name: to } : c)) };
}

/** Summaries with `summary` added (or replaced, by name). */
export function withChildSummary(children: FolderChildren, summary: ChildSummary | undefined): FolderChildren {
  if (!summary) return children;
  return { ...children, items: [...children.items.filter((c) => c.name !== summary.name), summary] };
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
