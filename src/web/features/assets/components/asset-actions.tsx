import { useEffect, useRef, useState } from 'react';
import { useDropzone } from 'react-dropzone';
import type { AssetMetadata, AssetUsageEntry } from '../../../../shared/api/assets';
import type { WithEtag } from '../../../../shared/api/client';
import { assetHref, splitPath } from '../../../../shared/api/paths';
import { assetTypeDef } from '../../../../shared/registry';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/dialog';
import { FileIcon, LinkIcon, RefreshIcon, TrashIcon } from '../../../components/ui/icons';
import { ProgressBar } from '../../../components/ui/progress-bar';
import { toast } from '../../../components/ui/toast';
import { useApi } from '../../../lib/api';
import { assetFileUrl } from '../../../lib/assets';
import { formatBytes } from '../../../lib/format';
import { useUploadItems, useUploadQueue } from '../uploads/use-upload-queue';
import { UsageLinks } from './asset-usage-list';

/** The address people paste elsewhere: the file of a binary asset, the metadata of the others. */
function shareableUrl(asset: AssetMetadata): string {
  const path =
    asset.image || asset.file ? assetFileUrl(asset) : assetHref([...splitPath(asset.folderPath), asset.name]);
  return new URL(path, window.location.origin).href;
}

/**
 * What can be done with the asset: download its file, copy its URL, replace its file (pick one or drop it here:
 * the asset keeps its id, alt text, titles and the pages using it), delete it (naming the pages that use it).
 */
