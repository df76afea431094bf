import { Breadcrumb, Breadcrumbs, Link } from 'react-aria-components';
import { ASSET_LIBRARY } from '../../../../shared/api/paths';
import type { ExplorerItem, ExplorerKind } from '../../../lib/tree/items';
import { useExplorer } from './explorer-context';

/** The kind a breadcrumb's URL needs (sites/sections/folders share one URL scheme, so "folder" stands for them). */
function crumbKind(segments: string[], last: ExplorerItem): ExplorerKind {
  if (segments.length === last.segments.length) return last.kind;
  if (segments[0] === ASSET_LIBRARY) return segments.length === 1 ? 'library' : 'assetfolder';
  return segments.length === 1 ? 'site' : 'folder';
}

/** Where an item is: each container from the site (or the asset library) down, each a link; the item last. */
export function ItemBreadcrumbs({ item }: { item: ExplorerItem }) {
  const { hrefOf } = useExplorer();
  const crumbs = item.segments.map((name, i) => {
    const segments = item.segments.slice(0, i + 1);
    return { id: segments.join('/'), name: i === 0 && name === ASSET_LIBRARY ? 'Asset library' : name, segments };
  });
  return (
    <nav aria-label="Breadcrumbs" className="crumbs">
      <Breadcrumbs items={crumbs} className="crumbs__list">
        {(crumb) => (
          <Breadcrumb id={crumb.id} className="crumbs__item">
            <Link
              href={hrefOf({ kind: crumbKind(crumb.segments, item), segments: crumb.segments })}
              className="crumbs__link"
            >
              {crumb.name}
            </Link>
          </Breadcrumb>
        )}
      </Breadcrumbs>
    </nav>
  );
}
