import {
  ExternalLinkIcon,
  FileIcon,
  FolderIcon,
  GlobeIcon,
  HomeIcon,
  ImagesIcon,
  LinkIcon,
  SectionIcon,
} from '../ui/icons';
import type { ExplorerItem } from '../../lib/tree/items';

/** The icon of an item's kind (decorative: the kind is part of every accessible name). */
export function KindIcon({
  item,
  className,
}: {
  item: Pick<ExplorerItem, 'kind' | 'isLandingPage'>;
  className?: string;
}) {
  const props = { className: `kind-icon kind-icon--${item.kind} ${className ?? ''}`.trim() };
  switch (item.kind) {
    case 'site':
      return <GlobeIcon {...props} />;
    case 'section':
      return <SectionIcon {...props} />;
    case 'sectionlink':
      return <LinkIcon {...props} />;
    case 'externallink':
      return <ExternalLinkIcon {...props} />;
    case 'page':
      return item.isLandingPage ? <HomeIcon {...props} /> : <FileIcon {...props} />;
    case 'library':
      return <ImagesIcon {...props} />;
    default:
      return <FolderIcon {...props} />;
  }
}
