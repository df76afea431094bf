import { useQueries, useQuery } from '@tanstack/react-query';
import { useApi } from '../../../lib/api';
import { folderChildrenQueryOptions } from '../../../lib/queries/folders';
import { sitesQueryOptions } from '../../../lib/queries/sites';
import { parentPathOf, titlesOf } from '../../../lib/tree/items';

/**
 * The titles of the items at `paths` (undefined where an item has none, or it is not known yet): a site's from
 * the sites list, anything else's from its container's children — which the tree has usually loaded already.
 */
export function useTitlesOf(paths: readonly string[]): Map<string, string | undefined> {
  const client = useApi();
  const sites = useQuery({ ...sitesQueryOptions(client), enabled: paths.some((p) => parentPathOf(p) === null) });
  const parents = [...new Set(paths.map(parentPathOf).filter((p): p is string => p !== null))];
  const children = useQueries({ queries: parents.map((p) => folderChildrenQueryOptions(client, p)) });
  const titlesByParent = new Map(
    parents.map((p, i) => [p, children[i]?.data ? titlesOf(children[i].data) : undefined]),
  );
  return new Map(
    paths.map((path) => {
      const parent = parentPathOf(path);
      const name = path.slice(path.lastIndexOf('/') + 1);
      if (parent === null) return [path, sites.data?.find((s) => s.name === name)?.displayTitle || undefined];
      return [path, titlesByParent.get(parent)?.get(name)];
    }),
  );
}
