import { useRef, useState } from 'react';
import { Link } from 'react-aria-components';
import type { TemplateSummary } from '../../../../shared/api/templates';
import { ActionMenu } from '../../../components/ui/action-menu';
import { PlusIcon } from '../../../components/ui/icons';
import { PageHeader } from '../../../components/ui/page-header';
import { EmptyState, ErrorState, LoadingState } from '../../../components/ui/status';
import { useTemplates } from '../../../lib/queries/templates';
import { DeleteTemplateDialog } from './delete-template-dialog';
import type { TemplateLinks } from './template-usage';
import './templates.css';

/** The app URLs the templates screens link to. */
export interface TemplatesNavigation extends TemplateLinks {
  /** The list of templates. */
  templatesHref: string;
  /** The editor of a template; `null` for a new one. */
  templateHref: (name: string | null) => string;
  /** Opens a URL of the app. */
  open: (href: string) => void;
}

/**
 * Templates (admins): every template with its regions; "New template", and per template Edit and Delete. Pages and
 * the landing pages of sites and sections are made from templates.
 */
export function TemplatesScreen({ navigation }: { navigation: TemplatesNavigation }) {
  const templates = useTemplates();
  const [deleting, setDeleting] = useState<TemplateSummary | null>(null);
  const regionRef = useRef<HTMLDivElement>(null);
  const sorted = [...(templates.data ?? [])].sort((a, b) => a.label.localeCompare(b.label));
  const newTemplate = (
    <Link href={navigation.templateHref(null)} className="btn btn--primary btn--md">
      <PlusIcon /> New template
    </Link>
  );

  const closeDelete = (name: string, deleted: boolean) => {
    setDeleting(null);
    requestAnimationFrame(() => {
      if (document.activeElement && document.activeElement !== document.body) return;
      const trigger = deleted
        ? null
        : regionRef.current?.querySelector<HTMLElement>(`[data-template-actions="${CSS.escape(name)}"] button`);
      (trigger ?? regionRef.current?.querySelector<HTMLElement>('h1'))?.focus();
    });
  };

  return (
    <div ref={regionRef}>
      <PageHeader
        title="Templates"
        description="Pages are made from templates: each region is filled by the page, or fixed by the template."
        actions={newTemplate}
      />
      {templates.isPending ? (
        <LoadingState label="Loading templates…" />
      ) : templates.isError ? (
        <ErrorState
          title="Could not load the templates"
          error={templates.error}
          onRetry={() => void templates.refetch()}
          isRetrying={templates.isFetching}
        />
      ) : sorted.length === 0 ? (
        <EmptyState title="No templates yet" actions={newTemplate}>
          Sites, sections and pages need a template. Create the first one.
        </EmptyState>
      ) : (
        <div className="table-wrap">
          <table className="table templates-table">
            <caption className="visually-hidden">Templates, {sorted.length} in all, by label</caption>
            <thead>
              <tr>
                <th scope="col">Template</th>
                <th scope="col">Regions</th>
                <th scope="col">Description</th>
                <th scope="col" className="table__actions">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {sorted.map((t) => (
                <tr key={t.name}>
                  <th scope="row">
                    <Link href={navigation.templateHref(t.name)} className="templates-table__link">
                      {t.label}
                    </Link>
                    {t.label !== t.name && <span className="templates-table__name">{t.name}</span>}
                  </th>
                  <td>
                    <ul className="region-chips" aria-label={`Regions of ${t.label}`}>
                      {t.regions.map((r) => (
                        <li key={r.name} className={r.editable ? 'region-chip' : 'region-chip region-chip--fixed'}>
                          {r.name}
                          <span className="visually-hidden">{r.editable ? ', filled by pages' : ', fixed'}</span>
                        </li>
                      ))}
                    </ul>
                  </td>
                  <td className="table__muted">{t.description || '—'}</td>
                  <td className="table__actions" data-template-actions={t.name}>
                    <ActionMenu<'edit' | 'delete'>
                      label={`Actions for ${t.label}`}
                      items={[
                        { id: 'edit', label: 'Edit' },
                        { id: 'delete', label: 'Delete…', danger: true },
                      ]}
                      onAction={(action) =>
                        action === 'edit' ? navigation.open(navigation.templateHref(t.name)) : setDeleting(t)
                      }
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {templates.isSuccess && sorted.length > 0 && (
        <p className="templates-note">
          <span className="region-chip">name</span> regions are filled by each page;{' '}
          <span className="region-chip region-chip--fixed">name</span> regions are fixed by the template.
        </p>
      )}
      {deleting && (
        <DeleteTemplateDialog
          template={deleting}
          links={navigation}
          onClose={(deleted) => closeDelete(deleting.name, deleted)}
        />
      )}
    </div>
  );
}
