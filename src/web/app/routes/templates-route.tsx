import { useNavigate, useParams, useSearchParams } from 'react-router';
import { InlineAlert } from '../../components/ui/inline-alert';
import { PageHeader } from '../../components/ui/page-header';
import { TemplateEditor } from '../../features/templates/components/template-editor';
import { KitServicesProvider } from '../../kit/kit-services-provider';
import { TemplatesScreen, type TemplatesNavigation } from '../../features/templates/components/templates-screen';
import { useDocumentTitle } from '../../lib/document-title';
import { itemAt } from '../../lib/tree/items';
import { paths } from '../paths';
import { explorerHrefOf } from './explorer-navigation';
import { useFrameContext } from './require-session';

/** The new template's editor is `/templates?new`: a query, so no template name (any is allowed) can clash. */
const NEW = 'new';

/**
 * /templates, /templates?new, /templates/<name>: the templates and their editor, for admins; anyone else learns
 * why they cannot use them. Loaded on first use (router.tsx).
 */
export function TemplatesRoute() {
  const { user } = useFrameContext();
  const { name } = useParams();
  const [search] = useSearchParams();
  const creating = name === undefined && search.has(NEW);
  const navigate = useNavigate();
  useDocumentTitle(creating ? 'New template' : name === undefined ? 'Templates' : `Template ${name}`);
  if (user.role !== 'Admin') {
    return (
      <>
        <PageHeader title="Templates" />
        <InlineAlert title="Admins only">
          Only admins change templates. You are signed in as {user.username} ({user.role}); ask an admin if a page needs
          a different template.
        </InlineAlert>
      </>
    );
  }
  const navigation: TemplatesNavigation = {
    templatesHref: paths.templates,
    templateHref: (n) => (n === null ? `${paths.templates}?${NEW}` : `${paths.templates}/${encodeURIComponent(n)}`),
    open: (href) => void navigate(href),
    pageHref: (path) => explorerHrefOf(itemAt(path, 'page')),
    sectionHref: (path) => explorerHrefOf(itemAt(path, path.includes('/') ? 'section' : 'site')),
    trashHref: paths.trash,
  };
  if (name === undefined && !creating) return <TemplatesScreen navigation={navigation} />;
  // A template's widgets are edited with the kit's forms, whose pickers the provider opens.
  return (
    <KitServicesProvider>
      <TemplateEditor key={creating ? `?${NEW}` : name} name={creating ? null : name!} navigation={navigation} />
    </KitServicesProvider>
  );
}

export { TemplatesRoute as Component };
