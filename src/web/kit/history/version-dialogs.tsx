import { useQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import type { RevisionSummary } from '../../../shared/api/revisions';
import { Button } from '../../components/ui/button';
import { Modal } from '../../components/ui/dialog';
import { InlineAlert } from '../../components/ui/inline-alert';
import { ErrorState, LoadingState } from '../../components/ui/status';
import { errorMessage, errorTitle } from '../../lib/errors';
import { formatDateTime } from '../../lib/format';
import type { VersionRef } from '../../lib/query-keys';
import { Comparison } from './comparison';
import type { ComparePair, HistorySource } from './use-revisions';

const savedLine = (s: RevisionSummary | undefined) =>
  s
    ? `Saved by ${s.savedBy ?? 'someone unknown'} at ${formatDateTime(s.savedAt)} · ${s.state}${s.live ? ' · live' : ''}`
    : '';

/** A version being read: loading, failed, or given to `children`. */
function Loaded<T>({
  versions,
  children,
}: {
  versions: readonly ReturnType<typeof useQuery<{ data: T }>>[];
  children: (data: T[]) => ReactNode;
}) {
  const failed = versions.find((v) => v.isError);
  if (failed) return <ErrorState title="Could not read this version" error={failed.error} />;
  if (versions.some((v) => v.isPending)) return <LoadingState label="Reading the version…" />;
  return <>{children(versions.map((v) => v.data!.data))}</>;
}

/** One revision, read-only, with a way to compare it with the current one or to restore it. */
export function ViewDialog<T>({
  source,
  revision,
  summary,
  isCurrent,
  onClose,
  onCompare,
  onRestore,
}: {
  source: HistorySource<T>;
  revision: number;
  summary?: RevisionSummary;
  isCurrent: boolean;
  onClose: () => void;
  onCompare?: () => void;
  onRestore?: () => void;
}) {
  const version = useQuery(source.versionOptions(revision));
  return (
    <Modal
      isOpen
      onOpenChange={(open) => !open && onClose()}
      size="xl"
      title={`Revision ${revision}${isCurrent ? ' (current)' : ''} · read-only`}
      description={savedLine(summary)}
      footer={
        <>
          {onCompare && <Button onPress={onCompare}>Compare with current</Button>}
          {onRestore && <Button onPress={onRestore}>Restore this revision…</Button>}
          <Button variant="primary" onPress={onClose} autoFocus>
            Close
          </Button>
        </>
      }
    >
      <div className="history__version">
        <Loaded versions={[version]}>{([v]) => source.render(v!)}</Loaded>
      </div>
    </Modal>
  );
}

/** Two versions side by side: the earlier's dropped words struck through, the later's new words marked. */
export function CompareDialog<T>({
  source,
  pair,
  labelOf,
  summaryOf,
  onClose,
}: {
  source: HistorySource<T>;
  pair: ComparePair;
  labelOf: (v: VersionRef) => string;
  /** Who saved a version, when, and its state (undefined: not in the list read so far). */
  summaryOf: (v: VersionRef) => RevisionSummary | undefined;
  onClose: () => void;
}) {
  const before = useQuery(source.versionOptions(pair.before));
  const after = useQuery(source.versionOptions(pair.after));
  const sides = [pair.before, pair.after].map((v) => ({ v, summary: summaryOf(v) }));
  const [b, a] = sides.map((s) => s.summary);
  return (
    <Modal
      isOpen
      onOpenChange={(open) => !open && onClose()}
      size="xl"
      title={`${labelOf(pair.before)} compared with ${labelOf(pair.after)}`}
      description={
        <>
          What changed from the left to the right: words that went are{' '}
          <del className="diff-text__removed">struck through</del>, words that came are{' '}
          <ins className="diff-text__added">marked</ins>.
        </>
      }
      footer={
        <Button variant="primary" onPress={onClose} autoFocus>
          Close
        </Button>
      }
    >
      <dl className="history__sides">
        {sides.map(({ v, summary }) => (
          <div key={String(v)}>
            <dt>{labelOf(v)}</dt>
            <dd>{summary ? savedLine(summary) : 'Older than the revisions listed'}</dd>
          </div>
        ))}
      </dl>
      <Loaded versions={[before, after]}>
        {([bv, av]) => (
          <Comparison
            rows={source.compare(bv!, av!)}
            beforeLabel={labelOf(pair.before)}
            afterLabel={labelOf(pair.after)}
            states={b && a ? { before: b.state, after: a.state } : undefined}
          />
        )}
      </Loaded>
    </Modal>
  );
}

/**
 * Asks before a restore, showing what it will change (the current version against the one restored). The
 * restore is a new revision: nothing is lost. A failure stays in the dialog.
 */
export function RestoreDialog<T>({
  source,
  revision,
  current,
  onRestore,
  onClose,
}: {
  source: HistorySource<T>;
  revision: number;
  current: RevisionSummary;
  onRestore: (revision: number) => Promise<unknown>;
  onClose: () => void;
}) {
  const now = useQuery(source.versionOptions(current.revision));
  const target = useQuery(source.versionOptions(revision));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const rows = now.data && target.data ? source.compare(now.data.data, target.data.data) : null;
  const restore = async () => {
    setBusy(true);
    setError(null);
    try {
      await onRestore(revision);
      onClose();
    } catch (e) {
      setError(e);
      setBusy(false);
    }
  };
  return (
    <Modal
      isOpen
      onOpenChange={(open) => !open && onClose()}
      isBusy={busy}
      size="xl"
      title={`Restore revision ${revision}?`}
      description={
        <>
          {source.itemLabel.charAt(0).toUpperCase() + source.itemLabel.slice(1)} becomes as it was at revision{' '}
          {revision}, saved as a new revision ({current.revision + 1}); revision {current.revision} stays in the
          history.
          {current.state === 'Public' &&
            ' It leaves Public for Quick Edit: the live version stays until approved.'}{' '}
          {rows && rows.length > 0
            ? `${rows.length === 1 ? 'One thing changes' : `${rows.length} things change`}:`
            : ''}
        </>
      }
      footer={
        <>
          <Button variant="quiet" onPress={onClose} isDisabled={busy}>
            Cancel
          </Button>
          <Button variant="primary" onPress={() => void restore()} isPending={busy} isDisabled={!rows} autoFocus>
            Restore revision {revision}
          </Button>
        </>
      }
    >
      <Loaded versions={[now, target]}>
        {() => (
          <Comparison
            rows={rows ?? []}
            beforeLabel={`Now (revision ${current.revision})`}
            afterLabel={`After the restore (revision ${revision})`}
          />
        )}
      </Loaded>
      {error !== null && <InlineAlert title={errorTitle(error)}>{errorMessage(error)}</InlineAlert>}
    </Modal>
  );
}
