import { useCallback, useEffect, useRef, useState } from 'react';
import { appDraftStore, type Draft, type DraftKey, type DraftStore } from './draft-store';

/** How long typing may pause before the draft is written (every edit is kept; this only batches keystrokes). */
const WRITE_DELAY_MS = 400;

export interface DraftController<T> {
  /** Looking for a kept draft (an editor waits before it offers one). */
  isLoading: boolean;
  /** The draft found when the item was opened, until the user restores or discards it. */
  found: Draft<T> | null;
  /**
   * Keeps `data` as the draft (written after a short pause; `flush` writes at once). `null`: no edits any more
   * (all undone), so the draft written since the item opened is deleted; a found one still waiting is kept.
   */
  write(data: T | null, baseEtag: string | null): void;
  /** Writes a pending draft now. */
  flush(): Promise<void>;
  /** Deletes the draft (after a save, or when the user discards it) and forgets the one found. */
  discard(): Promise<void>;
  /** Forgets the found draft without deleting it (it was restored: the next write replaces it). */
  accept(): void;
}

export interface DraftOptions<T> {
  /** Where drafts live (tests pass their own). */
  store?: DraftStore;
  /**
   * True when restoring the draft found would change nothing in the item as it is now (its edits were undone, or
   * someone saved the same): such a draft is deleted when found instead of offered.
   */
  changesNothing?: (found: Draft<T>) => boolean;
}

/**
 * The draft of one item: finds a kept one when the item opens, keeps new edits as they are made (also written
 * at once when the tab is hidden or closed) and deletes it when told. While a found draft waits for the user's
 * decision nothing is written over it. `key` null (no user yet) does nothing.
 */
export function useDraft<T>(key: DraftKey | null, options: DraftOptions<T> = {}): DraftController<T> {
  const store = options.store ?? appDraftStore();
  const changesNothing = useRef(options.changesNothing);
  changesNothing.current = options.changesNothing;
  const [isLoading, setLoading] = useState(key !== null);
  const [found, setFound] = useState<Draft<T> | null>(null);
  const pending = useRef<{ data: T; baseEtag: string | null } | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const holding = useRef(true);
  /** A draft of this opening was written (or is being written): what `write(null)` deletes. */
  const wrote = useRef(false);
  const keyId = key ? `${key.user}\u0000${key.kind}\u0000${key.path}` : null;
  const keyRef = useRef(key);
  keyRef.current = key;

  useEffect(() => {
    const k = keyRef.current;
    if (!k) return;
    let alive = true;
    holding.current = true;
    setLoading(true);
    store
      .get<T>(k)
      .catch(() => undefined)
      .then(async (d) => {
        if (!alive) return;
        if (d && changesNothing.current?.(d)) {
          await store.remove(k).catch(() => undefined);
          d = undefined;
          if (!alive) return;
        }
        setFound(d ?? null);
        holding.current = Boolean(d);
        setLoading(false);
      });
    return () => {
      alive = false;
    };
  }, [keyId, store]);

  const flush = useCallback(async () => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    const k = keyRef.current;
    const next = pending.current;
    pending.current = null;
    if (!k || !next || holding.current) return;
    wrote.current = true;
    try {
      await store.put(k, next);
    } catch {
      // IndexedDB unavailable (private mode, quota): the guard on leaving still protects the edits.
    }
  }, [store]);

  const write = useCallback(
    (data: T | null, baseEtag: string | null) => {
      if (timer.current) clearTimeout(timer.current);
      timer.current = null;
      if (data !== null) {
        pending.current = { data, baseEtag };
        timer.current = setTimeout(() => void flush(), WRITE_DELAY_MS);
        return;
      }
      pending.current = null;
      const k = keyRef.current;
      if (!k || !wrote.current || holding.current) return;
      wrote.current = false;
      void store.remove(k).catch(() => undefined);
    },
    [flush, store],
  );

  const discard = useCallback(async () => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    pending.current = null;
    holding.current = false;
    wrote.current = false;
    setFound(null);
    const k = keyRef.current;
    if (k) await store.remove(k).catch(() => undefined);
  }, [store]);

  const accept = useCallback(() => {
    holding.current = false;
    setFound(null);
  }, []);

  // A tab being hidden or closed may never run the timer: write what is pending now.
  useEffect(() => {
    const now = () => void flush();
    const onVisibility = () => {
      if (document.visibilityState === 'hidden') now();
    };
    window.addEventListener('pagehide', now);
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      window.removeEventListener('pagehide', now);
      document.removeEventListener('visibilitychange', onVisibility);
      now();
    };
  }, [flush]);

  return { isLoading, found, write, flush, discard, accept };
}
