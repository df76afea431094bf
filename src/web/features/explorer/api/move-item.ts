import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError } from '../../../../shared/api/client';
import type { Folder } from '../../../../shared/api/folders';
import { folderHref, pageHref } from '../../../../shared/api/paths';
import { useApi } from '../../../lib/api';
import { itemAt, moveRefusal, parentPathOf, type ExplorerItem } from '../../../lib/tree/items';
import { etagOfCached } from './rename-item';
import {
  cachedChildren,
  forgetSubtree,
  refreshContainer,
  rollBack,
  updateListing,
  withChildSummary,
  withoutChild,
  withoutChildSummary,
  type ListingSnapshot,
} from './tree-cache';

/** A listing with `item` added to its group (the service sorts it properly when the listing is read again). */
function withChild(folder: Folder, item: ExplorerItem, targetPath: string): Folder {
  const at = [...targetPath.split('/'), item.name];
  switch (item.kind) {
    case 'section':
    case 'sectionlink':
    case 'externallink':
      return {
        ...folder,
        subsections: [...(folder.subsections ?? []), { name: item.name, href: '', type: item.kind }],
      };
    case 'page':
      return { ...folder, pages: [...(folder.pages ?? []), { name: item.name, href: pageHref(at) }] };
    default:
      return { ...folder, subfolders: [...(folder.subfolders ?? []), { name: item.name, href: folderHref(at) }] };
  }
}

/**
 * POST /cms/rest/folders/move: `item` goes into `target`. Refused before sending when the move is impossible
 * (a cycle, a kind the target cannot hold). Both listings change at once and go back if the service refuses.
 */
export function useMoveItem() {
  const client = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ item, target }: { item: ExplorerItem; target: ExplorerItem }) => {
      const refusal = moveRefusal(item, target);
      if (refusal) throw new ApiError({ status: 409, code: 'INVALID_MOVE', title: 'Conflict', detail: refusal });
      const moved = await client.folders.move(
        { itemPath: item.path, targetFolderPath: target.path },
        etagOfCached(queryClient, item),
      );
      return itemAt(moved.path, item.kind);
    },
    onMutate: async ({ item, target }): Promise<ListingSnapshot[]> => {
      if (moveRefusal(item, target)) return [];
      const from = parentPathOf(item.path);
      const summary =
        from === null ? undefined : cachedChildren(queryClient, from)?.items.find((c) => c.name === item.name);
      const snapshots: ListingSnapshot[] = [];
      if (from !== null) {
        snapshots.push(
          await updateListing(
            queryClient,
            from,
            (f) => withoutChild(f, item.name),
            (c) => withoutChildSummary(c, item.name),
          ),
        );
      }
      snapshots.push(
        await updateListing(
          queryClient,
          target.path,
          (f) => withChild(f, item, target.path),
          (c) => withChildSummary(c, summary),
        ),
      );
      return snapshots;
    },
    onError: (_error, _vars, snapshots) => rollBack(queryClient, snapshots),
    onSuccess: (_moved, { item }) => forgetSubtree(queryClient, item.path),
    onSettled: (_r, _e, { item, target }) =>
      Promise.all([refreshContainer(queryClient, parentPathOf(item.path)), refreshContainer(queryClient, target.path)]),
  });
}
