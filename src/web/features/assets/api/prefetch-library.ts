import type { QueryClient } from '@tanstack/react-query';
import type { Client } from '../../../../shared/api/client';
import { assetListQueryOptions } from '../../../lib/queries/assets';
import { childFoldersQueryOptions } from '../../../lib/queries/folders';
import { LIBRARY_PAGE_SIZE, listQueryOf, readQuery } from '../components/library-query';

/**
 * Asks for what the library at `folderPath` shows first — its first page of assets (with the URL's search,
 * filters and sort) and its subfolders — under the keys the library reads, so that the screen finds them on
 * their way when it mounts.
 */
export function prefetchLibrary(client: Client, queryClient: QueryClient, folderPath: string, params: URLSearchParams) {
  const query = listQueryOf(readQuery(params, folderPath), LIBRARY_PAGE_SIZE);
  void queryClient.prefetchInfiniteQuery(assetListQueryOptions(client, folderPath, query));
  void queryClient.prefetchQuery(childFoldersQueryOptions(client, folderPath));
}
