import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Client } from '../../../../shared/api/client';
import { splitPath } from '../../../../shared/api/paths';
import { useApi } from '../../../lib/api';

/** Query keys of pages, general to specific; a page's key ends with its path segments (see `foldersKeys`). */
export const pagesKeys = {
  all: ['pages'] as const,
  details: () => [...pagesKeys.all, 'detail'] as const,
  detail: (path: string) => [...pagesKeys.details(), ...splitPath(path)] as const,
};

/** GET /cms/rest/pages/by-path/<path>: the page with its ETag. */
export function pageQueryOptions(client: Client, path: string) {
  return queryOptions({
    queryKey: pagesKeys.detail(path),
    queryFn: ({ signal }) => client.pages.get(splitPath(path), signal),
  });
}

/** A page (with its ETag) for its summary screen or a delete confirmation. */
export function usePage(path: string, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...pageQueryOptions(useApi(), path), enabled });
}
