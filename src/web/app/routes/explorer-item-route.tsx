import { useLocation } from 'react-router';
import { FolderScreen } from '../../features/explorer/components/explorer-lazy';
import { useDocumentTitle } from '../../lib/document-title';
import { explorerLocationOf } from './explorer-navigation';
import { NotFoundRoute } from './not-found-route';

/**
 * /sites/<path…>, /assets[/<path…>]: the item at that path in the main area (pages have the page editor,
 * `page-editor-route.tsx`). Loaded on first use (see router.tsx). Each path gets a fresh screen, so its forms
 * start from that item.
 */
export function ExplorerItemRoute() {
  const { pathname } = useLocation();
  const at = explorerLocationOf(pathname);
  useDocumentTitle(at ? (at.path === 'Assets' ? 'Asset library' : at.path.split('/').pop()) : undefined);
  if (!at || at.area === 'pages') return <NotFoundRoute />;
  return <FolderScreen key={at.path} path={at.path} />;
}

export { ExplorerItemRoute as Component };
