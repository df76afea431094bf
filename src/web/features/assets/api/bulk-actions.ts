import type { QueryClient } from '@tanstack/react-query';
import type { Selection } from 'react-aria-components';
import {
  MAX_ASSET_LIST_LIMIT,
  type AssetListQueryInput,
  type AssetMetadata,
  type AssetUsageEntry,
} from '../../../../shared/api/assets';
import { isApiError, type Client } from '../../../../shared/api/client';
import { splitPath } from '../../../../shared/api/paths';
import { errorMessage } from '../../../lib/errors';
import { assetsKeys, foldersKeys } from '../../../lib/query-keys';
import { assetPathOf } from '../../../lib/assets';

/** What a bulk action does to each asset. */
export type BulkAction =
  | { kind: 'publish' }
  | { kind: 'submit' }
  | { kind: 'delete'; force?: boolean }
  | { kind: 'move'; targetFolder: string };

/** One asset the action could not take, and why. */
export interface BulkFailure {
  asset: AssetMetadata;
  message: string;
  /** The pages using it, when a delete was refused for that reason. */
  usedBy?: AssetUsageEntry[];
}

export interface BulkResult {
  done: AssetMetadata[];
  failed: BulkFailure[];
}

/** Requests in flight at once: quick for dozens, gentle with the server for thousands. */
const CONCURRENCY = 4;

/**
 * The assets a selection stands for. A set of keys names loaded assets; "all" (Ctrl+A, or the checkbox over the
 * list) means every asset the listing matches, loaded or not, so the rest is read page by page.
 */
export async function assetsOfSelection(
  client: Client,
  folderPath: string,
  query: Omit<AssetListQueryInput, 'cursor' | 'limit'>,
  selection: Selection,
  loaded: readonly AssetMetadata[],
  signal?: AbortSignal,
): Promise<AssetMetadata[]> {
  if (selection !== 'all') return loaded.filter((a) => selection.has(assetPathOf(a)));
  const out: AssetMetadata[] = [];
  let cursor: string | null = null;
  do {
    const page = await client.assets.list(
      splitPath(folderPath),
      { ...query, limit: MAX_ASSET_LIST_LIMIT, ...(cursor ? { cursor } : {}) },
      signal,
    );
    out.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return out;
}

async function runOne(client: Client, action: BulkAction, asset: AssetMetadata): Promise<void> {
  const segments = [...splitPath(asset.folderPath), asset.name];
  switch (action.kind) {
    case 'publish':
      await client.assets.put(segments, { workflow: { state: 'Public' } });
      return;
    case 'submit':
      await client.assets.put(segments, { workflow: { state: 'Review' } });
      return;
    case 'delete':
      await client.assets.remove(segments, { force: action.force });
      return;
    case 'move':
      await client.folders.move({ itemPath: segments.join('/'), targetFolderPath: action.targetFolder });
      return;
  }
}

/**
 * Takes the action on each asset (a few at a time), reporting progress; every asset is tried, and each failure
 * is kept with the server's reason (and the pages using an asset a delete refused).
 */
export async function runBulk(
  client: Client,
  action: BulkAction,
  assets: readonly AssetMetadata[],
  onProgress: (finished: number) => void,
): Promise<BulkResult> {
  const result: BulkResult = { done: [], failed: [] };
  let next = 0;
  let finished = 0;
  const worker = async () => {
    while (next < assets.length) {
      const asset = assets[next++]!;
      try {
        // An asset already where the action would take it counts as done (publishing a Public one is no-op).
        if (!(action.kind === 'publish' && asset.workflow.state === 'Public')) await runOne(client, action, asset);
        result.done.push(asset);
      } catch (error) {
        const usedBy = isApiError(error, 409) && error.code === 'ASSET_IN_USE' ? usedByOf(error.problem) : undefined;
        result.failed.push({ asset, message: errorMessage(error), ...(usedBy ? { usedBy } : {}) });
      }
      onProgress(++finished);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, assets.length) }, worker));
  return result;
}

function usedByOf(problem: unknown): AssetUsageEntry[] | undefined {
  const list = (problem as { usedBy?: unknown } | undefined)?.usedBy;
  return Array.isArray(list) ? (list as AssetUsageEntry[]) : undefined;
}

/** After a bulk action: listings, the assets' details and the folders that changed are read again. */
export function refreshAfterBulk(queryClient: QueryClient, action: BulkAction, assets: readonly AssetMetadata[]) {
  void queryClient.invalidateQueries({ queryKey: assetsKeys.lists() });
  for (const a of assets) {
    const path = assetPathOf(a);
    if (action.kind === 'publish' || action.kind === 'submit') {
      void queryClient.invalidateQueries({ queryKey: assetsKeys.detail(path) });
      void queryClient.invalidateQueries({ queryKey: assetsKeys.transitions(path) });
    } else {
      queryClient.removeQueries({ queryKey: assetsKeys.detail(path) });
    }
  }
  if (action.kind === 'delete' || action.kind === 'move') {
    for (const folder of new Set(assets.map((a) => a.folderPath))) {
      void queryClient.invalidateQueries({ queryKey: foldersKeys.detail(folder), exact: true });
    }
    if (action.kind === 'move')
      void queryClient.invalidateQueries({ queryKey: foldersKeys.detail(action.targetFolder), exact: true });
  }
}
