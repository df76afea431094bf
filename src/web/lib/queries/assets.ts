import {
  infiniteQueryOptions,
  queryOptions,
  useInfiniteQuery,
  useQuery,
  useQueryClient,
  type InfiniteData,
} from '@tanstack/react-query';
import { useState } from 'react';
import type { AssetList, AssetListQueryInput, AssetMetadata } from '../../../shared/api/assets';
import type { Client } from '../../../shared/api/client';
import { splitPath } from '../../../shared/api/paths';
import { useApi } from '../api';
import { assetsKeys } from '../query-keys';

/** GET /cms/rest/assets/by-path/<path>: an asset's metadata with its ETag. */
export function assetQueryOptions(client: Client, path: string) {
  return queryOptions({
    queryKey: assetsKeys.detail(path),
    queryFn: ({ signal }) => client.assets.get(splitPath(path), signal),
  });
}

/** An asset's metadata (with its ETag). */
export function useAsset(path: string, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...assetQueryOptions(useApi(), path), enabled });
}

/**
 * The asset at `path` as a cached listing of its folder holds it (read once, without a request), or undefined: what
 * a panel can show before the asset's own GET answers (a listing's items have no ETag to save with).
 */
export function useListedAsset(path: string): AssetMetadata | undefined {
  const queryClient = useQueryClient();
  const [listed] = useState(() => {
    const folderPath = path.slice(0, path.lastIndexOf('/'));
    const lists = queryClient.getQueriesData<InfiniteData<AssetList>>({ queryKey: assetsKeys.folderLists(folderPath) });
    for (const [, data] of lists) {
      for (const page of data?.pages ?? []) {
        const found = page.items.find((a) => `${a.folderPath}/${a.name}` === path);
        if (found) return found;
      }
    }
    return undefined;
  });
  return listed;
}

/**
 * GET /cms/rest/assets/list/<folder>: a folder's assets page by page (keyset pagination; each page's
 * `nextCursor` fetches the next). The query (search, type, state, sort) is part of the key.
 */
export function assetListQueryOptions(client: Client, folderPath: string, query: Omit<AssetListQueryInput, 'cursor'>) {
  return infiniteQueryOptions({
    queryKey: assetsKeys.list(folderPath, query),
    queryFn: ({ signal, pageParam }) =>
      client.assets.list(splitPath(folderPath), { ...query, cursor: pageParam ?? undefined }, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });
}

/** A folder's assets, loaded page by page as the caller asks for more (`fetchNextPage`). */
export function useAssetList(
  folderPath: string,
  query: Omit<AssetListQueryInput, 'cursor'>,
  { enabled = true }: { enabled?: boolean } = {},
) {
  return useInfiniteQuery({ ...assetListQueryOptions(useApi(), folderPath, query), enabled });
}
