import { useNavigate } from 'react-router';
import { SitesScreen } from '../../features/sites/components/sites-screen';
import { useDocumentTitle } from '../../lib/document-title';
import { itemAt } from '../../lib/tree/items';
import { explorerHrefOf } from './explorer-navigation';
import { useFrameContext } from './require-session';

const siteHref = (name: string) => explorerHrefOf(itemAt(name, 'site'));

/** /sites: the first screen after sign-in. Cards open sites in the explorer; admins create sites. */
export function SitesRoute() {
  useDocumentTitle('Sites');
  const { user } = useFrameContext();
  const navigate = useNavigate();
  return (
    <SitesScreen
      siteHref={siteHref}
      canCreateSites={user.role === 'Admin'}
      onSiteCreated={(name) => void navigate(siteHref(name))}
    />
  );
}
