import { useState } from 'react';
import type { TrashEntry } from '../../../../shared/api/trash';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog, FormDialog } from '../../../components/ui/dialog';
import { InlineAlert } from '../../../components/ui/inline-alert';
import { PageHeader } from '../../../components/ui/page-header';
import { Spinner } from '../../../components/ui/spinner';
import { TextField } from '../../../components/ui/text-field';
import { toast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/errors';
import { useTrashActions, useTrashList } from '../api/trash';
import { purgeTimeText } from '../lib/purge-time';
import './trash.css';

const KIND: Record<string, string> = {
  page: 'Page',
  asset: 'Asset',
  site: 'Site',
  folder: 'Folder',
  section: 'Section',
  sectionlink: 'Section link',
  externallink: 'External link',
};

const when = (iso: string) => new Date(iso).toLocaleString();

/**
 * The trash: what was deleted (its title, its name when that differs; where from, who, when, and how long until it
 * is deleted for good), newest first. Restore puts an item back where it
 * was; Restore to… into another folder; admins may delete an item for good, after a confirmation.
 */
export function TrashScreen({ isAdmin }: { isAdmin: boolean }) {
  const list = useTrashList();
  const { restore, purge } = useTrashActions();
  const [restoringTo, setRestoringTo] = useState<TrashEntry | null>(null);
  const [to, setTo] = useState('');
  const [purging, setPurging] = useState<TrashEntry | null>(null);
  const entries = list.data?.pages.flatMap((p) => p.items) ?? [];
  const now = Date.now();

  const restoreEntry = (entry: TrashEntry, target?: string) =>
    restore.mutate(target === undefined ? { id: entry.id } : { id: entry.id, to: target }, {
      onSuccess: (r) => {
        setRestoringTo(null);
        toast.success(`Restored “${entry.title}”`, `It is at ${r.path} again.`);
      },
      onError: (error) => {
        if (target === undefined) toast.error(`Could not restore “${entry.title}”`, errorMessage(error));
      },
    });

  return (
    <>
      <PageHeader
        title="Trash"
        description="Deleted pages, assets and folders wait here before they are deleted for good."
      />
      {list.isPending ? (
        <p role="status">
          <Spinner /> Loading the trash…
        </p>
      ) : list.error ? (
        <InlineAlert title="Could not load the trash">{errorMessage(list.error)}</InlineAlert>
      ) : entries.length === 0 ? (
        <p>The trash is empty.</p>
      ) : (
        <div className="table-wrap">
          <table className="table trash-table" aria-label="Deleted items">
            <thead>
              <tr>
                <th scope="col">What, and where it was</th>
                <th scope="col">Deleted</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {entries.map((e) => (
                <tr key={e.id}>
                  <td className="trash-table__what">
                    <span className="table__muted">{KIND[e.kind] ?? e.kind}</span> <strong>{e.title}</strong>
                    <br />
                    <code className="table__muted">{e.from ? `${e.from}/${e.name}` : e.name}</code>
                  </td>
                  <td className="trash-table__when">
                    <time dateTime={e.deletedAt}>{when(e.deletedAt)}</time> by {e.deletedBy}
                    <br />
                    <time className="table__muted" dateTime={e.purgeAt} title={when(e.purgeAt)}>
                      {purgeTimeText(e.purgeAt, now)}
                    </time>
                  </td>
                  <td className="trash-table__actions">
                    <Button size="sm" onPress={() => restoreEntry(e)} isDisabled={restore.isPending}>
                      Restore
                    </Button>{' '}
                    {e.kind !== 'site' && (
                      <Button
                        size="sm"
                        variant="quiet"
                        onPress={() => {
                          restore.reset();
                          setTo(e.from);
                          setRestoringTo(e);
                        }}
                      >
                        Restore to…
                      </Button>
                    )}{' '}
                    {isAdmin && (
                      <Button size="sm" variant="danger" onPress={() => setPurging(e)}>
                        Delete permanently
                      </Button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {list.hasNextPage && (
        <Button onPress={() => void list.fetchNextPage()} isDisabled={list.isFetchingNextPage}>
          Show more
        </Button>
      )}
      {restoringTo && (
        <FormDialog
          isOpen
          onOpenChange={(open) => !open && setRestoringTo(null)}
          title={`Restore “${restoringTo.title}” to…`}
          description="The folder, section or site it goes into (an asset: a folder of the asset library)."
          submitLabel="Restore"
          isPending={restore.isPending}
          error={restore.error ?? undefined}
          isSubmitDisabled={to.trim() === ''}
          onSubmit={() => restoreEntry(restoringTo, to.trim())}
        >
          <TextField label="Into" value={to} onChange={setTo} autoFocus />
        </FormDialog>
      )}
      {purging && (
        <ConfirmDialog
          isOpen
          onOpenChange={(open) => !open && setPurging(null)}
          title={`Delete “${purging.title}” permanently?`}
          confirmLabel="Delete permanently"
          isPending={purge.isPending}
          error={purge.error ?? undefined}
          onConfirm={() =>
            purge.mutate(purging.id, {
              onSuccess: () => {
                setPurging(null);
                toast.success(`Deleted “${purging.title}” permanently`);
              },
            })
          }
        >
          <p>
            <code>{purging.path}</code> is deleted with everything inside it, its history and its files. This cannot be
            undone.
          </p>
        </ConfirmDialog>
      )}
    </>
  );
}
