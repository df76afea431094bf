import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useRef, type SyntheticEvent } from 'react';
import { useApi } from '../../../lib/api';
import { assetQueryOptions } from '../../../lib/queries/assets';

/** How long a prefetched asset counts as fresh: the panel opened within it reads the cache, not the network. */
const PREFETCH_FRESH_MS = 30_000;

/**
 * Starts reading an asset's metadata as soon as its card or row is focused or pointed at, so that Enter or a
 * click finds it in the cache (or already on its way) and the panel shows its details without a round trip of
 * its own. For the container of the cards: the asset is the `data-path` of the element the event came from.
 */
export function useAssetPrefetch() {
  const client = useApi();
  const queryClient = useQueryClient();
  const last = useRef<string | null>(null);
  return useCallback(
    (event: SyntheticEvent) => {
      const path = (event.target as Element | null)?.closest?.('[data-path]')?.getAttribute('data-path');
      if (!path || path === last.current) return;
      last.current = path;
      void queryClient.prefetchQuery({ ...assetQueryOptions(client, path), staleTime: PREFETCH_FRESH_MS });
    },
    [client, queryClient],
  );
}
