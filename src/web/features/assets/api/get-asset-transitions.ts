import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Client } from '../../../../shared/api/client';
import { splitPath } from '../../../../shared/api/paths';
import { useApi } from '../../../lib/api';
import { assetsKeys } from '../../../lib/query-keys';

/** GET /cms/rest/assets/transitions/<path>: the workflow transitions the user may take now. */
export function assetTransitionsQueryOptions(client: Client, path: string) {
  return queryOptions({
    queryKey: assetsKeys.transitions(path),
    queryFn: ({ signal }) => client.assets.transitions(splitPath(path), signal),
  });
}

/** The asset's workflow transitions available to the user. */
export function useAssetTransitions(path: string, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...assetTransitionsQueryOptions(useApi(), path), enabled });
}
