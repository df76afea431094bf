import type { ReactNode } from 'react';
import { isApiError } from '../../../../shared/api/client';
import { PageHeader } from '../../../components/ui/page-header';
import { ErrorState, LoadingState } from '../../../components/ui/status';
import { usePage } from '../../../lib/queries/pages';
import { PageEditor, type PageEditorLinks } from './page-editor';

/**
 * `/pages/<site>/<folders…>/<page>`: loads the page, then the editor (which keeps its own copy from then on; the
 * cache is updated by its saves). Loaded lazily with the editor's code.
 */
export function PageEditorScreen({
  path,
  user,
  isReadOnly,
  canSchedule,
  links,
  breadcrumbs,
}: {
  path: string;
  user: string;
  isReadOnly: boolean;
  /** The user may schedule publishing (an Editor). */
  canSchedule?: boolean;
  links: PageEditorLinks;
  breadcrumbs?: ReactNode;
}) {
  // Read once: later refetches must not replace what the user is editing.
  const page = usePage(path, { refetchOnWindowFocus: false });
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
  return (
    <PageEditor
      key={path}
      path={path}
      initial={page.data}
      user={user}
      isReadOnly={isReadOnly}
      canSchedule={canSchedule}
      links={links}
      breadcrumbs={breadcrumbs}
    />
  );
}
