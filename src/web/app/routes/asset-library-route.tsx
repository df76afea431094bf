import { useMemo } from 'react';
import { useLocation } from 'react-router';
import { ASSET_LIBRARY, splitPath } from '../../../shared/api/paths';
import { AssetLibrary } from '../../features/assets/components/asset-library';
import type { FolderCommands } from '../../features/assets/components/library-actions';
import { useExplorer } from '../../features/explorer/components/explorer-context';
import { KitServicesProvider } from '../../kit/kit-services-provider';
import { useDocumentTitle } from '../../lib/document-title';
import { itemAt } from '../../lib/tree/items';
import { explorerHrefOf, explorerLocationOf } from './explorer-navigation';
import { NotFoundRoute } from './not-found-route';
import { useFrameContext } from './require-session';

/** The app URL of an asset folder or of the library. */
const hrefOfFolder = (path: string) => explorerHrefOf(itemAt(path, path === ASSET_LIBRARY ? 'library' : 'assetfolder'));
/** The app URL of a page. */
const hrefOfPage = (path: string) => explorerHrefOf({ kind: 'page', segments: splitPath(path) });

/**
 * /assets and /assets/<folders…>: the asset library at that folder (loaded on first use). The explorer's tree
 * shows the same folders; its dialogs create, rename, move and delete them, so tree and library stay in step.
 */
export function AssetLibraryRoute() {
  const { pathname } = useLocation();
  const { user } = useFrameContext();
  const explorer = useExplorer();
  const at = explorerLocationOf(pathname);
  const path = at?.area === 'assets' ? at.path : null;
  useDocumentTitle(path === null ? undefined : path === ASSET_LIBRARY ? 'Asset library' : path.split('/').pop());

  const folderCommands = useMemo<FolderCommands | null>(() => {
    if (path === null) return null;
    const item = itemAt(path, path === ASSET_LIBRARY ? 'library' : 'assetfolder');
    return {
      create: () => explorer.run({ type: 'create', kind: 'assetfolder', parent: item }),
      rename: () => explorer.run({ type: 'rename', item }),
      move: () => explorer.run({ type: 'move', item }),
      remove: () => explorer.run({ type: 'delete', item }),
    };
  }, [path, explorer]);

  if (path === null || folderCommands === null) return <NotFoundRoute />;
  return (
    <KitServicesProvider>
      <AssetLibrary
        key={path}
        folderPath={path}
        role={user.role}
        username={user.username}
        maxUploadBytes={user.limits?.maxUploadBytes}
        hrefOfFolder={hrefOfFolder}
        hrefOfPage={hrefOfPage}
        folderCommands={folderCommands}
      />
    </KitServicesProvider>
  );
}

export { AssetLibraryRoute as Component };
