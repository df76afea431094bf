import { useEffect, useRef, useState } from 'react';
import type { TrashEntry } from '../../../../shared/api/trash';
import { ContainerPicker } from '../../../components/tree/container-picker';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog, FormDialog } from '../../../components/ui/dialog';
import { InlineAlert } from '../../../components/ui/inline-alert';
import { PageHeader } from '../../../components/ui/page-header';
import { Spinner } from '../../../components/ui/spinner';
import { toast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/errors';
import { formatDateTime } from '../../../lib/format';
import { isContainer, isInLibrary } from '../../../lib/tree/items';
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

/**
 * The trash: what was deleted (its title, its name when that differs; where from, who, when, and how long until it
 * is deleted for good), newest first. Restore puts an item back where it was; Restore to… into a folder chosen in
 * a tree; admins may delete an item for good, after a confirmation. Each row's buttons are described by its item,
 * and when a row goes, the focus goes to the row that takes its place (or to the heading when none is left).
 */
export function TrashScreen({ isAdmin }: { isAdmin: boolean }) {
  const list = useTrashList();
  const { restore, purge } = useTrashActions();
  const [restoringTo, setRestoringTo] = useState<TrashEntry | null>(null);
  const [to, setTo] = useState<string | null>(null);
  const [purging, setPurging] = useState<TrashEntry | null>(null);
  const entries = list.data?.pages.flatMap((p) => p.items) ?? [];
  const now = Date.now();
  const table = useRef<HTMLTableElement>(null);

  /**
   * After a row went: the focus to the row now in its place, or the one before, or the heading — once the list
   * shows it gone, and after a closing dialog has given the focus back to its (gone) button.
   */
  const [focusAfter, setFocusAfter] = useState<number | null>(null);
  const focusAfterRemoving = (entry: TrashEntry) => setFocusAfter(entries.findIndex((e) => e.id === entry.id));
  useEffect(() => {
    if (focusAfter === null || list.isFetching) return;
    setFocusAfter(null);
    requestAnimationFrame(() => {
      const rows = table.current?.tBodies[0]?.rows;
      const row = rows?.[Math.min(focusAfter, rows.length - 1)];
      (row?.querySelector('button') ?? document.querySelector<HTMLElement>('[data-screen-heading]'))?.focus();
    });
  }, [focusAfter, list.isFetching]);

  const restoreEntry = (entry: TrashEntry, target?: string) =>
    restore.mutate(target === undefined ? { id: entry.id } : { id: entry.id, to: target }, {
      onSuccess: (r) => {
        setRestoringTo(null);
        toast.success(`Restored “${entry.title}”`, `It is at ${r.path} again.`);
        focusAfterRemoving(entry);
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
          <table ref={table} className="table trash-table" aria-label="Deleted items">
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
                  <td className="trash-table__what" id={`trash-${e.id}`}>
                    <span className="table__muted">{KIND[e.kind] ?? e.kind}</span> <strong>{e.title}</strong>
                    <br />
                    <code className="table__muted">{e.from ? `${e.from}/${e.name}` : e.name}</code>
                  </td>
                  <td className="trash-table__when">
                    <time dateTime={e.deletedAt}>{formatDateTime(e.deletedAt)}</time> by {e.deletedBy}
                    <br />
                    <time className="table__muted" dateTime={e.purgeAt} title={formatDateTime(e.purgeAt)}>
                      {purgeTimeText(e.purgeAt, now)}
                    </time>
                  </td>
                  <td className="trash-table__actions">
                    <Button
                      size="sm"
                      aria-describedby={`trash-${e.id}`}
                      onPress={() => restoreEntry(e)}
                      isDisabled={restore.isPending}
                    >
                      Restore
                    </Button>{' '}
                    {e.kind !== 'site' && (
                      <Button
                        size="sm"
                        variant="quiet"
                        aria-describedby={`trash-${e.id}`}
                        onPress={() => {
                          restore.reset();
                          setTo(null);
                          setRestoringTo(e);
                        }}
                      >
                        Restore to…
                      </Button>
                    )}{' '}
                    {isAdmin && (
                      <Button
                        size="sm"
                        variant="danger"
                        aria-describedby={`trash-${e.id}`}
                        onPress={() => setPurging(e)}
                      >
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
          description={`Choose the ${isInLibrary(restoringTo.path) ? 'folder' : 'site, section or folder'} it goes into.`}
          submitLabel="Restore here"
          isPending={restore.isPending}
          error={restore.error ?? undefined}
          isSubmitDisabled={to === null}
          onSubmit={() => to !== null && restoreEntry(restoringTo, to)}
        >
          <ContainerPicker
            label="Restore into"
            realm={isInLibrary(restoringTo.path) ? 'library' : 'sites'}
            keep={(item) => isContainer(item.kind)}
            selectedPath={to}
            onSelect={(item) => setTo(item.path)}
            initiallyExpanded={restoringTo.from || undefined}
            autoFocus
          />
          <p className="field__description" role="status">
            {to === null
              ? `It was in “${restoringTo.from}”. Choose a place with the arrow keys and Enter.`
              : `“${restoringTo.title}” goes into “${to}”.`}
          </p>
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
                focusAfterRemoving(purging);
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
