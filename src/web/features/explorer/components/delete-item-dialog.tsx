import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { isApiError } from '../../../../shared/api/client';
import { Button } from '../../../components/ui/button';
import { Checkbox } from '../../../components/ui/checkbox';
import { ConfirmDialog } from '../../../components/ui/dialog';
import { RefreshIcon } from '../../../components/ui/icons';
import { InlineAlert } from '../../../components/ui/inline-alert';
import { Spinner } from '../../../components/ui/spinner';
import { useApi } from '../../../lib/api';
import { errorMessage } from '../../../lib/errors';
import { useDeleteItem } from '../api/delete-item';
import { folderQueryOptions } from '../../../lib/queries/folders';
import { useFolderContents } from '../api/get-folder-contents';
import { pageQueryOptions } from '../../../lib/queries/pages';
import { describeContents, describeElsewhere } from '../lib/describe';
import { KIND_LABEL, labelOf, type ExplorerItem } from '../../../lib/tree/items';
import { useUndoToasts } from './use-undo-toasts';
import { useExplorer } from './explorer-context';

/** What deleting an item with nothing inside removes, in words that fit its kind. */
function emptyDeleteSentence(item: ExplorerItem, hasLandingPage: boolean) {
  const label = labelOf(item);
  switch (item.kind) {
    case 'sectionlink':
    case 'externallink':
      return `Only the link “${label}” goes; the page or address it leads to stays.`;
    case 'site':
    case 'section':
      return hasLandingPage
        ? `“${label}” holds nothing but its landing page, which goes with it.`
        : `“${label}” holds nothing else.`;
    default:
      return `“${label}” is empty.`;
  }
}

/**
 * Asks before deleting, naming what goes: "Everything inside goes with it: 3 folders, 12 pages". A non-empty
 * item needs an explicit tick before the delete (with includeSubFolders) is sent. The delete carries the ETag of
 * the version the counts were made for, so a change by someone else in between is refused (412), not deleted.
 */
export function DeleteItemDialog({ item, onClose }: { item: ExplorerItem; onClose: () => void }) {
  const explorer = useExplorer();
  const client = useApi();
  const remove = useDeleteItem();
  const isPage = item.kind === 'page';
  const contents = useFolderContents(item.path, { enabled: !isPage });
  const folder = useQuery({ ...folderQueryOptions(client, item.path), enabled: !isPage, staleTime: 0 });
  const page = useQuery({ ...pageQueryOptions(client, item.path), enabled: isPage, staleTime: 0 });
  const [confirmed, setConfirmed] = useState(false);
  const undoToasts = useUndoToasts();

  const version = isPage ? page : folder;
  const loading = version.isPending || (!isPage && contents.isPending);
  const loadError = version.error ?? (isPage ? null : contents.error);
  const nonEmpty = !isPage && contents.data !== undefined && !contents.data.empty;
  const stale = isApiError(remove.error, 412);
  const kind = KIND_LABEL[item.kind];

  const recount = () => {
    remove.reset();
    setConfirmed(false);
    void version.refetch();
    if (!isPage) void contents.refetch();
  };

  return (
    <ConfirmDialog
      isOpen
      onOpenChange={(open) => !open && onClose()}
      title={`Delete ${kind} “${labelOf(item)}”?`}
      confirmLabel={`Delete ${kind}`}
      isPending={remove.isPending}
      isConfirmDisabled={loading || loadError !== null || stale || (nonEmpty && !confirmed)}
      error={remove.error && !stale ? remove.error : undefined}
      onConfirm={() =>
        remove.mutate(
          { item, includeSubFolders: nonEmpty, etag: version.data?.etag ?? undefined },
          {
            onSuccess: (r) => {
              undoToasts.deleted(item, r.trashId);
              onClose();
              explorer.itemDeleted(item);
            },
          },
        )
      }
    >
      {loading ? (
        <p className="delete-summary__loading" role="status">
          <Spinner /> Counting what goes with it…
        </p>
      ) : loadError ? (
        <InlineAlert title="Could not check what would be deleted">{errorMessage(loadError)}</InlineAlert>
      ) : isPage ? (
        <p>
          The page <strong>{page.data?.data.displayName || item.name}</strong> (<code>{item.path}</code>) is deleted
          with its own content. Shared assets it shows stay in the asset library.
        </p>
      ) : contents.data && !nonEmpty ? (
        <p>{emptyDeleteSentence(item, contents.data.pages > 0)}</p>
      ) : contents.data ? (
        <>
          <p>
            Everything inside <code>{item.path}</code> goes with it:{' '}
            <strong className="delete-summary__counts">{describeContents(contents.data)}</strong>.
          </p>
          {describeElsewhere(contents.data) && <p>Also removed: {describeElsewhere(contents.data)}.</p>}
          <Checkbox isSelected={confirmed} onChange={setConfirmed} isDisabled={remove.isPending}>
            Delete “{item.name}” and everything inside it
          </Checkbox>
        </>
      ) : null}
      {stale && (
        <InlineAlert title="Changed by someone else">
          <p>“{item.name}” changed after this dialog opened, so nothing was deleted. Check again what would go.</p>
          <Button size="sm" onPress={recount}>
            <RefreshIcon /> Check again
          </Button>
        </InlineAlert>
      )}
      <p>It goes to the trash, from where it can be restored.</p>
    </ConfirmDialog>
  );
}
