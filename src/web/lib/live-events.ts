import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { loadSchema } from '../../shared/api/client';
import type { ChangeEvent } from '../../shared/api/events';
import { EVENTS_URL, splitPath } from '../../shared/api/paths';
import { assetsKeys, foldersKeys, pagesKeys, sitesKeys, templatesKeys } from './query-keys';

/*
 * The app's one live event stream (GET /cms/rest/events, Server-Sent Events) per signed-in tab. Each change
 * invalidates the queries it affects (trees, folder tables, the library listings, an open page or asset), so what
 * others create, rename, move or delete shows within a second, without polling; screens that must react in their
 * own way (the page editor's "saved elsewhere" banner) listen with `useChangeEvents`.
 */

type Listener = (event: ChangeEvent) => void;

/** An event's data as a ChangeEvent, or null when it is not one. */
async function checked(data: string): Promise<ChangeEvent | null> {
  try {
    const parsed = (await loadSchema('ChangeEvent')).safeParse(JSON.parse(data));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
const listeners = new Set<Listener>();

/** How long changes are gathered before their queries are invalidated (a bulk action sends hundreds at once). */
const GATHER_MS = 100;
/** Waits before opening a stream again after the server refused or ended it (doubling up to the last). */
const RETRY_MS = [1000, 2000, 5000, 10_000, 30_000];

/** Calls `listener` with every change event while the component is mounted. */
export function useChangeEvents(listener: Listener): void {
  const latest = useRef(listener);
  latest.current = listener;
  useEffect(() => {
    const call: Listener = (e) => latest.current(e);
    listeners.add(call);
    return () => {
      listeners.delete(call);
    };
  }, []);
}

/** The parent path of an item path (`''` for a site). */
function parentOf(path: string): string {
  return splitPath(path).slice(0, -1).join('/');
}

/** Invalidates what the changes affect (active queries refetch; the rest are marked stale). */
export function invalidateForChanges(queryClient: QueryClient, events: readonly ChangeEvent[]): void {
  const keys = new Map<string, readonly unknown[]>();
  const add = (key: readonly unknown[]) => keys.set(JSON.stringify(key), key);
  for (const e of events) {
    if (e.kind === 'template') {
      add(templatesKeys.all);
      continue;
    }
    // Trees and folder tables list every kind of item, with titles, states and last changes; a move or rename
    // also changes the listings of the place it left, which the event does not name: refresh them all.
    add(foldersKeys.all);
    if (e.lease) {
      // A lease change: only the listings' locks change (an open editor's lease hook learns it itself).
      if (e.kind === 'asset') add(assetsKeys.lists());
      continue;
    }
    if (e.kind === 'site') add(sitesKeys.all);
    if (e.kind === 'page') {
      add(pagesKeys.detail(e.path));
      add(pagesKeys.transitions(e.path));
      add(pagesKeys.revisions(e.path));
      add(pagesKeys.version(e.path, 'live'));
    } else if (e.kind === 'asset' || e.path === 'Assets' || e.path.startsWith('Assets/')) {
      add(assetsKeys.lists());
      add(assetsKeys.detail(e.path));
      add(assetsKeys.usage(e.path));
      add(assetsKeys.transitions(e.path));
      add(assetsKeys.revisions(e.path));
      add(assetsKeys.version(e.path, 'live'));
      if (parentOf(e.path)) add(assetsKeys.folderLists(parentOf(e.path)));
    }
  }
  for (const queryKey of keys.values()) void queryClient.invalidateQueries({ queryKey });
}

/**
 * Keeps the tab's event stream open while `enabled` (signed in): EventSource reconnects by itself after a
 * network error, resuming with Last-Event-ID; when the server refuses or the stream closes for good, it opens
 * again after a wait, and refetches everything (events may have been missed). A `reset` event refetches too.
 * `after`: where the change log stood when the session was read (`eventsAfter`), so the first stream also brings
 * what changed between the tab's first reads and its connection.
 */
export function useLiveEvents(enabled: boolean, me?: string, after?: number): void {
  const queryClient = useQueryClient();
  // Only the first stream starts there: a newer session answer must not reopen it.
  const startAfter = useRef(after);
  startAfter.current ??= after;
  useEffect(() => {
    if (!enabled || typeof EventSource === 'undefined') return;
    let source: EventSource | null = null;
    let retry: ReturnType<typeof setTimeout> | null = null;
    let gather: ReturnType<typeof setTimeout> | null = null;
    let pending: ChangeEvent[] = [];
    let failures = 0;
    let stopped = false;

    const flush = () => {
      gather = null;
      const batch = pending;
      pending = [];
      invalidateForChanges(queryClient, batch);
    };
    const first = startAfter.current;
    const open = (afterGap: boolean) => {
      const url = !afterGap && first !== undefined ? `${EVENTS_URL}?after=${first}` : EVENTS_URL;
      source = new EventSource(url, { withCredentials: true });
      source.addEventListener('open', () => {
        failures = 0;
        if (afterGap) void queryClient.invalidateQueries();
        afterGap = false;
      });
      source.addEventListener('change', (message) => {
        // Checked against the contract's schema, loaded on first use (events keep their order: one module load).
        void checked((message as MessageEvent<string>).data).then((event) => {
          if (!event || stopped) return;
          // This person's own writes already refreshed what they changed (their mutations), and refetching after
          // one could still ask for the path a rename or move just left; their other tabs catch up on focus.
          if (me !== undefined && event.by === me) return;
          pending.push(event);
          gather ??= setTimeout(flush, GATHER_MS);
          for (const l of listeners) l(event);
        });
      });
      source.addEventListener('reset', () => void queryClient.invalidateQueries());
      source.addEventListener('error', () => {
        // CONNECTING: the browser retries by itself, resuming where it was.
        if (!source || source.readyState !== EventSource.CLOSED || stopped) return;
        source = null;
        const wait = RETRY_MS[Math.min(failures++, RETRY_MS.length - 1)]!;
        retry = setTimeout(() => open(true), wait);
      });
    };
    open(false);
    return () => {
      stopped = true;
      source?.close();
      if (retry) clearTimeout(retry);
      if (gather) clearTimeout(gather);
    };
  }, [enabled, me, queryClient]);
}
