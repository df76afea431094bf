import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useDropzone, type FileWithPath } from 'react-dropzone';
import type { Selection } from 'react-aria-components';
import type { AssetMetadata } from '../../../../shared/api/assets';
import type { ChildSummary } from '../../../../shared/api/folders';
import type { Role } from '../../../../shared/api/auth';
import { isApiError } from '../../../../shared/api/client';
import { ASSET_LIBRARY, splitPath } from '../../../../shared/api/paths';
import type { AssetType } from '../../../../shared/registry';
import { Button } from '../../../components/ui/button';
import { PageHeader } from '../../../components/ui/page-header';
import { EmptyState, ErrorState, LoadingState } from '../../../components/ui/status';
import { assetPathOf } from '../../../lib/assets';
import { useApi } from '../../../lib/api';
import { focusWhenDropped } from '../../../lib/focus-later';
import { useAssetList } from '../../../lib/queries/assets';
import { useChildFolders } from '../../../lib/queries/folders';
import { useUploadQueue } from '../uploads/use-upload-queue';
import { AssetDetail } from './asset-detail';
import { AssetGrid, type AssetCollectionProps } from './asset-grid';
import { AssetTable } from './asset-table';
import { useAssetPrefetch } from '../api/use-asset-prefetch';
import { assetsOfSelection } from '../api/bulk-actions';
import { BulkBar } from './bulk-bar';
import { BulkDialog, type BulkKind } from './bulk-dialog';
import { FolderStrip } from './folder-strip';
import { LibraryActions, type FolderCommands } from './library-actions';
import { NewAssetDialog } from './new-asset-dialog';
import { LibraryCrumbs } from './library-crumbs';
import { LibraryFilters, type LibraryView } from './library-filters';
import {
  isFiltered,
  LIBRARY_PAGE_SIZE as PAGE_SIZE,
  listQueryOf,
  REVIEW_ALT_TEXT,
  useLibraryQuery,
} from './library-query';
import './library.css';

/** Assets per request: a few screens of cards. */

const VIEW_STORAGE_KEY = 'folio.assets.view';

/** The grid or list, as the user last chose (kept in localStorage). */
function useViewPreference(): [LibraryView, (view: LibraryView) => void] {
  const [view, setView] = useState<LibraryView>(() => {
    try {
      return globalThis.localStorage?.getItem(VIEW_STORAGE_KEY) === 'list' ? 'list' : 'grid';
    } catch {
      return 'grid';
    }
  });
  const choose = useCallback((next: LibraryView) => {
    setView(next);
    try {
      globalThis.localStorage?.setItem(VIEW_STORAGE_KEY, next);
    } catch {
      // Storage may be unavailable; the choice then lasts until a reload.
    }
  }, []);
  return [view, choose];
}

export interface AssetLibraryProps {
  /** `Assets` or `Assets/<folder…>`. */
  folderPath: string;
  role: Role;
  /** The signed-in user (drafts are kept per user; checkouts are named). */
  username: string;
  /** The server's upload limit (checked before sending). */
  maxUploadBytes?: number;
  /** App URL of an asset folder (or the library). */
  hrefOfFolder: (path: string) => string;
  /** App URL of a page (the page editor). */
  hrefOfPage: (path: string) => string;
  /** Creating, renaming, moving and deleting asset folders (the explorer's dialogs, which keep the tree up to date). */
  folderCommands: FolderCommands;
}

const NO_SUBFOLDERS: readonly ChildSummary[] = [];

/**
 * The asset library at one folder: breadcrumbs, the folder's subfolders, its assets as a grid or a list with
 * search, filters and sort, upload by dropping files anywhere on it or with a button, "New" for folders and the
 * non-binary asset types, bulk actions on a selection, and each asset's details.
 */
