import { Button } from '../../components/ui/button';
import { Modal } from '../../components/ui/dialog';
import { InlineAlert } from '../../components/ui/inline-alert';
import { formatDateTime } from '../../lib/format';
import type { Draft } from './draft-store';

/** "3 minutes ago", "yesterday": when a draft was made, for people. */
export function relativeTime(at: number, now = Date.now()): string {
  const seconds = Math.round((now - at) / 1000);
  if (seconds < 45) return 'just now';
  const rtf = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return rtf.format(-minutes, 'minute');
  const hours = Math.round(minutes / 60);
  if (hours < 24) return rtf.format(-hours, 'hour');
  return rtf.format(-Math.round(hours / 24), 'day');
}

/**
 * Offers back unsaved edits found when an item opens: when they were made and whether the server copy changed
 * since (its ETag is no longer the one the edits started from). Restoring puts them back over the version they
 * were made on, so a save of a changed item meets the conflict dialog, never a silent overwrite.
 */
export function DraftRestoreDialog({
  draft,
  currentEtag,
  itemLabel,
  changeCount,
  onRestore,
  onDiscard,
}: {
  draft: Draft<unknown>;
  /** ETag of the server version now. */
  currentEtag: string | null;
  /** What the edits are of: "the page “Welcome”". */
  itemLabel: string;
  /** How many changes the draft holds, when the editor can tell. */
  changeCount?: number;
  onRestore: () => void;
  onDiscard: () => void;
}) {
  const changedSince = draft.baseEtag !== currentEtag;
  const when = new Date(draft.savedAt).toISOString();
  return (
    <Modal
      isOpen
      onOpenChange={() => undefined}
      isBusy
      size="md"
      title="Restore your unsaved changes?"
      description={
        <>
          You made changes to {itemLabel} that were not saved <time dateTime={when}>{relativeTime(draft.savedAt)}</time>{' '}
          ({formatDateTime(when)})
          {changeCount !== undefined && (
            <>
              {' '}
              — {changeCount} {changeCount === 1 ? 'change' : 'changes'}
            </>
          )}
          .
        </>
      }
      footer={
        <>
          <Button variant="quiet" onPress={onDiscard}>
            Discard them
          </Button>
          <Button variant="primary" onPress={onRestore} autoFocus>
            Restore my changes
          </Button>
        </>
      }
    >
      {changedSince ? (
        <InlineAlert tone="info" title="The server copy changed since">
          Someone saved {itemLabel} after you made these changes. If you restore them, saving shows what the other save
          changed, and you choose whose version to keep.
        </InlineAlert>
      ) : (
        <p className="saving__note">The server copy has not changed since: restoring picks up where you left off.</p>
      )}
    </Modal>
  );
}
