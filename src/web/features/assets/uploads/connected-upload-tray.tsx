import type { AssetMetadata } from '../../../../shared/api/assets';
import { UploadTray } from './upload-tray';
import { useUploadQueue } from './use-upload-queue';

/** The tray of the app's own upload queue (what the app mounts once, over every screen). */
export default function ConnectedUploadTray({ hrefOfAsset }: { hrefOfAsset: (asset: AssetMetadata) => string }) {
  return <UploadTray queue={useUploadQueue()} hrefOfAsset={hrefOfAsset} />;
}