export function AssetLibrary(props: AssetLibraryProps) {
  const { folderPath, role } = props;
  // The folder's subfolders and the caller's access level (never the folder's own GET: it lists every asset).
  const folder = useChildFolders(folderPath);
  const subfolders = folder.data?.items ?? NO_SUBFOLDERS;
  const { query, update, openAsset: openName, review, setOpenAsset } = useLibraryQuery(folderPath);
  const [view, setView] = useViewPreference();
  const list = useAssetList(folderPath, listQueryOf(query, PAGE_SIZE));
  const assets = useMemo(() => list.data?.pages.flatMap((p) => p.items) ?? [], [list.data]);
  const total = list.data?.pages[0]?.total;
  const [selected, setSelected] = useState<Selection>(() => new Set());
  const queue = useUploadQueue();
  const client = useApi();
  const [bulk, setBulk] = useState<BulkKind | null>(null);
  const [newAsset, setNewAsset] = useState<AssetType | null>(null);
  const itemsRef = useRef<HTMLDivElement>(null);
  const prefetchAsset = useAssetPrefetch();

  // A new folder or a new query starts without a selection (opening an asset's details keeps it).
  const queryKey = JSON.stringify(query);
  useEffect(() => setSelected(new Set()), [folderPath, queryKey]);

  const canWrite = role !== 'Viewer' && folder.data?.accessLevel !== 'READ';
  const upload = useCallback(
    (files: File[]) => {
      queue.add(
        files.map((file) => ({
          file,
          relativePath: (file as FileWithPath).relativePath || (file as FileWithPath).path,
        })),
        folderPath,
        { maxUploadBytes: props.maxUploadBytes },
      );
    },
    [queue, folderPath, props.maxUploadBytes],
  );
  const dropzone = useDropzone({
    onDrop: upload,
    noClick: true,
    noKeyboard: true,
    useFsAccessApi: false,
    disabled: !canWrite,
  });

  const folderName = folderPath === ASSET_LIBRARY ? 'Asset library' : (splitPath(folderPath).pop() ?? folderPath);
  // The open asset is named relative to this folder (a deep listing shows assets of subfolders too).
  // The router applies a URL change as a transition (the whole route renders again, the explorer's tree too), so
  // the panel opens at once from this state, and the URL follows; its answer then holds it open.
  const [opening, setOpening] = useState<string | null>(null);
  useEffect(() => setOpening(null), [openName]);
  const shownName = openName ?? opening;
  const openAsset = useCallback(
    (asset: AssetMetadata) => {
      const name = assetPathOf(asset).slice(folderPath.length + 1);
      setOpening(name);
      setOpenAsset(name);
    },
    [setOpenAsset, folderPath],
  );
  const closeAsset = useCallback(
    (options?: { replace?: boolean }) => {
      setOpening(null);
      setOpenAsset(null, options);
    },
    [setOpenAsset],
  );
  // Stable, so that opening an asset (a URL change) or a page arriving does not render every card again.
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = list;
  const loadMore = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  if (folder.isError) {
    return (
      <div className="asset-library">
        <LibraryCrumbs folderPath={folderPath} hrefOfFolder={props.hrefOfFolder} />
        <PageHeader title={folderName} />
        <ErrorState
          title={isApiError(folder.error, 404) ? 'This folder does not exist' : `Could not load ${folderName}`}
          error={folder.error}
          onRetry={isApiError(folder.error, 404) ? undefined : () => void folder.refetch()}
          isRetrying={folder.isFetching}
        />
      </div>
    );
  }

  const collection: AssetCollectionProps = {
    label: `Assets in ${folderName}`,
    assets,
    total,
    selectedKeys: selected,
    onSelectionChange: setSelected,
    onOpen: openAsset,
    hasMore: Boolean(hasNextPage),
    isLoadingMore: isFetchingNextPage,
    onLoadMore: loadMore,
    canSelect: canWrite,
  };

  return (
    <div
      {...dropzone.getRootProps({
        className: 'asset-library',
        'data-drag-active': dropzone.isDragActive || undefined,
        // react-dropzone marks a disabled zone aria-disabled, which would grey out the whole screen for readers.
        'aria-disabled': undefined,
      })}
    >
      <input {...dropzone.getInputProps({ 'aria-label': 'Files to upload' })} />
      <LibraryCrumbs folderPath={folderPath} hrefOfFolder={props.hrefOfFolder} />
      <PageHeader
        title={folderName}
        description={folder.data?.accessLevel === 'READ' ? 'Read only for you' : undefined}
        actions={
          <LibraryActions
            folderPath={folderPath}
            canWrite={canWrite}
            onUpload={dropzone.open}
            onNewAsset={setNewAsset}
            folderCommands={props.folderCommands}
          />
        }
      />
      <FolderStrip subfolders={subfolders} folderPath={folderPath} hrefOfFolder={props.hrefOfFolder} />
      <LibraryFilters
        query={query}
        onChange={update}
        view={view}
        onViewChange={setView}
        total={total}
        isLibraryRoot={folderPath === ASSET_LIBRARY}
      />
      {canWrite && (
        <BulkBar
          selection={selected}
          total={total}
          role={role}
          onAction={setBulk}
          onClear={() => setSelected(new Set())}
        />
      )}
      {/* An asset's metadata is read as its card is focused or pointed at: its panel then opens without a wait. */}
      <div className="asset-library__items" ref={itemsRef} onFocus={prefetchAsset} onPointerOver={prefetchAsset}>
        {list.isError ? (
          <ErrorState title="Could not load the assets" error={list.error} onRetry={() => void list.refetch()} />
        ) : list.isPending ? (
          <LoadingState label="Loading the assets…" />
        ) : assets.length === 0 ? (
          <div className="library-empty">
            <LibraryEmpty
              folderName={folderName}
              filtered={isFiltered(query)}
              deep={query.deep}
              hasSubfolders={subfolders.length > 0}
              canWrite={canWrite}
              onShowSubfolders={() => update({ deep: true })}
              onUpload={dropzone.open}
              onNewFolder={() => props.folderCommands.create()}
            />
          </div>
        ) : view === 'grid' ? (
          <AssetGrid {...collection} />
        ) : (
          <AssetTable
            {...collection}
            sort={query.sort}
            order={query.order}
            onSortChange={(sort, order) => update({ sort, order })}
            showFolder={query.deep}
          />
        )}
      </div>
      {shownName && (
        <AssetDetail
          path={`${folderPath}/${shownName}`}
          reviewAltText={review === REVIEW_ALT_TEXT}
          user={{ username: props.username, role }}
          canWrite={canWrite}
          maxUploadBytes={props.maxUploadBytes}
          hrefOfPage={props.hrefOfPage}
          onClose={closeAsset}
        />
      )}
      {newAsset && (
        <NewAssetDialog
          type={newAsset}
          folderPath={folderPath}
          onClose={(created) => {
            setNewAsset(null);
            if (created) setOpenAsset(created);
          }}
        />
      )}
      {bulk && (
        <BulkDialog
          kind={bulk}
          folderPath={folderPath}
          hrefOfPage={props.hrefOfPage}
          load={(signal) => {
            const { limit: _limit, ...filters } = listQueryOf(query, PAGE_SIZE);
            return assetsOfSelection(client, folderPath, filters, selected, assets, signal);
          }}
          onClose={(changed) => {
            setBulk(null);
            if (changed) setSelected(new Set());
            // The bar that opened the dialog goes with the selection: the focus goes to the assets (or the heading).
            focusWhenDropped(
              () =>
                itemsRef.current?.querySelector<HTMLElement>('[role="grid"]') ??
                document.querySelector<HTMLElement>('[data-screen-heading]'),
            );
          }}
        />
      )}
      {dropzone.isDragActive && (
        <div className="asset-library__drop" aria-hidden="true">
          <p>Drop to upload to {folderName}</p>
        </div>
      )}
    </div>
  );
}

