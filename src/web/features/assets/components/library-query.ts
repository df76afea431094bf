import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { AssetListSort, type AssetListQueryInput } from '../../../../shared/api/assets';
import { WorkflowState } from '../../../../shared/api/workflow';
import { ASSET_LIBRARY } from '../../../../shared/api/paths';
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
  /** `deep` is what the folder does unless told otherwise (the person has not ticked or unticked it). */
  deepByDefault: boolean;
}

export const DEFAULT_QUERY: LibraryQuery = {
  q: '',
  type: null,
  state: null,
  missingAlt: false,
  sort: 'name',
  order: 'asc',
  deep: false,
  deepByDefault: true,
};

/** The query parameter naming the asset whose details are open (its name, or its path below the folder). */
const ASSET_PARAM = 'asset';
/** The query parameter asking the open asset's details to have something reviewed (after its file was replaced). */
export const REVIEW_PARAM = 'review';
/** {@link REVIEW_PARAM}'s value for the alt text of an image whose file changed. */
export const REVIEW_ALT_TEXT = 'alttext';

/**
 * Whether a folder's listing takes in its subfolders when the person has not said: at the library's root a search
 * or filter looks through the whole library (its root holds few assets of its own, so a search of it alone would
 * find next to nothing); elsewhere only the folder itself.
 */
export function deepByDefault(folderPath: string, query: Omit<LibraryQuery, 'deep' | 'deepByDefault'>): boolean {
  return folderPath === ASSET_LIBRARY && isFiltered(query);
}

/** The library's query as the URL's parameters say (defaults for what they leave out or get wrong). */
export function readQuery(params: URLSearchParams, folderPath: string): LibraryQuery {
  const pick = <T>(schema: { safeParse: (v: unknown) => { success: boolean; data?: T } }, key: string): T | null => {
    const parsed = schema.safeParse(params.get(key));
    return parsed.success ? (parsed.data as T) : null;
  };
  const filters = {
    q: params.get('q') ?? '',
    type: pick<AssetType>(AssetTypeId, 'type'),
    state: pick<WorkflowState>(WorkflowState, 'state'),
    missingAlt: params.get('alt') === 'missing',
    sort: pick<AssetListSort>(AssetListSort, 'sort') ?? DEFAULT_QUERY.sort,
    order: params.get('order') === 'desc' ? ('desc' as const) : ('asc' as const),
  };
  const deep = params.get('deep');
  const byDefault = deep !== '1' && deep !== '0';
  return {
    ...filters,
    deep: byDefault ? deepByDefault(folderPath, filters) : deep === '1',
    deepByDefault: byDefault,
  };
}

/** The parameters of `query`; `deep` is written only when the person chose it (otherwise the folder's default). */
function writeQuery(params: URLSearchParams, query: Partial<LibraryQuery> & Omit<LibraryQuery, 'deep'>) {
  const next = new URLSearchParams(params);
  const set = (key: string, value: string | null) => (value ? next.set(key, value) : next.delete(key));
  set('q', query.q);
  set('type', query.type);
  set('state', query.state);
  set('alt', query.missingAlt ? 'missing' : null);
  set('sort', query.sort === DEFAULT_QUERY.sort ? null : query.sort);
  set('order', query.order === 'asc' ? null : 'desc');
  if (query.deep !== undefined) next.set('deep', query.deep ? '1' : '0');
  return next;
}

/** True when a filter narrows the listing (so "nothing here" means "nothing matches"). */
export function isFiltered(query: Pick<LibraryQuery, 'q' | 'type' | 'state' | 'missingAlt'>): boolean {
  return query.q !== '' || query.type !== null || query.state !== null || query.missingAlt;
}

/** Assets the library asks for at a time. */
export const LIBRARY_PAGE_SIZE = 120;

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
export function useLibraryQuery(folderPath: string) {
  const [params, setParams] = useSearchParams();
  const query = useMemo(() => readQuery(params, folderPath), [params, folderPath]);
  const openAsset = params.get(ASSET_PARAM);
  const review = params.get(REVIEW_PARAM);

  const update = useCallback(
    (change: Partial<LibraryQuery>) =>
      setParams(
        (current) => {
          const { deep: _deep, ...rest } = readQuery(current, folderPath);
          return writeQuery(current, { ...rest, ...change });
        },
        { replace: true },
      ),
    [setParams, folderPath],
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
