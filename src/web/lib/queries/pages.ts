import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Client } from '../../../shared/api/client';
import { splitPath } from '../../../shared/api/paths';
import { useApi } from '../api';
import { pagesKeys } from '../query-keys';

/** GET /cms/rest/pages/by-path/<path>: the page with its ETag. */
export function pageQueryOptions(client: Client, path: string) {
  return queryOptions({
    queryKey: pagesKeys.detail(path),
    queryFn: ({ signal }) => client.pages.get(splitPath(path), signal),
  });
}

/** A page (with its ETag) for its screen or a delete confirmation. */
export function usePage(path: string, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...pageQueryOptions(useApi(), path), enabled });
}
