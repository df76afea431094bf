import type { QueryClient } from '@tanstack/react-query';
import type { Client } from '../../../../shared/api/client';
import { splitPath } from '../../../../shared/api/paths';
import { folderQueryOptions } from '../../../lib/queries/folders';
import { foldersKeys, sitesKeys } from '../../../lib/query-keys';
import { isNavigationEntry, itemAt, parentPathOf, type ExplorerItem } from '../../../lib/tree/items';
import { reordered } from './reorder-entries';
import { cachedFolder, forgetSubtree, refreshContainer } from './tree-cache';

/*
 * Undo of the explorer's changes, as plain requests (a toast's Undo runs after the dialog that made the change is
 * gone). Moves and renames go back with the same id; a reorder puts the previous order back; a deleted item comes
 * back from the trash.
 */

/** The names of a container's navigation entries in their order, as last read (before a change). */
export function navigationOrderOf(queryClient: QueryClient, path: string | null): string[] | undefined {
  if (path === null) return undefined;
  return cachedFolder(queryClient, path)?.data.subsections?.map((e) => e.name);
}

/** Puts the navigation entries of the container at `path` in the order of `names` (read fresh, with If-Match). */
export async function restoreNavigationOrder(
  client: Client,
  queryClient: QueryClient,
  path: string,
  names: readonly string[],
): Promise<void> {
  const current = await queryClient.fetchQuery({ ...folderQueryOptions(client, path), staleTime: 0 });
  const entries = current.data.subsections ?? [];
  if (entries.map((e) => e.name).join('/') === names.join('/')) return;
  const saved = await client.folders.put(
    splitPath(path),
    { subsections: reordered(entries, names).map(({ name, type, href }) => ({ name, type, href })) },
    { ifMatch: current.etag ?? undefined },
  );
  queryClient.setQueryData(foldersKeys.detail(path), saved);
}

/** The place of an item after a rename or move: refreshes the containers and forgets the old path. */
async function settle(queryClient: QueryClient, from: string, containers: readonly (string | null)[]) {
  forgetSubtree(queryClient, from);
  await Promise.all(containers.map((c) => refreshContainer(queryClient, c)));
}

/** Renames `renamed` back to `original`'s name; answers the item at its old path. */
export async function undoRename(
  client: Client,
  queryClient: QueryClient,
  original: ExplorerItem,
  renamed: ExplorerItem,
): Promise<ExplorerItem> {
  const back = await client.folders.rename({ path: renamed.path, newName: original.name });
  await settle(queryClient, renamed.path, [parentPathOf(renamed.path)]);
  if (original.kind === 'site') await queryClient.invalidateQueries({ queryKey: sitesKeys.all });
  return { ...original, ...itemAt(back.path, original.kind, original.isLandingPage) };
}

/**
 * Moves `moved` back to where `original` was, and puts the navigation order there back as it was (a section or
 * link moved back would otherwise come last). Answers the item at its old path.
 */
export async function undoMove(
  client: Client,
  queryClient: QueryClient,
  original: ExplorerItem,
  moved: ExplorerItem,
  orderBefore: readonly string[] | undefined,
): Promise<ExplorerItem> {
  const home = parentPathOf(original.path)!;
  const back = await client.folders.move({ itemPath: moved.path, targetFolderPath: home });
  if (isNavigationEntry(original.kind) && orderBefore) {
    await restoreNavigationOrder(client, queryClient, home, orderBefore);
  }
  await settle(queryClient, moved.path, [home, parentPathOf(moved.path)]);
  return { ...original, ...itemAt(back.path, original.kind) };
}

/**
 * Puts a deleted item back from the trash where it was (the same item: its id, contents, history and place in the
 * navigation), then shows it in its container.
 */
export async function undoDelete(
  client: Client,
  queryClient: QueryClient,
  item: ExplorerItem,
  trashId: string,
): Promise<void> {
  await client.trash.restore({ id: trashId });
  await refreshContainer(queryClient, parentPathOf(item.path));
  if (item.kind === 'site') await queryClient.invalidateQueries({ queryKey: sitesKeys.all });
}
