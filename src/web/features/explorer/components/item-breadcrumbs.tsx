import { Breadcrumb, Breadcrumbs, Link } from 'react-aria-components';
import { ASSET_LIBRARY } from '../../../../shared/api/paths';
import { labelOf, type ExplorerItem, type ExplorerKind } from '../../../lib/tree/items';
import { useTitlesOf } from '../api/item-titles';
import { useExplorer } from './explorer-context';

/** The kind a breadcrumb's URL needs (sites/sections/folders share one URL scheme, so "folder" stands for them). */
function crumbKind(segments: string[], last: ExplorerItem): ExplorerKind {
  if (segments.length === last.segments.length) return last.kind;
  if (segments[0] === ASSET_LIBRARY) return segments.length === 1 ? 'library' : 'assetfolder';
  return segments.length === 1 ? 'site' : 'folder';
}

/**
 * Where an item is: each container from the site (or the asset library) down, each a link showing its title (its
 * name when it has none); the item last. Names show in the URL and the screen's description.
 */
export function ItemBreadcrumbs({ item }: { item: ExplorerItem }) {
  const { hrefOf } = useExplorer();
  // The item's own title too, for screens that know only its path (the page editor's).
  const paths = item.segments.map((_, i) => item.segments.slice(0, i + 1).join('/'));
  const titles = useTitlesOf(item.title ? paths.slice(0, -1) : paths);
  const crumbs = item.segments.map((name, i) => {
    const segments = item.segments.slice(0, i + 1);
    const path = segments.join('/');
    const isLast = i === item.segments.length - 1;
    const title = (isLast && item.title) || titles.get(path);
    const label = i === 0 && name === ASSET_LIBRARY ? 'Asset library' : labelOf({ name, title });
    return { id: path, label, segments };
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
              {crumb.label}
            </Link>
          </Breadcrumb>
        )}
      </Breadcrumbs>
    </nav>
  );
}
