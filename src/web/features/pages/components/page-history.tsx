import { useCallback, useMemo } from 'react';
import type { WithEtag } from '../../../../shared/api/client';
import type { Page } from '../../../../shared/api/pages';
import { HtmlPreview } from '../../../components/ui/html-preview';
import { toast } from '../../../components/ui/toast';
import { HistoryPanel } from '../../../kit/history/history-panel';
import { useRevisions, type ComparePair, type HistorySource } from '../../../kit/history/use-revisions';
import { fullValue } from '../../../kit/saving/conflict-diff';
import { useApi } from '../../../lib/api';
import { pageVersionQueryOptions } from '../../../lib/queries/revisions';
import type { VersionRef } from '../../../lib/query-keys';
import { docOf, propsOf } from '../lib/editor-doc';
import { PROP_FIELDS } from '../lib/page-conflict';
import { pageRevisionRows } from '../lib/page-history';
import { PAGE_PREVIEW_CSS, pagePreviewHtml } from '../lib/page-preview';
import { useRestorePage } from '../api/restore-page';

/** A page as it was, read-only: its properties, then its content as the preview draws it. */
function PageVersion({ page }: { page: Page }) {
  const props = propsOf(page) as unknown as Record<string, unknown>;
  return (
    <div className="page-version">
      <dl className="page-version__props">
        <div>
          <dt>Template</dt>
          <dd>{page.templateName}</dd>
        </div>
        {PROP_FIELDS.filter((f) => fullValue(props[f.key]) !== '(empty)').map((f) => (
          <div key={f.key}>
            <dt>{f.label}</dt>
            <dd>{fullValue(props[f.key])}</dd>
          </div>
        ))}
      </dl>
      <HtmlPreview
        html={pagePreviewHtml(page, docOf(page))}
        css={PAGE_PREVIEW_CSS}
        title={`Content of ${page.displayName || page.name} at this revision`}
        className="page-version__frame"
      />
    </div>
  );
}

/**
 * The page editor's History tab: the page's revisions (kit/history) with Restore. A restore puts the restored
 * page in the editor (`onRestored`); with unsaved changes it waits until they are saved or discarded.
 */
export function PageHistory({
  path,
  base,
  title,
  canRestore,
  hasUnsavedChanges,
  request,
  onRequestShown,
  onRestored,
}: {
  path: string;
  /** The page as the editor last read or saved it (its ETag goes with a restore). */
  base: WithEtag<Page>;
  title: string;
  canRestore: boolean;
  hasUnsavedChanges: boolean;
  request: ComparePair | null;
  onRequestShown: () => void;
  onRestored: (restored: WithEtag<Page>) => void;
}) {
  const client = useApi();
  const restore = useRestorePage(path);
  const source = useMemo<HistorySource<Page>>(
    () => ({
      kind: 'pages',
      path,
      itemLabel: `the page “${title}”`,
      versionOptions: (v) => pageVersionQueryOptions(client, path, v),
      compare: pageRevisionRows,
      render: (page) => <PageVersion page={page} />,
    }),
    [client, path, title],
  );
  const onRestore = useCallback(
    async (revision: number) => {
      const restored = await restore.mutateAsync({ revision, ifMatch: base.etag ?? undefined });
      onRestored(restored);
      toast.success(`Restored revision ${revision}`, 'The editor shows it now; the history has a new revision.');
    },
    [restore, base.etag, onRestored],
  );
  return (
    <HistoryPanel
      source={source}
      onRestore={canRestore ? onRestore : undefined}
      restoreBlocked={hasUnsavedChanges ? 'Save or discard your changes to restore a revision.' : null}
      request={request}
      onRequestShown={onRequestShown}
    />
  );
}

/** Whether the page's live version differs from its latest revision (for the editor's badge). */
export function usePageLive(path: string) {
  const client = useApi();
  const versionOptions = useCallback((v: VersionRef) => pageVersionQueryOptions(client, path, v), [client, path]);
  const { liveDiffers, latest } = useRevisions('pages', path, versionOptions);
  return { differs: liveDiffers, latest: latest?.revision ?? null };
}
