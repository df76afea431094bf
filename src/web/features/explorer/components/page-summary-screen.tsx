import { useId } from 'react';
import { isApiError } from '../../../../shared/api/client';
import { PageHeader } from '../../../components/ui/page-header';
import { ErrorState, LoadingState } from '../../../components/ui/status';
import { WorkflowBadge } from '../../../components/ui/workflow-badge';
import { formatDateTime } from '../../../lib/format';
import { useFolder } from '../../../lib/queries/folders';
import { usePage } from '../../../lib/queries/pages';
import { itemAt, parentPathOf } from '../../../lib/tree/items';
import { ItemBreadcrumbs } from './item-breadcrumbs';
import { ItemToolbar } from './item-toolbar';
import './explorer.css';

/**
 * A page in the main area, read only: its name, template, workflow state, and each region of its template with
 * how many widgets it holds. Editing the content is the page editor's job.
 */
export function PageSummaryScreen({ path }: { path: string }) {
  const page = usePage(path);
  const parentPath = parentPathOf(path) ?? path;
  // The container says whether this is its landing page (which cannot be moved, renamed or deleted alone).
  const parent = useFolder(parentPath);
  const factsId = useId();
  const regionsId = useId();

  if (page.isPending) return <LoadingState label={`Loading ${path}…`} />;
  if (page.isError) {
    return (
      <>
        <PageHeader title={path.split('/').pop() ?? path} />
        <ErrorState
          title={isApiError(page.error, 404) ? 'Not found' : `Could not load “${path}”`}
          error={page.error}
          onRetry={isApiError(page.error, 404) ? undefined : () => void page.refetch()}
          isRetrying={page.isFetching}
        />
      </>
    );
  }

  const p = page.data.data;
  const isLandingPage = parent.data?.data.sectionInfo?.landingPage?.name === p.name;
  const item = itemAt(path, 'page', isLandingPage);
  const widgetCount = p.body.reduce((n, r) => n + r.widgets.length, 0);

  return (
    <div className="item-screen">
      <ItemBreadcrumbs item={item} />
      <PageHeader
        title={p.displayName || p.name}
        description={
          <>
            {isLandingPage ? 'Landing page' : 'Page'} named <code>{p.name}</code> in <code>{parentPath}</code>
          </>
        }
        actions={<ItemToolbar item={item} />}
      />
      <div className="item-screen__grid">
        <section className="card" aria-labelledby={factsId}>
          <h2 id={factsId} className="card__title">
            Page
          </h2>
          <dl className="facts">
            <div className="facts__row">
              <dt>Template</dt>
              <dd>
                <code>{p.templateName}</code>
              </dd>
            </div>
            <div className="facts__row">
              <dt>Workflow</dt>
              <dd>
                <WorkflowBadge state={p.workflow.state} /> {p.workflow.name}
                {p.workflow.checkedOut && (
                  <span className="table__muted">
                    {' '}
                    · checked out{p.workflow.checkedOutUser ? ` by ${p.workflow.checkedOutUser}` : ''}
                  </span>
                )}
              </dd>
            </div>
            {p.summary && (
              <div className="facts__row">
                <dt>Summary</dt>
                <dd>{p.summary}</dd>
              </div>
            )}
            {p.seo.browserTitle && (
              <div className="facts__row">
                <dt>Browser title</dt>
                <dd>{p.seo.browserTitle}</dd>
              </div>
            )}
            {p.overridePostDate && (
              <div className="facts__row">
                <dt>Post date</dt>
                <dd>{formatDateTime(p.overridePostDate)}</dd>
              </div>
            )}
            <div className="facts__row">
              <dt>Widgets</dt>
              <dd>
                {widgetCount} in {p.body.length} {p.body.length === 1 ? 'region' : 'regions'}
              </dd>
            </div>
          </dl>
        </section>
        <section className="card" aria-labelledby={regionsId}>
          <h2 id={regionsId} className="card__title">
            Regions
          </h2>
          <div className="table-wrap">
            <table className="table">
              <caption className="visually-hidden">Regions of the template {p.templateName} and their widgets</caption>
              <thead>
                <tr>
                  <th scope="col">Region</th>
                  <th scope="col">Filled by</th>
                  <th scope="col">Widgets</th>
                </tr>
              </thead>
              <tbody>
                {p.body.map((region) => {
                  const shared = region.widgets.filter((w) => w.asset.name !== undefined).length;
                  return (
                    <tr key={region.name}>
                      <th scope="row">
                        <code>{region.name}</code>
                      </th>
                      <td className="table__muted">{region.editable ? 'The page' : 'The template'}</td>
                      <td>
                        {region.widgets.length}
                        {shared > 0 && <span className="table__muted"> ({shared} shared)</span>}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        </section>
      </div>
    </div>
  );
}
