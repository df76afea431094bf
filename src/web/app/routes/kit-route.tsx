import { Navigate, useParams } from 'react-router';
import { KitGallery, type GallerySelection } from '../../kit/gallery/kit-gallery';
import { KitServicesProvider } from '../../kit/kit-services-provider';
import { useDocumentTitle } from '../../lib/document-title';
import { paths } from '../paths';
import { useFrameContext } from './require-session';

/** /kit[/widgets|assets/<type>]: the editing kit's gallery, for admins (loaded on first use). */
export function KitRoute() {
  const { user } = useFrameContext();
  const { kind, type } = useParams();
  useDocumentTitle('Editing kit');
  if (user.role !== 'Admin') return <Navigate to={paths.sites} replace />;
  const selection: GallerySelection | null = (kind === 'widgets' || kind === 'assets') && type ? { kind, type } : null;
  return (
    <KitServicesProvider>
      <KitGallery selection={selection} hrefOf={(s) => `${paths.kit}/${s.kind}/${encodeURIComponent(s.type)}`} />
    </KitServicesProvider>
  );
}

export { KitRoute as Component };
