import type { DragEvent, ReactNode } from 'react';
import { Dialog, Modal as AriaModal, ModalOverlay } from 'react-aria-components';
import type { Me } from '../../../../shared/api/auth';
import { isApiError } from '../../../../shared/api/client';
import { ErrorState, LoadingState } from '../../../components/ui/status';
import { useAsset, useListedAsset } from '../../../lib/queries/assets';
import { AssetEditor } from './asset-editor';
import { AssetPreview } from './asset-preview';
import { AssetHeading, DrawerHeading } from './drawer-heading';

/**
 * The details of one asset in a panel over the library (its own history entry: Back or Escape closes it):
 * preview and facts, metadata form, workflow, where it is used, download, copy URL, replace, delete.
 */
export function AssetDetail({
  path,
  user,
  canWrite,
  maxUploadBytes,
  hrefOfPage,
  onClose,
  reviewAltText = false,
}: {
  /** `Assets/<folder…>/<name>`. */
  path: string;
  /** The image's file was just replaced: its alt text is focused, with a word that it may not fit any more. */
  reviewAltText?: boolean;
  user: Pick<Me, 'username' | 'role'>;
  /** The user may change assets in this folder. */
  canWrite: boolean;
  maxUploadBytes?: number;
  hrefOfPage: (path: string) => string;
  /** Closes the panel (`replace`: without a history entry, e.g. after a delete). */
  onClose: (options?: { replace?: boolean }) => void;
}) {
  const asset = useAsset(path);
  const name = path.split('/').pop() ?? path;
  // What the library's listing already holds of it: its preview and facts show at once, its form when the asset
  // itself is read (with the ETag a save needs).
  const listed = useListedAsset(path);
  let body: ReactNode;
  if (asset.isPending) {
    body = listed ? (
      <>
        <AssetHeading asset={listed} onClose={() => onClose()} />
        <div className="drawer__body">
          <AssetPreview asset={listed} />
          <LoadingState label={`Loading the details of ${name}…`} />
        </div>
      </>
    ) : (
      <LoadingState label={`Loading ${name}…`} />
    );
  } else if (asset.isError) {
    body = (
      <>
        <DrawerHeading title={name} onClose={() => onClose()} />
        <ErrorState
          title={isApiError(asset.error, 404) ? `${name} is not there any more` : `Could not load ${name}`}
          error={asset.error}
          onRetry={isApiError(asset.error, 404) ? undefined : () => void asset.refetch()}
          isRetrying={asset.isFetching}
        />
      </>
    );
  } else {
    body = (
      <AssetEditor
        key={path}
        path={path}
        current={asset.data}
        user={user}
        canWrite={canWrite}
        maxUploadBytes={maxUploadBytes}
        hrefOfPage={hrefOfPage}
        onClose={onClose}
        reviewAltText={reviewAltText}
      />
    );
  }
  return (
    <ModalOverlay
      isOpen
      isDismissable
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      className="drawer-overlay"
    >
      <AriaModal className="drawer">
        <Dialog className="drawer__dialog" aria-label={`Details of ${name}`}>
          {/* Files dragged over the panel are not uploads into the folder behind it (React events cross the portal). */}
          <div className="drawer__content" onDragEnter={stop} onDragOver={stop} onDragLeave={stop} onDrop={stop}>
            {body}
          </div>
        </Dialog>
      </AriaModal>
    </ModalOverlay>
  );
}

const stop = (event: DragEvent<HTMLDivElement>) => event.stopPropagation();
