import type { AssetMetadata } from '../../../../shared/api/assets';
import { roleAtLeast, type Me } from '../../../../shared/api/auth';
import type { TransitionName, WorkflowState } from '../../../../shared/api/workflow';
import { RejectionNotice } from '../../../kit/workflow/rejection-notice';
import type { ScheduleChange } from '../../../kit/workflow/schedule';
import { ScheduleControl } from '../../../kit/workflow/schedule-control';
import { TransitionButtons } from '../../../kit/workflow/transition-buttons';
import { WorkflowStatus } from '../../../kit/workflow/workflow-status';
import { useAssetTransitions } from '../api/get-asset-transitions';

/**
 * The asset panel's Workflow section: the state and checkout, why it was rejected, the transitions the user may
 * take now and Schedule…. Each is saved by the editor with the unsaved edits, in the same request.
 */
export function AssetWorkflow({
  path,
  asset,
  user,
  canWrite,
  saving,
  isDirty,
  itemLabel,
  onTransition,
  onSaveSchedule,
}: {
  path: string;
  asset: AssetMetadata;
  user: Pick<Me, 'username' | 'role'>;
  canWrite: boolean;
  /** What the editor is saving now, if anything. */
  saving: 'save' | 'schedule' | TransitionName | null;
  isDirty: boolean;
  itemLabel: string;
  /** A transition chosen: its name, the state it leads to, and a Reject's reason. */
  onTransition: (name: TransitionName, to: WorkflowState, comment?: string) => void;
  onSaveSchedule: (schedule: ScheduleChange) => Promise<boolean>;
}) {
  const transitions = useAssetTransitions(path, { enabled: canWrite });
  return (
    <section className="asset-section" aria-label="Workflow">
      <WorkflowStatus workflow={asset.workflow} currentUser={user.username} />
      <RejectionNotice rejection={asset.workflow.rejection} />
      {canWrite && transitions.data && (
        <TransitionButtons
          transitions={transitions.data.transitions}
          onTransition={(name, comment) => {
            const to = transitions.data?.transitions.find((t) => t.name === name)?.to;
            if (to) onTransition(name, to, comment);
          }}
          pending={saving && saving !== 'save' && saving !== 'schedule' ? saving : null}
          isDisabled={saving === 'save' || saving === 'schedule'}
          wording={{ publish: true }}
          label={`Workflow of ${asset.name}`}
        />
      )}
      <ScheduleControl
        workflow={asset.workflow}
        canSchedule={canWrite && roleAtLeast(user.role, 'Editor')}
        isDisabled={saving !== null}
        itemLabel={itemLabel}
        note={isDirty ? 'Your unsaved changes are saved with it.' : undefined}
        onSave={onSaveSchedule}
      />
    </section>
  );
}
