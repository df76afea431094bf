import { useInfiniteQuery, useQuery, type UseQueryOptions } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import type { WithEtag } from '../../../shared/api/client';
import type { RevisionKind, RevisionSummary } from '../../../shared/api/revisions';
import { useApi } from '../../lib/api';
import { revisionsQueryOptions } from '../../lib/queries/revisions';
import type { VersionRef } from '../../lib/query-keys';
import type { ConflictRow } from '../saving/conflict-diff';

/**
 * How a feature reads one version of its item (a query of `lib/queries/revisions.ts`; any key: each feature's
 * key factory types its own).
 */
export type VersionOptions<T> = (version: VersionRef) => UseQueryOptions<WithEtag<T>, any, WithEtag<T>, any>;

/** Two versions to compare, the earlier first. */
export interface ComparePair {
  before: VersionRef;
  after: VersionRef;
}

/** What the history needs from the feature whose item it shows (a page, an asset). */
export interface HistorySource<T> {
  kind: RevisionKind;
  path: string;
  /** The item, as in a sentence: "the page “Welcome”". */
  itemLabel: string;
  versionOptions: VersionOptions<T>;
  /** What changed from one version to another (`before` and `theirs` of each row). */
  compare: (before: T, after: T) => ConflictRow[];
  /** A version, read-only. */
  render: (version: T) => ReactNode;
}

/**
 * An item's revisions (newest first, page by page) and what they say about its live version: which revision is
 * live, and whether it differs from the latest. The live revision may sit on a page not read yet: then the live
 * version itself is asked for (404 when there is none).
 */
export function useRevisions<T>(kind: RevisionKind, path: string, versionOptions: VersionOptions<T>, enabled = true) {
  const list = useInfiniteQuery({ ...revisionsQueryOptions(useApi(), kind, path), enabled });
  const items: RevisionSummary[] = list.data?.pages.flatMap((p) => p.items) ?? [];
  const latest = items[0];
  const liveItem = items.find((i) => i.live);
  const askLive = Boolean(latest && !latest.live && !liveItem && list.hasNextPage);
  const live = useQuery({ ...versionOptions('live'), enabled: enabled && askLive, retry: false });
  return {
    list,
    items,
    latest,
    /** The live revision's number when read (null: none, or on a page not read). */
    liveRevision: liveItem?.revision ?? null,
    /** There is a live version and it is not the latest revision. */
    liveDiffers: latest !== undefined && !latest.live && (liveItem !== undefined || live.isSuccess),
  };
}
