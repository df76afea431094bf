import { useLocation } from 'react-router';
import { NotFound } from '../../components/ui/not-found';
import { useDocumentTitle } from '../../lib/document-title';
import { paths } from '../paths';

/** Any other address inside the app. */
export function NotFoundRoute() {
  useDocumentTitle('Not found');
  const location = useLocation();
  return (
    <NotFound backHref={paths.sites} backLabel="Go to the sites">
      Folio has no screen at <code>{location.pathname}</code>.
    </NotFound>
  );
}
