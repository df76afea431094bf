import type { Selection } from 'react-aria-components';
import type { Role } from '../../../../shared/api/auth';
import { roleAtLeast } from '../../../../shared/api/auth';
import { Button } from '../../../components/ui/button';
import { CloseIcon, MoveIcon, TrashIcon } from '../../../components/ui/icons';
import type { BulkKind } from './bulk-dialog';

/**
 * What can be done with the selected assets together: publish (Editors; Contributors submit for review), move,
 * delete; and clearing the selection (Escape does too).
 */
export function BulkBar({
  selection,
  total,
  role,
  onAction,
  onClear,
}: {
  selection: Selection;
  /** How many assets the listing matches (what "all" stands for). */
  total: number | undefined;
  role: Role;
  onAction: (kind: BulkKind) => void;
  onClear: () => void;
}) {
  const size = selection === 'all' ? (total ?? 0) : selection.size;
  if (size === 0) return null;
  const canPublish = roleAtLeast(role, 'Editor');
  return (
    <div className="bulk-bar" role="toolbar" aria-label="Selected assets">
      <p className="bulk-bar__count" aria-live="polite">
        {selection === 'all' ? `All ${size.toLocaleString()} selected` : `${size.toLocaleString()} selected`}
      </p>
      {canPublish ? (
        <Button size="sm" variant="primary" onPress={() => onAction('publish')}>
          Publish
        </Button>
      ) : (
        <Button size="sm" variant="primary" onPress={() => onAction('submit')}>
          Submit for review
        </Button>
      )}
      <Button size="sm" onPress={() => onAction('move')}>
        <MoveIcon /> Move to…
      </Button>
      <Button size="sm" variant="danger" onPress={() => onAction('delete')}>
        <TrashIcon /> Delete…
      </Button>
      <Button size="sm" variant="quiet" onPress={onClear}>
        <CloseIcon /> Clear selection
      </Button>
    </div>
  );
}
