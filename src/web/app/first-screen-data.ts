import type { QueryClient } from '@tanstack/react-query';
import { prefetchLibrary } from '../features/assets/api/prefetch-library';
import type { WebApi } from '../lib/api';
import { pageQueryOptions, pageTransitionsQueryOptions } from '../lib/queries/pages';
import { explorerLocationOf } from './routes/explorer-navigation';

/**
 * The data of the screen a tab opens on, asked for as soon as the session is known — while the screen's code is
 * still arriving — instead of when the screen mounts, after its code, the frame and the tree (about 0.6 s later
 * on a fresh tab). main.tsx loads this module lazily, so what it imports stays out of the first chunk.
 */
export function prefetchFirstScreen(
  location: Pick<Location, 'pathname' | 'search'>,
  api: WebApi,
  queryClient: QueryClient,
) {
  const at = explorerLocationOf(location.pathname);
  if (at?.area === 'assets') prefetchLibrary(api.client, queryClient, at.path, new URLSearchParams(location.search));
  // The page editor's document (its regions come with it): the editor opens on it once its code is in. Its workflow
  // buttons too: should they come after the page is drawn, the header grows a row and the page moves under the
  // pointer of a person about to click into the first widget.
  if (at?.area === 'pages') {
    void queryClient.prefetchQuery(pageQueryOptions(api.client, at.path));
    void queryClient.prefetchQuery(pageTransitionsQueryOptions(api.client, at.path));
  }
}
