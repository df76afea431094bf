import { useEffect, useId, useState, type ReactNode } from 'react';
import type { RevisionSummary } from '../../../shared/api/revisions';
import { Button } from '../../components/ui/button';
import { Select } from '../../components/ui/select';
import { ErrorState, LoadingState } from '../../components/ui/status';
import { WorkflowBadge } from '../../components/ui/workflow-badge';
import { formatDateTime } from '../../lib/format';
import type { VersionRef } from '../../lib/query-keys';
import { CompareDialog, RestoreDialog, ViewDialog } from './version-dialogs';
import { useRevisions, type ComparePair, type HistorySource } from './use-revisions';
import './history.css';

/** The live version is not the latest revision: says so, with a link to compare the two. */
export function LiveDiffers({ onCompare }: { onCompare: () => void }) {
  return (
    <span className="history__live-differs">
      <span className="badge history__live-badge">Live version differs</span>
      <Button variant="quiet" size="sm" onPress={onCompare}>
        Compare live with current
      </Button>
    </span>
  );
}

/**
 * The History panel of a page or an asset: its revisions newest first (who, when, state, which is live), a
 * revision opened read-only, a comparison of any two, and Restore behind a confirmation that shows what will
 * change. `request` opens a comparison from outside (the live badge). Without `onRestore` the user may not
 * restore; `restoreBlocked` says why Restore waits (unsaved changes).
 */
