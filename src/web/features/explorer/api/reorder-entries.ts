import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { WithEtag } from '../../../../shared/api/client';
import type { Folder, SubsectionEntry } from '../../../../shared/api/folders';
import { useApi } from '../../../lib/api';
import type { ExplorerItem } from '../../../lib/tree/items';
import { folderQueryOptions } from '../../../lib/queries/folders';
import { refreshContainer, rollBack, updateListing, type ListingSnapshot } from './tree-cache';
import { foldersKeys } from '../../../lib/query-keys';

/** The listing's navigation entries in the order of `names` (entries not named keep their order after them). */
export function reordered(entries: readonly SubsectionEntry[], names: readonly string[]): SubsectionEntry[] {
  const byName = new Map(entries.map((e) => [e.name, e]));
  const first = names.map((n) => byName.get(n)).filter((e): e is SubsectionEntry => e !== undefined);
  const listed = new Set(names);
  return [...first, ...entries.filter((e) => !listed.has(e.name))];
}

/** Names of `entries` with the one called `name` moved by `delta` places (clamped to the list). */
export function movedBy(entries: readonly SubsectionEntry[], name: string, delta: number): string[] {
  const names = entries.map((e) => e.name);
  const from = names.indexOf(name);
  if (from < 0) return names;
  const to = Math.max(0, Math.min(names.length - 1, from + delta));
  names.splice(from, 1);
  names.splice(to, 0, name);
  return names;
}

/**
 * Sets the navigation order of a site's or section's sections and links: a PUT of its `subsections` in the new
 * order, with `If-Match` of the listing it was computed from. The tree shows the new order at once and goes back
 * if the service refuses.
 */
export function useReorderEntries() {
  const client = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ parent, order }: { parent: ExplorerItem; order: string[] }) => {
      let current = queryClient.getQueryData<WithEtag<Folder>>(foldersKeys.detail(parent.path));
      // An entry added optimistically has no address yet: read the listing as the service has it.
      if (!current || current.data.subsections?.some((e) => e.href === '')) {
        current = await queryClient.fetchQuery({ ...folderQueryOptions(client, parent.path), staleTime: 0 });
      }
      const entries = current.data.subsections ?? [];
      // Entries go back with their `href` as listed (a section's own address, a link's target or URL): the
      // service reads an entry without one as a new link to create, and a different one as a re-pointing.
      return client.folders.put(
        parent.segments,
        { subsections: reordered(entries, order).map(({ name, type, href }) => ({ name, type, href })) },
        { ifMatch: current.etag ?? undefined },
      );
    },
    onMutate: async ({ parent, order }): Promise<ListingSnapshot[]> => [
      await updateListing(queryClient, parent.path, (f) => ({
        ...f,
        subsections: reordered(f.subsections ?? [], order),
      })),
    ],
    onError: (_error, _vars, snapshots) => rollBack(queryClient, snapshots),
    onSuccess: (saved, { parent }) => queryClient.setQueryData(foldersKeys.detail(parent.path), saved),
    onSettled: (_r, error, { parent }) => (error ? refreshContainer(queryClient, parent.path) : undefined),
  });
}
