import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Client } from '../../../shared/api/client';
import { splitPath } from '../../../shared/api/paths';
import { useApi } from '../api';
import { foldersKeys } from '../query-keys';

/** GET /cms/rest/folders/by-path/<path>: the item with its ETag. The tree loads a container's children with it. */
export function folderQueryOptions(client: Client, path: string) {
  return queryOptions({
    queryKey: foldersKeys.detail(path),
    queryFn: ({ signal }) => client.folders.get(splitPath(path), signal),
  });
}

/** A site, folder, section, link or asset folder (with its ETag) for a screen or a tree node. */
export function useFolder(path: string, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...folderQueryOptions(useApi(), path), enabled });
}

/** GET /cms/rest/folders/children/by-path/<path>: a container's children with titles, states and changes. */
export function folderChildrenQueryOptions(client: Client, path: string) {
  return queryOptions({
    queryKey: foldersKeys.children(path),
    queryFn: ({ signal }) => client.folders.children(splitPath(path), signal),
  });
}

/** The children of a container as its table shows them (titles, workflow states, who changed them when). */
export function useFolderChildren(path: string, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...folderChildrenQueryOptions(useApi(), path), enabled });
}

/**
 * The folders inside a container and the caller's access level on it: what a screen of a folder needs besides its
 * items, without the item's own GET (which lists every asset of a folder of 100,000).
 */
export function childFoldersQueryOptions(client: Client, path: string) {
  return queryOptions({
    queryKey: foldersKeys.childFolders(path),
    queryFn: ({ signal }) => client.folders.children(splitPath(path), signal, ['folder']),
  });
}

/** {@link childFoldersQueryOptions} for a screen. */
export function useChildFolders(path: string) {
  return useQuery(childFoldersQueryOptions(useApi(), path));
}
