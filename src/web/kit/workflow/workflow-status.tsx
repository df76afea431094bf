import type { WorkflowInfo } from '../../../shared/api/workflow';
import { LockIcon } from '../../components/ui/icons';
import { WorkflowBadge } from '../../components/ui/workflow-badge';
import './workflow.css';

/** Who has the item checked out, in words ("Checked out by you", "… by alice"); null when nobody has. */
export function checkoutLine(workflow: WorkflowInfo, currentUser?: string): string | null {
  if (!workflow.checkedOut) return null;
  if (!workflow.checkedOutUser) return 'Checked out';
  return workflow.checkedOutUser === currentUser ? 'Checked out by you' : `Checked out by ${workflow.checkedOutUser}`;
}

/**
 * The lock of a listed page or asset someone has checked out (holds its lease): a lock and their name, read as
 * "Checked out by <name>". Listings refresh it from live events.
 */
export function CheckedOutMark({ user }: { user: string }) {
  return (
    <span className="workflow-status__checkout workflow-status__checkout--other" title={`Checked out by ${user}`}>
      <LockIcon aria-hidden="true" />
      <span className="visually-hidden">Checked out by </span>
      {user}
    </span>
  );
}

/**
 * An item's workflow state as a badge, and the checkout line beside it. Someone else's checkout stands out: they
 * are working on it (saving still works as the server allows; If-Match keeps either from overwriting the other).
 */
export function WorkflowStatus({
  workflow,
  currentUser,
  className,
}: {
  workflow: WorkflowInfo;
  currentUser?: string;
  className?: string;
}) {
  const line = checkoutLine(workflow, currentUser);
  const someoneElse = workflow.checkedOut && workflow.checkedOutUser !== '' && workflow.checkedOutUser !== currentUser;
  return (
    <p className={['workflow-status', className ?? ''].filter(Boolean).join(' ')}>
      <span className="visually-hidden">Workflow state: </span>
      <WorkflowBadge state={workflow.state} />
      {line && (
        <span
          className={
            someoneElse ? 'workflow-status__checkout workflow-status__checkout--other' : 'workflow-status__checkout'
          }
        >
          <LockIcon aria-hidden="true" /> {line}
        </span>
      )}
    </p>
  );
}
