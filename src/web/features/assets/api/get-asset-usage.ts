import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Client } from '../../../../shared/api/client';
import { splitPath } from '../../../../shared/api/paths';
import { useApi } from '../../../lib/api';
import { assetsKeys } from '../../../lib/query-keys';

/** GET /cms/rest/assets/usage/<path>: the page regions that link the asset. */
export function assetUsageQueryOptions(client: Client, path: string) {
  return queryOptions({
    queryKey: assetsKeys.usage(path),
    queryFn: ({ signal }) => client.assets.usage(splitPath(path), signal),
  });
}

/** Where the asset is used. */
export function useAssetUsage(path: string) {
  return useQuery(assetUsageQueryOptions(useApi(), path));
}
