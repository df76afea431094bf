import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Client } from '../../../../shared/api/client';
import { splitPath } from '../../../../shared/api/paths';
import { useApi } from '../../../lib/api';
import { assetsKeys } from '../../../lib/query-keys';

/** GET /cms/rest/assets/usage/<path>: the pages that link a shared asset. */
export function assetUsageQueryOptions(client: Client, assetPath: string) {
  return queryOptions({
    queryKey: assetsKeys.usage(assetPath),
    queryFn: ({ signal }) => client.assets.usage(splitPath(assetPath), signal),
  });
}

/** Where a shared asset is used (for "N other pages use it"). */
export function useAssetUsage(assetPath: string) {
  return useQuery(assetUsageQueryOptions(useApi(), assetPath));
}
