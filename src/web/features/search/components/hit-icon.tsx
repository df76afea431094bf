import type { SearchHit } from '../../../../shared/api/search';
import { KindIcon } from '../../../components/tree/kind-icon';
import { AssetTypeIcon } from '../../../kit/type-icon';
import { kindOfFolderItem } from '../../../lib/tree/items';

/** A hit's icon (decorative: its group and description say what it is): its asset type, a page, a folder's kind. */
export function HitIcon({ hit, className }: { hit: SearchHit; className?: string }) {
  if (hit.kind === 'asset') return <AssetTypeIcon type={hit.type} className={className} />;
  if (hit.kind === 'page') return <KindIcon item={{ kind: 'page' }} className={className} />;
  return <KindIcon item={{ kind: kindOfFolderItem(hit.path, hit.type) }} className={className} />;
}
