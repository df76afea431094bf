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
export function usePage(
  path: string,
  { enabled = true, refetchOnWindowFocus }: { enabled?: boolean; refetchOnWindowFocus?: boolean } = {},
) {
  return useQuery({
    ...pageQueryOptions(useApi(), path),
    enabled,
    ...(refetchOnWindowFocus === undefined ? {} : { refetchOnWindowFocus }),
  });
}

/** GET /cms/rest/pages/transitions/<path>: the workflow transitions the user may take on the page now. */
export function pageTransitionsQueryOptions(client: Client, path: string) {
  return queryOptions({
    queryKey: pagesKeys.transitions(path),
    queryFn: ({ signal }) => client.pages.transitions(splitPath(path), signal),
  });
}

/** The page's transitions (for the editor's workflow buttons and the explorer's menus). */
export function usePageTransitions(path: string, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...pageTransitionsQueryOptions(useApi(), path), enabled });
}