export function AssetActions({
  asset,
  etag,
  canWrite,
  isDirty,
  maxUploadBytes,
  usage,
  hrefOfPage,
  onReplaced,
  onDeleted,
}: {
  asset: AssetMetadata;
  etag: string | null;
  canWrite: boolean;
  /** The form has unsaved edits (a replace waits until they are saved or discarded). */
  isDirty: boolean;
  maxUploadBytes?: number;
  /** The pages using it, once known. */
  usage: readonly AssetUsageEntry[] | undefined;
  hrefOfPage: (path: string) => string;
  onReplaced: (saved: WithEtag<AssetMetadata>) => void;
  /** After the delete: `trashId` names its trash entry (Undo restores it). */
  onDeleted: (trashId: string | undefined) => Promise<void>;
}) {
  const binary = Boolean(assetTypeDef(asset.type)?.binary);
  const queue = useUploadQueue();
  const items = useUploadItems(queue);
  const [replaceId, setReplaceId] = useState<string | null>(null);
  const replacing = items.find((i) => i.id === replaceId);
  const reported = useRef<string | null>(null);
  const [deleting, setDeleting] = useState(false);
  const [removeState, setRemoveState] = useState<{ pending: boolean; error: unknown }>({ pending: false, error: null });
  const client = useApi();

  const remove = async () => {
    setRemoveState({ pending: true, error: null });
    try {
      // Deleting what pages use takes it off them; the dialog said so and named them.
      const { trashId } = await client.assets.remove([...splitPath(asset.folderPath), asset.name], {
        force: Boolean(usage?.length),
        ifMatch: etag ?? undefined,
      });
      setDeleting(false);
      await onDeleted(trashId);
    } catch (error) {
      setRemoveState({ pending: false, error });
    }
  };

  useEffect(() => {
    if (replacing?.status !== 'done' || !replacing.result || reported.current === replacing.id) return;
    reported.current = replacing.id;
    onReplaced({ data: replacing.result, etag: replacing.resultEtag ?? null });
    toast.success(`Replaced the file of ${asset.name}`);
  }, [replacing, onReplaced, asset.name]);

  const replaceWith = (file: File) => {
    reported.current = null;
    setReplaceId(queue.replace(file, { meta: asset, etag }, { maxUploadBytes }));
  };
  const busy = replacing !== undefined && ['queued', 'checking', 'uploading', 'processing'].includes(replacing.status);
  const canReplace = canWrite && binary && !isDirty && !busy;
  const dropzone = useDropzone({
    onDrop: (files: File[]) => {
      if (files[0]) replaceWith(files[0]);
    },
    multiple: false,
    noClick: true,
    noKeyboard: true,
    noDragEventsBubbling: true,
    useFsAccessApi: false,
    disabled: !canReplace,
  });

  const copy = async () => {
    const url = shareableUrl(asset);
    try {
      await navigator.clipboard.writeText(url);
      toast.success('Copied the URL', url);
    } catch {
      toast.error('Could not copy the URL', url);
    }
  };

  return (
    <section className="asset-section" aria-label="Actions">
      <div className="asset-actions" role="toolbar" aria-label={`Actions for ${asset.name}`}>
        {binary && (
          <a className="btn btn--secondary btn--sm" href={assetFileUrl(asset)} download={asset.name}>
            <FileIcon aria-hidden="true" /> Download
          </a>
        )}
        <Button size="sm" onPress={() => void copy()}>
          <LinkIcon /> Copy URL
        </Button>
        {canWrite && binary && (
          <Button size="sm" onPress={dropzone.open} isDisabled={!canReplace}>
            <RefreshIcon /> Replace file…
          </Button>
        )}
        {canWrite && (
          <Button size="sm" variant="quiet" className="asset-actions__delete" onPress={() => setDeleting(true)}>
            <TrashIcon /> Delete…
          </Button>
        )}
      </div>
      {canWrite && binary && (
        <div
          {...dropzone.getRootProps({
            className: 'replace-zone',
            role: 'group',
            'data-drag-active': dropzone.isDragActive || undefined,
            'aria-label': 'Replace the file',
            'aria-disabled': undefined,
          })}
        >
          <input {...dropzone.getInputProps({ 'aria-label': `New file for ${asset.name}` })} />
          {replacing && replacing.status !== 'done' ? (
            <ReplaceProgress item={replacing} onRetry={() => queue.retry(replacing.id)} />
          ) : (
            <p className="replace-zone__hint">
              {isDirty
                ? 'Save or discard your changes before replacing the file.'
                : `Drop a file here to replace this one${maxUploadBytes ? ` (up to ${formatBytes(maxUploadBytes)})` : ''}: its alt text, titles and the pages using it stay.`}
            </p>
          )}
        </div>
      )}
      {deleting && (
        <ConfirmDialog
          isOpen
          onOpenChange={setDeleting}
          title={`Delete ${asset.name}?`}
          confirmLabel={
            usage?.length
              ? `Delete and take it off ${usage.length === 1 ? 'that page' : 'those pages'}`
              : 'Delete asset'
          }
          onConfirm={() => void remove()}
          isPending={removeState.pending}
          isConfirmDisabled={usage === undefined}
          error={removeState.error}
        >
          {usage?.length ? (
            <>
              <p>
                It is used on {usage.length} page {usage.length === 1 ? 'region' : 'regions'}. Deleting it takes it off
                them (images and links to it inside text break):
              </p>
              <UsageLinks usedBy={usage} hrefOfPage={hrefOfPage} />
            </>
          ) : (
            <p>
              {binary ? 'Its file goes too. ' : ''}No page uses it. It goes to the trash, from where it can be restored.
            </p>
          )}
        </ConfirmDialog>
      )}
    </section>
  );
}

function ReplaceProgress({ item, onRetry }: { item: ReturnType<typeof useUploadItems>[number]; onRetry: () => void }) {
  if (item.status === 'failed' || item.status === 'refused' || item.status === 'cancelled') {
    return (
      <p className="replace-zone__error" role="alert">
        The file was not replaced: {item.error ?? 'cancelled'}{' '}
        {item.status !== 'refused' && (
          <Button size="sm" variant="quiet" onPress={onRetry}>
            Try again
          </Button>
        )}
      </p>
    );
  }
  return (
    <ProgressBar
      label={`Replacing the file with ${item.file.name}`}
      value={item.total ? (item.loaded / item.total) * 100 : 0}
      isIndeterminate={item.status !== 'uploading'}
      valueLabel={item.status === 'uploading' ? `Sending ${item.file.name}` : 'Processing on the server'}
    />
  );
}