/** What an empty listing means, and what to do about it. */
function LibraryEmpty({
  folderName,
  filtered,
  deep,
  hasSubfolders,
  canWrite,
  onShowSubfolders,
  onUpload,
  onNewFolder,
}: {
  folderName: string;
  filtered: boolean;
  deep: boolean;
  hasSubfolders: boolean;
  canWrite: boolean;
  onShowSubfolders: () => void;
  onUpload: () => void;
  onNewFolder: () => void;
}) {
  if (filtered) {
    return (
      <EmptyState title="No asset matches">
        <p>Try other words, or clear the filters.</p>
        {!deep && hasSubfolders && (
          <Button size="sm" onPress={onShowSubfolders}>
            Look in its subfolders too
          </Button>
        )}
      </EmptyState>
    );
  }
  if (hasSubfolders && !deep) {
    return (
      <EmptyState title={`No assets directly in ${folderName}`}>
        <p>Open one of its folders above, or see everything below it at once.</p>
        <Button size="sm" onPress={onShowSubfolders}>
          Show the assets of its subfolders
        </Button>
      </EmptyState>
    );
  }
  return (
    <EmptyState
      title={`${folderName} holds no assets yet`}
      actions={
        canWrite && (
          <>
            <Button size="sm" variant="primary" onPress={onUpload}>
              Upload files
            </Button>
            <Button size="sm" onPress={onNewFolder}>
              New folder
            </Button>
          </>
        )
      }
    >
      {canWrite ? 'Drop files here or choose them; New makes a folder or a non-binary asset.' : 'Nothing to show here.'}
    </EmptyState>
  );
}
