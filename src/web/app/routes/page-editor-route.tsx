import { useLocation } from 'react-router';
import { roleAtLeast } from '../../../shared/api/auth';
import { splitPath } from '../../../shared/api/paths';
import { ItemBreadcrumbs } from '../../features/explorer/components/item-breadcrumbs';
import { PageEditorScreen } from '../../features/pages/components/page-editor-screen';
import { preloadRichTextEditor } from '../../kit/controls/rich-text/rich-text-deferred';
import { KitServicesProvider } from '../../kit/kit-services-provider';
import { useDocumentTitle } from '../../lib/document-title';
import { itemAt } from '../../lib/tree/items';
import { explorerHrefOf, explorerLocationOf } from './explorer-navigation';
import { NotFoundRoute } from './not-found-route';
import { useFrameContext } from './require-session';

// Most pages are rich text: the editor's code comes while the page is drawn, for the first click into a widget.
preloadRichTextEditor();

/** The app URL of a shared asset (the asset library shows the folder it is in, by its path). */
const assetHref = (assetPath: string) => explorerHrefOf({ kind: 'assetfolder', segments: splitPath(assetPath) });

/**
 * /pages/<site>/<folders…>/<page>: the page editor (loaded on first use with the editing kit, see router.tsx).
 * Viewers see it read-only. Each page gets a fresh editor.
 */
export function PageEditorRoute() {
  const { pathname } = useLocation();
  const { user } = useFrameContext();
  const at = explorerLocationOf(pathname);
  useDocumentTitle(at ? `Edit ${at.path.split('/').pop()}` : undefined);
  if (!at || at.area !== 'pages') return <NotFoundRoute />;
  return (
    <KitServicesProvider>
      <PageEditorScreen
        key={at.path}
        path={at.path}
        user={user.username}
        isReadOnly={user.role === 'Viewer'}
        canSchedule={roleAtLeast(user.role, 'Editor')}
        links={{ assetHref }}
        breadcrumbs={<ItemBreadcrumbs item={itemAt(at.path, 'page')} />}
      />
    </KitServicesProvider>
  );
}

export { PageEditorRoute as Component };
