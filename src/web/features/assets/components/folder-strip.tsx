import { Link } from 'react-aria-components';
import { FolderIcon } from '../../../components/ui/icons';

/** The folders inside this one, each a link that opens it in the library (as the tree does). */
export function FolderStrip({
  subfolders,
  folderPath,
  hrefOfFolder,
}: {
  subfolders: readonly { name: string }[];
  folderPath: string;
  hrefOfFolder: (path: string) => string;
}) {
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
