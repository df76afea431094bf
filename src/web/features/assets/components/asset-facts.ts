import type { AssetMetadata } from '../../../../shared/api/assets';
import { assetTypeDef } from '../../../../shared/registry';

export { needsAltText } from '../../../kit/pickers/asset-card';

/** The type's label ("Image", "Rich text"). */
export function typeLabelOf(type: string): string {
  return assetTypeDef(type)?.label ?? type;
}

/** An asset's size in bytes (its file's), or null for types without a file. */
export function sizeOf(asset: Pick<AssetMetadata, 'image' | 'file'>): number | null {
  return asset.image?.size ?? asset.file?.size ?? null;
}
