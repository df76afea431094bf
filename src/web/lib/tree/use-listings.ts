import { useQueries, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { WithEtag } from '../../../shared/api/client';
import type { Folder, FolderChildren } from '../../../shared/api/folders';
import { useApi } from '../api';
import { folderChildrenQueryOptions, folderQueryOptions } from '../queries/folders';
import { foldersKeys } from '../query-keys';
import { titlesOf } from './items';
import type { ListingState } from './tree-nodes';

/**
 * What the cache knows of a container's listing. Its children's titles come from a second answer (the children
 * summaries); while that is first loading the container counts as loading, so rows do not change from names to
 * titles under the reader's eyes. If it fails, the names alone are shown.
 */
export function listingStateOf(queryClient: QueryClient, path: string): ListingState {
  const state = queryClient.getQueryState<WithEtag<Folder>>(foldersKeys.detail(path));
  const children = queryClient.getQueryState<FolderChildren>(foldersKeys.children(path));
  if (state?.data) {
    if (children?.data) return { status: 'loaded', folder: state.data.data, titles: titlesOf(children.data) };
    if (children?.status === 'pending' && children.fetchStatus === 'fetching') return { status: 'loading' };
    return { status: 'loaded', folder: state.data.data };
  }
  if (state?.status === 'error') return { status: 'error', error: state.error };
  return state ? { status: 'loading' } : { status: 'unknown' };
}

/**
 * Loads the listings (and the children's titles) of the containers at `paths` and answers what the cache knows
 * of any container. The component re-renders as they load.
 */
export function useTreeListings(paths: readonly string[]): (path: string) => ListingState {
  const client = useApi();
  const queryClient = useQueryClient();
  useQueries({
    queries: paths.flatMap((path) => [folderQueryOptions(client, path), folderChildrenQueryOptions(client, path)]),
  });
  return useCallback((path: string) => listingStateOf(queryClient, path), [queryClient]);
}
