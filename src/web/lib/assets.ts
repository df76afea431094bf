import { THUMBNAIL_PREFIX, type AssetMetadata } from '../../shared/api/assets';
import { assetBinaryHref, splitPath } from '../../shared/api/paths';
import { assetTypeDef } from '../../shared/registry';
import { formatBytes } from './format';

/** An asset's path in the library: `Assets/<folder…>/<name>`. */
export function assetPathOf(asset: Pick<AssetMetadata, 'folderPath' | 'name'>): string {
  return `${asset.folderPath}/${asset.name}`;
}

/** The URL of an asset's file (images in rich text, downloads). */
export function assetFileUrl(asset: Pick<AssetMetadata, 'folderPath' | 'name'>): string {
  return assetBinaryHref([...splitPath(asset.folderPath), asset.name]);
}

/**
 * The URL of an image's thumbnail (never the original in grids and pickers); null for other assets. It carries
 * the asset's last modification, so a replaced file's new thumbnail is fetched, not an old copy the page holds.
 */
export function assetThumbnailUrl(
  asset: Pick<AssetMetadata, 'folderPath' | 'name' | 'thumbnail'> & Partial<Pick<AssetMetadata, 'lastModifiedDate'>>,
): string | null {
  if (!asset.thumbnail) return null;
  const url = assetBinaryHref([...splitPath(asset.folderPath), `${THUMBNAIL_PREFIX}${asset.name}`]);
  return asset.lastModifiedDate ? `${url}?v=${encodeURIComponent(asset.lastModifiedDate)}` : url;
}

/** An asset's facts in one line: "1200 × 800 px · 340 KB · PNG", "2.1 MB · PDF", or its type's label. */
export function assetFactsOf(asset: Pick<AssetMetadata, 'image' | 'file' | 'type'>): string {
  const parts: string[] = [];
  if (asset.image) {
    parts.push(`${asset.image.width} × ${asset.image.height} px`, formatBytes(asset.image.size));
    if (asset.image.extension) parts.push(asset.image.extension.toUpperCase());
  } else if (asset.file) {
    parts.push(formatBytes(asset.file.size));
    if (asset.file.extension) parts.push(asset.file.extension.replace(/^\./, '').toUpperCase());
  } else parts.push(assetTypeDef(asset.type)?.label ?? asset.type);
  return parts.join(' · ');
}
