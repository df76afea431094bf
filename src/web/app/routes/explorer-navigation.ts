import { useMemo } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { ASSET_LIBRARY } from '../../../shared/api/paths';
import type { ExplorerNavigation } from '../../features/explorer/components/explorer-context';
import type { SearchHit } from '../../../shared/api/search';
import { itemAt, kindOfFolderItem, type ExplorerItem } from '../../lib/tree/items';
import { paths } from '../paths';

/*
 * The explorer's URLs: the URL of an item is its path. Sites, sections, folders and links live under
 * /sites/<site>/…, pages under /pages/<site>/…, the asset library and its folders under /assets/….
 * Each segment is percent-encoded on its own, so any name (spaces, "%", "#", "?") round-trips.
 */

const encode = (segments: readonly string[]) => segments.map(encodeURIComponent).join('/');

/** The app URL of an item. */
export function explorerHrefOf(item: Pick<ExplorerItem, 'kind' | 'segments'>): string {
  if (item.kind === 'page') return `${paths.pages}/${encode(item.segments)}`;
  if (item.kind === 'library' || item.kind === 'assetfolder') {
    const inside = item.segments.slice(1);
    return inside.length ? `${paths.assets}/${encode(inside)}` : paths.assets;
  }
  return `${paths.sites}/${encode(item.segments)}`;
}

/**
 * Where a search hit opens: a page in its editor, an asset in its folder of the library with its panel open, a
 * folder item in the explorer (an asset folder in the library).
 */
export function searchHitHref(hit: Pick<SearchHit, 'kind' | 'path' | 'type'>): string {
  const segments = hit.path.split('/');
  if (hit.kind === 'page') return explorerHrefOf({ kind: 'page', segments });
  if (hit.kind === 'asset') {
    const folder = segments.slice(0, -1).join('/');
    const href = explorerHrefOf(itemAt(folder, folder === ASSET_LIBRARY ? 'library' : 'assetfolder'));
    return `${href}?${new URLSearchParams({ asset: segments[segments.length - 1] ?? '' }).toString()}`;
  }
  return explorerHrefOf(itemAt(hit.path, kindOfFolderItem(hit.path, hit.type)));
}

function decodeSegments(tail: string): string[] {
  return tail
    .split('/')
    .filter((s) => s.length > 0)
    .map((s) => {
      try {
        return decodeURIComponent(s);
      } catch {
        return s;
      }
    });
}

/** Which item an app URL shows: its area and by-path path; null for other screens. */
export function explorerLocationOf(pathname: string): { area: 'sites' | 'pages' | 'assets'; path: string } | null {
  for (const area of ['sites', 'pages', 'assets'] as const) {
    const prefix = paths[area];
    if (pathname !== prefix && !pathname.startsWith(`${prefix}/`)) continue;
    const segments = decodeSegments(pathname.slice(prefix.length));
    if (area === 'assets') return { area, path: [ASSET_LIBRARY, ...segments].join('/') };
    return segments.length ? { area, path: segments.join('/') } : null;
  }
  return null;
}

/**
 * What the explorer needs of the router: URLs of items, opening them, the item shown now, and starting to load the
 * code of an item's screen (`preloadScreenAt`, the router's: a link to it is pointed at or focused).
 */
export function useExplorerNavigation(preloadScreenAt: (href: string) => void): ExplorerNavigation {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const currentPath = explorerLocationOf(pathname)?.path ?? null;
  return useMemo(
    () => ({
      hrefOf: explorerHrefOf,
      open: (item, options) => void navigate(explorerHrefOf(item), { replace: options?.replace }),
      currentPath,
      openHome: () => void navigate(paths.sites, { replace: true }),
      homeHref: paths.sites,
      preloadScreenOf: (item) => preloadScreenAt(explorerHrefOf(item)),
    }),
    [navigate, currentPath, preloadScreenAt],
  );
}
