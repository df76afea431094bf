import { SitesScreen } from '../../features/sites/components/sites-screen';
import { useDocumentTitle } from '../../lib/document-title';

/** /sites: the first screen after sign-in. */
export function SitesRoute() {
  useDocumentTitle('Sites');
  return <SitesScreen />;
}
