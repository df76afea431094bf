import { Breadcrumb, Breadcrumbs, Link } from 'react-aria-components';
import { ASSET_LIBRARY, splitPath } from '../../../../shared/api/paths';

/** Where the folder is: the asset library, then each folder down to this one, each a link. */
export function LibraryCrumbs({
  folderPath,
  hrefOfFolder,
}: {
  folderPath: string;
  hrefOfFolder: (path: string) => string;
}) {
  const segments = splitPath(folderPath);
  const crumbs = segments.map((name, i) => ({
    id: segments.slice(0, i + 1).join('/'),
    name: i === 0 && name === ASSET_LIBRARY ? 'Asset library' : name,
  }));
  return (
    <nav aria-label="Breadcrumbs" className="library-crumbs">
      <Breadcrumbs items={crumbs} className="library-crumbs__list">
        {(crumb) => (
          <Breadcrumb id={crumb.id} className="library-crumbs__item">
            <Link href={hrefOfFolder(crumb.id)} className="library-crumbs__link">
              {crumb.name}
            </Link>
          </Breadcrumb>
        )}
      </Breadcrumbs>
    </nav>
  );
}
