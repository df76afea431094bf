import { useState } from 'react';
import { Button } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/dialog';
import { InlineAlert } from '../../components/ui/inline-alert';
import { formatDateTime } from '../../lib/format';
import type { ItemLease } from './use-item-lease';
import './presence.css';

/** Up to two initials of a user name ("alice" → "A", "anna.berg" → "AB"). */
export function initialsOf(name: string): string {
  const parts = name.split(/[\s._-]+/).filter(Boolean);
  const letters = parts.length > 1 ? parts[0]![0]! + parts[1]![0]! : (parts[0] ?? '?').slice(0, 1);
  return letters.toUpperCase();
}

/**
 * Who else has the item open now (initials, "<name> is editing"), and the lease: someone else's (look, or take
 * over with a warning) or the user's own taken over by someone (said at once). `what` names the item ("page").
 */
export function PresenceBar({ lease, what }: { lease: ItemLease; what: string }) {
  const [confirming, setConfirming] = useState(false);
  const others = lease.state?.present ?? [];
  const holder = lease.heldBy;
  return (
    <div className="presence">
      {others.length > 0 && (
        <ul className="presence__people" aria-label={`Who else has this ${what} open`}>
          {others.map((p) => (
            <li key={p.username} className="presence__person">
              <span
                className={p.editing ? 'presence__avatar presence__avatar--editing' : 'presence__avatar'}
                aria-hidden="true"
                title={p.username}
              >
                {initialsOf(p.username)}
              </span>
              <span className="presence__name">
                {p.editing ? `${p.username} is editing` : `${p.username} is viewing`}
              </span>
            </li>
          ))}
        </ul>
      )}
      {lease.takenOverBy ? (
        <InlineAlert title={`${lease.takenOverBy} took over this ${what}`}>
          You no longer have it checked out: your changes will not be saved while {lease.takenOverBy} edits it. Copy
          what you need, or take it back (they are told).{' '}
          <Button variant="quiet" onPress={() => setConfirming(true)}>
            Take it back
          </Button>
        </InlineAlert>
      ) : (
        holder && (
          <InlineAlert tone="info" title={`${holder.username} is editing since ${formatDateTime(holder.since)}`}>
            They have this {what} checked out, so you see it read-only. To change it, take it over.{' '}
            <Button variant="quiet" onPress={() => setConfirming(true)}>
              Take over…
            </Button>
          </InlineAlert>
        )
      )}
      <ConfirmDialog
        isOpen={confirming}
        onOpenChange={setConfirming}
        title={`Take over from ${holder?.username ?? 'them'}?`}
        confirmLabel="Take over"
        isPending={lease.takingOver}
        onConfirm={() => {
          void lease.takeOver().finally(() => setConfirming(false));
        }}
      >
        {holder?.username ?? 'They'} has this {what} checked out and may be in the middle of a change. If you take it
        over, they lose their check-out: their unsaved changes cannot be saved any more, and their editor tells them at
        once.
      </ConfirmDialog>
    </div>
  );
}