export function HistoryPanel<T>({
  source,
  onRestore,
  restoreBlocked,
  request,
  onRequestShown,
  headingLevel: Heading = 'h2',
}: {
  source: HistorySource<T>;
  /** The panel's heading: h3 inside a panel whose sections are h3. */
  headingLevel?: 'h2' | 'h3';
  /** Restores a revision; resolves once the editor shows it (rejects with the failure, shown in the dialog). */
  onRestore?: (revision: number) => Promise<unknown>;
  restoreBlocked?: string | null;
  request?: ComparePair | null;
  onRequestShown?: () => void;
}) {
  const headingId = useId();
  const { list, items, latest, liveRevision, liveDiffers } = useRevisions(
    source.kind,
    source.path,
    source.versionOptions,
  );
  const [viewing, setViewing] = useState<number | null>(null);
  const [comparing, setComparing] = useState<ComparePair | null>(null);
  const [restoring, setRestoring] = useState<number | null>(null);
  const [picked, setPicked] = useState<{ before: string | null; after: string | null }>({ before: null, after: null });

  useEffect(() => {
    if (!request) return;
    setComparing(request);
    onRequestShown?.();
  }, [request, onRequestShown]);

  const labelOf = (v: VersionRef) =>
    v === 'live'
      ? liveRevision
        ? `Live version (revision ${liveRevision})`
        : 'Live version'
      : v === latest?.revision
        ? `Revision ${v} (current)`
        : `Revision ${v}`;
  /** Who saved a version, when and its state, when the list read so far holds it. */
  const summaryOf = (v: VersionRef) => items.find((i) => i.revision === (v === 'live' ? liveRevision : v));
  const options = items.map((i) => ({ id: String(i.revision), label: labelOf(i.revision) }));
  const before = picked.before ?? (items[1] ? String(items[1].revision) : null);
  const after = picked.after ?? (latest ? String(latest.revision) : null);
  const openRestore = onRestore && !restoreBlocked ? setRestoring : undefined;

  let body: ReactNode;
  if (list.isPending) body = <LoadingState label="Loading the history…" />;
  else if (list.isError)
    body = (
      <ErrorState
        title="Could not load the history"
        error={list.error}
        onRetry={() => void list.refetch()}
        isRetrying={list.isFetching}
      />
    );
  else if (items.length === 0)
    body = <p className="history__note">No revisions yet: the next save starts the history.</p>;
  else
    body = (
      <>
        {items.length > 1 && (
          <div className="history__compare" role="group" aria-label="Compare two revisions">
            <Select
              label="Compare"
              options={options}
              value={before}
              onChange={(v) => setPicked((p) => ({ ...p, before: v }))}
            />
            <Select
              label="with"
              options={options}
              value={after}
              onChange={(v) => setPicked((p) => ({ ...p, after: v }))}
            />
            <Button
              isDisabled={!before || !after || before === after}
              onPress={() => {
                const [a, b] = [Number(before), Number(after)].sort((x, y) => x - y);
                setComparing({ before: a!, after: b! });
              }}
            >
              Compare
            </Button>
          </div>
        )}
        <table className="history__table">
          <caption className="visually-hidden">Revisions of {source.itemLabel}, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Revision</th>
              <th scope="col">Saved</th>
              <th scope="col">By</th>
              <th scope="col">State</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {items.map((item) => (
              <RevisionRow
                key={item.revision}
                item={item}
                isCurrent={item.revision === latest?.revision}
                onView={() => setViewing(item.revision)}
                onRestore={openRestore && (() => openRestore(item.revision))}
              />
            ))}
          </tbody>
        </table>
        {list.hasNextPage && (
          <Button variant="quiet" onPress={() => void list.fetchNextPage()} isPending={list.isFetchingNextPage}>
            Load older revisions
          </Button>
        )}
      </>
    );

  return (
    <section className="history" aria-labelledby={headingId}>
      <div className="history__head">
        <Heading id={headingId} className="history__title">
          History
        </Heading>
        {liveDiffers && latest && (
          <LiveDiffers onCompare={() => setComparing({ before: 'live', after: latest.revision })} />
        )}
      </div>
      {onRestore && restoreBlocked && <p className="history__note">{restoreBlocked}</p>}
      {body}
      {viewing !== null && (
        <ViewDialog
          source={source}
          revision={viewing}
          summary={summaryOf(viewing)}
          isCurrent={viewing === latest?.revision}
          onClose={() => setViewing(null)}
          onCompare={
            latest && viewing !== latest.revision
              ? () => {
                  setViewing(null);
                  setComparing({ before: viewing, after: latest.revision });
                }
              : undefined
          }
          onRestore={
            openRestore && viewing !== latest?.revision
              ? () => {
                  setViewing(null);
                  openRestore(viewing);
                }
              : undefined
          }
        />
      )}
      {comparing && (
        <CompareDialog
          source={source}
          pair={comparing}
          labelOf={labelOf}
          summaryOf={summaryOf}
          onClose={() => setComparing(null)}
        />
      )}
      {restoring !== null && latest && onRestore && (
        <RestoreDialog
          source={source}
          revision={restoring}
          current={latest}
          onRestore={onRestore}
          onClose={() => setRestoring(null)}
        />
      )}
    </section>
  );
}

function RevisionRow({
  item,
  isCurrent,
  onView,
  onRestore,
}: {
  item: RevisionSummary;
  isCurrent: boolean;
  onView: () => void;
  onRestore?: () => void;
}) {
  return (
    <tr className={isCurrent ? 'history__row history__row--current' : 'history__row'}>
      <th scope="row">
        {item.revision}
        {isCurrent && <span className="history__note"> (current)</span>}
      </th>
      <td>{formatDateTime(item.savedAt)}</td>
      <td>{item.savedBy ?? 'Unknown'}</td>
      <td>
        <span className="history__state">
          <WorkflowBadge state={item.state} />
          {item.live && <span className="badge history__live">Live</span>}
        </span>
      </td>
      <td className="history__actions">
        <Button size="sm" variant="quiet" onPress={onView} aria-label={`View revision ${item.revision}`}>
          View
        </Button>
        {onRestore && !isCurrent && (
          <Button size="sm" variant="quiet" onPress={onRestore} aria-label={`Restore revision ${item.revision}…`}>
            Restore…
          </Button>
        )}
      </td>
    </tr>
  );
}
