import { lazy, Suspense, useState } from 'react';
import { useLocation } from 'react-router';
import type { AssetMetadata } from '../../../shared/api/assets';
import { splitPath } from '../../../shared/api/paths';
import { itemAt } from '../../lib/tree/items';
import { paths } from '../paths';
import { explorerHrefOf } from './explorer-navigation';

const UploadTray = lazy(() => import('../../features/assets/uploads/connected-upload-tray'));

/** The library URL that opens an asset's details. */
function hrefOfAsset(asset: AssetMetadata): string {
  const segments = splitPath(asset.folderPath);
  const folder = explorerHrefOf(itemAt(asset.folderPath, segments.length === 1 ? 'library' : 'assetfolder'));
  return `${folder}?asset=${encodeURIComponent(asset.name)}`;
}

/**
 * The upload tray over every screen, from the first visit to the asset library on (where uploads start), so
 * uploads go on and stay visible while the user works elsewhere. Its code loads with that first visit.
 */
export function UploadTraySlot() {
  const { pathname } = useLocation();
  const [needed, setNeeded] = useState(false);
  if (!needed && (pathname === paths.assets || pathname.startsWith(`${paths.assets}/`))) setNeeded(true);
  if (!needed) return null;
  return (
    <Suspense fallback={null}>
      <UploadTray hrefOfAsset={hrefOfAsset} />
    </Suspense>
  );
}
