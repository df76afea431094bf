import { useQueryClient } from '@tanstack/react-query';
import { useId } from 'react';
import { Link } from 'react-aria-components';
import { segmentsOfHref } from '../../../../shared/api/paths';
import { isApiError } from '../../../../shared/api/client';
import { FileIcon } from '../../../components/ui/icons';
import { PageHeader } from '../../../components/ui/page-header';
import { ErrorState, LoadingState } from '../../../components/ui/status';
import { useFolder } from '../../../lib/queries/folders';
import { canChange } from '../lib/access';
import {
  capitalise,
  isContainer,
  itemAt,
  kindOfFolder,
  KIND_LABEL,
  labelOf,
  parentPathOf,
  type ExplorerItem,
} from '../../../lib/tree/items';
import { ContentsList } from './contents-list';
import { useExplorer } from './explorer-context';
import { ItemBreadcrumbs } from './item-breadcrumbs';
import { ItemNotFound } from './item-not-found';
import { ItemToolbar } from './item-toolbar';
import { PropertiesForm } from './properties-form';
import './explorer.css';

/**
 * A site, section, folder, section link, external link or asset folder in the main area: where it is, what it
 * holds, its properties, and what the user may do with it.
 */
export function FolderScreen({ path }: { path: string }) {
  const explorer = useExplorer();
  const queryClient = useQueryClient();
  const folder = useFolder(path);
  const contentsHeadingId = useId();

  if (folder.isPending) return <LoadingState label={`Loading ${path}…`} />;
  if (folder.isError) {
    if (isApiError(folder.error, 404)) return <ItemNotFound path={path} />;
    return (
      <>
        <PageHeader title={path.split('/').pop() ?? path} />
        <ErrorState
          title={`Could not load “${path}”`}
          error={folder.error}
          onRetry={() => void folder.refetch()}
          isRetrying={folder.isFetching}
        />
      </>
    );
  }

  const data = folder.data.data;
  const displayTitle = data.sectionInfo?.displayTitle;
  const item: ExplorerItem = {
    ...itemAt(path, kindOfFolder(path, data)),
    ...(displayTitle ? { title: displayTitle } : {}),
  };
  const title = item.kind === 'library' ? 'Asset library' : labelOf(item);
  const mayChange = canChange(queryClient, explorer.role, item);
  const parent = parentPathOf(path);

  return (
    <div className="item-screen">
      <ItemBreadcrumbs item={item} />
      <PageHeader
        title={title}
        description={
          <>
            {capitalise(KIND_LABEL[item.kind])}
            {title !== item.name && (
              <>
                {' '}
                named <code>{item.name}</code>
              </>
            )}
            {parent !== null && (
              <>
                {' '}
                in <code>{parent}</code>
              </>
            )}
            {data.accessLevel === 'READ' && ' · read only for you'}
          </>
        }
        actions={<ItemToolbar item={item} />}
      />
      <div className="item-screen__grid">
        {isContainer(item.kind) && (
          <section className="card" aria-labelledby={contentsHeadingId}>
            <h2 id={contentsHeadingId} className="card__title">
              {item.kind === 'library' || item.kind === 'assetfolder' ? 'Folders' : 'Contents'}
            </h2>
            <ContentsList item={item} folder={data} canReorder={mayChange} />
          </section>
        )}
        {(item.kind === 'library' || item.kind === 'assetfolder') && (
          <AssetsCard names={(data.assets ?? []).map((a) => a.name)} />
        )}
        {item.kind === 'sectionlink' && data.sectionInfo?.linkTarget && (
          <LinkTargetCard href={data.sectionInfo.linkTarget.href} />
        )}
        <PropertiesForm
          key={item.path}
          item={item}
          folder={folder.data}
          canEdit={mayChange && item.kind !== 'library'}
          isAdmin={explorer.role === 'Admin'}
        />
      </div>
    </div>
  );
}

/** Where a section link leads, as a link to that section. */
function LinkTargetCard({ href }: { href: string }) {
  const { hrefOf } = useExplorer();
  const segments = segmentsOfHref(href);
  const target = itemAt(segments.join('/'), segments.length === 1 ? 'site' : 'section');
  return (
    <section className="card">
      <h2 className="card__title">Leads to</h2>
      <p>
        <Link href={hrefOf(target)} className="contents-table__link">
          {target.path}
        </Link>
      </p>
    </section>
  );
}

/** The assets of an asset folder, by name (the asset library screen edits them). */
function AssetsCard({ names }: { names: string[] }) {
  const headingId = useId();
  return (
    <section className="card" aria-labelledby={headingId}>
      <h2 id={headingId} className="card__title">
        Assets <span className="badge">{names.length}</span>
      </h2>
      {names.length === 0 ? (
        <p className="card__muted">No assets in this folder.</p>
      ) : (
        <ul className="asset-names" aria-labelledby={headingId}>
          {names.map((name) => (
            <li key={name}>
              <FileIcon className="asset-names__icon" />
              {name}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
