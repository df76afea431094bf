import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Client } from '../../../../shared/api/client';
import { splitPath } from '../../../../shared/api/paths';
import { useApi } from '../../../lib/api';
import { foldersKeys } from '../../../lib/query-keys';

/** GET /cms/rest/folders/contents/by-path/<path>: what deleting the item would remove. Always read fresh. */
export function folderContentsQueryOptions(client: Client, path: string) {
  return queryOptions({
    queryKey: foldersKeys.contents(path),
    queryFn: ({ signal }) => client.folders.contents(splitPath(path), signal),
    staleTime: 0,
    gcTime: 0,
  });
}

/** The counts a delete confirmation names ("3 folders, 12 pages"). */
export function useFolderContents(path: string, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...folderContentsQueryOptions(useApi(), path), enabled });
}
