import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { AssetListSort, type AssetListQueryInput } from '../../../../shared/api/assets';
import { WorkflowState } from '../../../../shared/api/workflow';
import { AssetTypeId, type AssetType } from '../../../../shared/registry';

/** What the library shows of a folder: search, filters, sort, and whether subfolders count. Kept in the URL. */
export interface LibraryQuery {
  q: string;
  type: AssetType | null;
  state: WorkflowState | null;
  /** Only images without alt text. */
  missingAlt: boolean;
  sort: AssetListSort;
  order: 'asc' | 'desc';
  /** The assets of every folder below too. */
  deep: boolean;
}

export const DEFAULT_QUERY: LibraryQuery = {
  q: '',
  type: null,
  state: null,
  missingAlt: false,
  sort: 'name',
  order: 'asc',
  deep: false,
};

/** The query parameter naming the asset whose details are open (its name, or its path below the folder). */
const ASSET_PARAM = 'asset';
/** The query parameter asking the open asset's details to have something reviewed (after its file was replaced). */
export const REVIEW_PARAM = 'review';
/** {@link REVIEW_PARAM}'s value for the alt text of an image whose file changed. */
export const REVIEW_ALT_TEXT = 'alttext';

function readQuery(params: URLSearchParams): LibraryQuery {
  const pick = <T>(schema: { safeParse: (v: unknown) => { success: boolean; data?: T } }, key: string): T | null => {
    const parsed = schema.safeParse(params.get(key));
    return parsed.success ? (parsed.data as T) : null;
  };
  return {
    q: params.get('q') ?? '',
    type: pick<AssetType>(AssetTypeId, 'type'),
    state: pick<WorkflowState>(WorkflowState, 'state'),
    missingAlt: params.get('alt') === 'missing',
    sort: pick<AssetListSort>(AssetListSort, 'sort') ?? DEFAULT_QUERY.sort,
    order: params.get('order') === 'desc' ? 'desc' : 'asc',
    deep: params.get('deep') === '1',
  };
}

function writeQuery(params: URLSearchParams, query: LibraryQuery): URLSearchParams {
  const next = new URLSearchParams(params);
  const set = (key: string, value: string | null) => (value ? next.set(key, value) : next.delete(key));
  set('q', query.q);
  set('type', query.type);
  set('state', query.state);
  set('alt', query.missingAlt ? 'missing' : null);
  set('sort', query.sort === DEFAULT_QUERY.sort ? null : query.sort);
  set('order', query.order === 'asc' ? null : 'desc');
  set('deep', query.deep ? '1' : null);
  return next;
}

/** True when a filter narrows the listing (so "nothing here" means "nothing matches"). */
export function isFiltered(query: LibraryQuery): boolean {
  return query.q !== '' || query.type !== null || query.state !== null || query.missingAlt;
}

/** The listing request of a query. */
export function listQueryOf(query: LibraryQuery, limit: number): Omit<AssetListQueryInput, 'cursor'> {
  return {
    limit,
    sort: query.sort,
    order: query.order,
    ...(query.q.trim() ? { q: query.q.trim() } : {}),
    ...(query.type ? { type: query.type } : {}),
    ...(query.state ? { state: query.state } : {}),
    ...(query.missingAlt ? { missingAltText: 'true' as const } : {}),
    ...(query.deep ? { recursive: 'true' as const } : {}),
  };
}

/**
 * The library's query and open asset, read from and written to the URL's search parameters: filters replace the
 * history entry (typing is not a trail of Back steps), opening an asset adds one (Back closes it).
 */
export function useLibraryQuery() {
  const [params, setParams] = useSearchParams();
  const query = useMemo(() => readQuery(params), [params]);
  const openAsset = params.get(ASSET_PARAM);
  const review = params.get(REVIEW_PARAM);

  const update = useCallback(
    (change: Partial<LibraryQuery>) =>
      setParams((current) => writeQuery(current, { ...readQuery(current), ...change }), { replace: true }),
    [setParams],
  );
  const setOpenAsset = useCallback(
    (name: string | null, { replace = false }: { replace?: boolean } = {}) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          next.delete(REVIEW_PARAM);
          if (name === null) next.delete(ASSET_PARAM);
          else next.set(ASSET_PARAM, name);
          return next;
        },
        { replace },
      ),
    [setParams],
  );
  return { query, update, openAsset, review, setOpenAsset };
}
