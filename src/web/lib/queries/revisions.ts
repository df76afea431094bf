import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import type { Client } from '../../../shared/api/client';
import { splitPath } from '../../../shared/api/paths';
import type { RevisionKind } from '../../../shared/api/revisions';
import { assetsKeys, pagesKeys, type VersionRef } from '../query-keys';

const KEYS = { pages: pagesKeys, assets: assetsKeys } as const;

/**
 * GET /cms/rest/{pages|assets}/revisions/<path>: the item's revisions, newest first, page by page (`next` fetches
 * the following). Always read anew when shown: every save adds one.
 */
export function revisionsQueryOptions(client: Client, kind: RevisionKind, path: string) {
  return infiniteQueryOptions({
    queryKey: KEYS[kind].revisions(path),
    queryFn: ({ signal, pageParam }) =>
      client[kind].revisions(splitPath(path), pageParam ? { cursor: pageParam } : {}, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next,
    staleTime: 0,
  });
}

const versionQuery = (version: VersionRef) => (version === 'live' ? { version } : { revision: version });

/**
 * GET /cms/rest/pages/by-path/<path>?revision=N (or `?version=live`): the page as it was. A revision never
 * changes; the live version does (an approval).
 */
export function pageVersionQueryOptions(client: Client, path: string, version: VersionRef) {
  return queryOptions({
    queryKey: pagesKeys.version(path, version),
    queryFn: ({ signal }) => client.pages.version(splitPath(path), versionQuery(version), signal),
    staleTime: version === 'live' ? 0 : Infinity,
  });
}

/** GET /cms/rest/assets/by-path/<path>?revision=N (or `?version=live`): the asset as it was. */
export function assetVersionQueryOptions(client: Client, path: string, version: VersionRef) {
  return queryOptions({
    queryKey: assetsKeys.version(path, version),
    queryFn: ({ signal }) => client.assets.version(splitPath(path), versionQuery(version), signal),
    staleTime: version === 'live' ? 0 : Infinity,
  });
}
