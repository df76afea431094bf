import type { Rejection } from '../../../shared/api/workflow';
import { InlineAlert } from '../../components/ui/inline-alert';
import { formatDate } from '../../lib/format';

/** Why the item was sent back to Draft, while it has not moved on: "Rejected by <who> on <date>: <reason>". */
export function RejectionNotice({ rejection }: { rejection?: Rejection | null }) {
  if (!rejection) return null;
  return (
    <InlineAlert tone="info">
      <p className="rejection-notice">
        Rejected by {rejection.by} on {formatDate(rejection.at)}: {rejection.reason}
      </p>
    </InlineAlert>
  );
}
