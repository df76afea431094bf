import { useEffect, useState } from 'react';
import type { ChangeEvent } from '../../../../shared/api/events';
import { SCHEDULER_USERNAME } from '../../../../shared/api/workflow';
import { Button } from '../../../components/ui/button';
import { InlineAlert } from '../../../components/ui/inline-alert';
import { formatDateTime } from '../../../lib/format';
import { useChangeEvents } from '../../../lib/live-events';

/**
 * The last save of the open page made by someone else (a live event) since the editor's version `baseEtag`:
 * null until one comes, and again once the editor holds a newer version (a reload, its own save). A move of the
 * scheduler changes only the workflow: `followWorkflow` takes it in (answering true), so it needs no banner.
 */
export function useSavedElsewhere(
  pageId: string,
  user: string,
  baseEtag: string | null,
  followWorkflow: () => Promise<boolean>,
) {
  const [event, setEvent] = useState<ChangeEvent | null>(null);
  useEffect(() => setEvent(null), [baseEtag]);
  useChangeEvents((e) => {
    // A lease change (someone took or left the check-out) is no save.
    if (e.kind !== 'page' || e.itemId !== pageId || e.deleted || e.lease) return;
    // One's own saves (in this tab or another) answer their ETag to the tab that made them.
    if (e.by === user || (e.etag !== null && e.etag === baseEtag)) return;
    if (e.by === SCHEDULER_USERNAME) {
      // Unless someone else changed the content as well (then it is their save to look at first).
      void followWorkflow().then(
        (followed) => followed || setEvent(e),
        () => setEvent(e),
      );
      return;
    }
    setEvent(e);
  });
  return { event, dismiss: () => setEvent(null) };
}

/** "Saved by <name> at <time>": the page changed elsewhere; see the changes (and reload) before saving over them. */
export function SavedElsewhereBanner({
  event,
  onSeeChanges,
  onDismiss,
}: {
  event: ChangeEvent;
  onSeeChanges: () => void;
  onDismiss: () => void;
}) {
  return (
    <div className="page-editor__elsewhere">
      <InlineAlert tone="info" title={`Saved by ${event.by ?? 'someone else'} at ${formatDateTime(event.at)}`}>
        <p>This page changed since you opened it. Your save would be refused until you look at their version.</p>
        <div className="page-editor__elsewhere-actions">
          <Button variant="primary" size="sm" onPress={onSeeChanges}>
            See the changes
          </Button>
          <Button size="sm" onPress={onDismiss}>
            Dismiss
          </Button>
        </div>
      </InlineAlert>
    </div>
  );
}
