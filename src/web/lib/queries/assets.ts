import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type { AssetListQueryInput } from '../../../shared/api/assets';
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
