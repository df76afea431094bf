import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Client } from '../../../../shared/api/client';
import { splitPath } from '../../../../shared/api/paths';
import { useApi } from '../../../lib/api';

/**
 * Query keys of sites, folders, sections, links and asset folders, general to specific. A folder's key ends with
 * its path segments, so the key of a folder is a prefix of the keys of everything below it: removing
 * `detail('demo/about')` (not exact) forgets the whole subtree after a move, rename or delete.
 */
export const foldersKeys = {
  all: ['folders'] as const,
  sites: () => [...foldersKeys.all, 'sites'] as const,
  details: () => [...foldersKeys.all, 'detail'] as const,
  detail: (path: string) => [...foldersKeys.details(), ...splitPath(path)] as const,
  contents: (path: string) => [...foldersKeys.all, 'contents', ...splitPath(path)] as const,
  find: (q: string) => [...foldersKeys.all, 'find', q] as const,
};

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

/** GET /cms/rest/sites: the roots of the tree. */
export function explorerSitesQueryOptions(client: Client) {
  return queryOptions({
    queryKey: foldersKeys.sites(),
    queryFn: ({ signal }) => client.sites.list(signal),
  });
}

/** Every site the user may read, for the roots of the tree. */
export function useExplorerSites() {
  return useQuery(explorerSitesQueryOptions(useApi()));
}
