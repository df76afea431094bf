import { THUMBNAIL_PREFIX, type AssetMetadata } from '../../shared/api/assets';
import { assetBinaryHref, splitPath } from '../../shared/api/paths';

/** An asset's path in the library: `Assets/<folder…>/<name>`. */
export function assetPathOf(asset: Pick<AssetMetadata, 'folderPath' | 'name'>): string {
  return `${asset.folderPath}/${asset.name}`;
}

/** The URL of an asset's file (images in rich text, downloads). */
export function assetFileUrl(asset: Pick<AssetMetadata, 'folderPath' | 'name'>): string {
  return assetBinaryHref([...splitPath(asset.folderPath), asset.name]);
}

/** The URL of an image's thumbnail (never the original in grids and pickers); null for other assets. */
export function assetThumbnailUrl(asset: Pick<AssetMetadata, 'folderPath' | 'name' | 'thumbnail'>): string | null {
  if (!asset.thumbnail) return null;
  return assetBinaryHref([...splitPath(asset.folderPath), `${THUMBNAIL_PREFIX}${asset.name}`]);
}
