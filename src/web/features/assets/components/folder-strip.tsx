import { Link } from 'react-aria-components';
import type { Folder } from '../../../../shared/api/folders';
import { FolderIcon } from '../../../components/ui/icons';

/** The folders inside this one, each a link that opens it in the library (as the tree does). */
export function FolderStrip({
  folder,
  folderPath,
  hrefOfFolder,
}: {
  folder: Folder | undefined;
  folderPath: string;
  hrefOfFolder: (path: string) => string;
}) {
  const subfolders = folder?.subfolders ?? [];
  if (subfolders.length === 0) return null;
  return (
    <nav aria-label="Folders" className="folder-strip">
      <ul className="folder-strip__list">
        {subfolders.map((sub) => (
          <li key={sub.name}>
            <Link href={hrefOfFolder(`${folderPath}/${sub.name}`)} className="folder-strip__link">
              <FolderIcon aria-hidden="true" />
              <span className="folder-strip__name">{sub.name}</span>
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
