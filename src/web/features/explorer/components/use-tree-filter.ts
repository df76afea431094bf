import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useDeferredValue, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import type { Key } from 'react-aria-components';

/** Subscribes to the query cache while `active` (the filter searches every loaded listing, expanded or not). */
function useCacheVersion(active: boolean): number {
  const queryClient = useQueryClient();
  const version = useRef(0);
  const subscribe = useCallback(
    (notify: () => void) =>
      active
        ? queryClient.getQueryCache().subscribe((event) => {
            if (event.type === 'updated' || event.type === 'removed') {
              version.current++;
              notify();
            }
          })
        : () => undefined,
    [queryClient, active],
  );
  return useSyncExternalStore(
    subscribe,
    () => version.current,
    () => version.current,
  );
}

/**
 * The tree's filter over what is loaded: the text typed, the term the tree is built with (deferred, so typing
 * stays quick), and which matches are open. Every new term opens all its matches; the person may then collapse
 * some. While a term is set, the tree re-renders whenever a listing in the cache changes.
 */
export function useTreeFilter() {
  const [text, setText] = useState('');
  const term = useDeferredValue(text.trim());
  const filtering = term.length > 0;
  const [expanded, setExpanded] = useState<Set<Key> | null>(null);
  useCacheVersion(filtering);
  useEffect(() => setExpanded(null), [term]);
  return { text, setText, term, filtering, expanded, setExpanded };
}
