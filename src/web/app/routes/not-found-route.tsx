import { Link, useLocation } from 'react-router';
import { PageHeader } from '../../components/ui/page-header';
import { useDocumentTitle } from '../../lib/document-title';
import { paths } from '../paths';

/** Any other address inside the app. */
export function NotFoundRoute() {
  useDocumentTitle('Not found');
  const location = useLocation();
  return (
    <>
      <PageHeader
        title="Page not found"
        description={
          <>
            Folio has no screen at <code>{location.pathname}</code>.
          </>
        }
      />
      <p>
        <Link to={paths.sites}>Go to the sites</Link>
      </p>
    </>
  );
}
