import { z } from 'zod';
import type { Role } from './auth.js';

export const DEFAULT_WORKFLOW = 'Default Workflow';

export const WorkflowState = z.enum(['Draft', 'Review', 'Public', 'Quick Edit', 'Archive']);
export type WorkflowState = z.infer<typeof WorkflowState>;

export const TransitionName = z.enum(['Submit', 'Approve', 'Reject', 'Edit', 'Archive', 'Resubmit']);
export type TransitionName = z.infer<typeof TransitionName>;

export interface TransitionDef {
  name: TransitionName;
  from: readonly WorkflowState[];
  to: WorkflowState;
  /** The weakest role allowed to take it. */
  minRole: Role;
}

/** The Default Workflow. Contributors submit and resubmit; approving, rejecting and archiving need an Editor. */
export const TRANSITIONS: readonly TransitionDef[] = [
  { name: 'Submit', from: ['Draft'], to: 'Review', minRole: 'Contributor' },
  { name: 'Approve', from: ['Draft', 'Review', 'Quick Edit', 'Archive'], to: 'Public', minRole: 'Editor' },
  { name: 'Reject', from: ['Review'], to: 'Draft', minRole: 'Editor' },
  { name: 'Edit', from: ['Public'], to: 'Quick Edit', minRole: 'Contributor' },
  { name: 'Archive', from: ['Public', 'Quick Edit'], to: 'Archive', minRole: 'Editor' },
  { name: 'Resubmit', from: ['Quick Edit', 'Archive'], to: 'Draft', minRole: 'Contributor' },
];

/** Why an item was sent back to Draft, by whom and when; kept until it moves on. */
export const Rejection = z.object({
  reason: z.string(),
  by: z.string(),
  at: z.string().describe('ISO 8601 time of the rejection.'),
});
export type Rejection = z.infer<typeof Rejection>;

/** The longest reason or comment a transition takes. */
export const MAX_TRANSITION_COMMENT = 2000;

/** `workflow.comment` of a PUT: the reason of a Reject (required there), ignored by other transitions. */
export const TransitionComment = z
  .string()
  .max(MAX_TRANSITION_COMMENT)
  .describe('Why: required (not blank) when the write rejects the item; stored trimmed; ignored otherwise.');

/**
 * `workflow.publishAt` / `workflow.unpublishAt` of a PUT: an ISO 8601 date-time with its time zone (`Z` or an
 * offset); null clears it. Stored and answered in UTC.
 */
export const ScheduleTime = z.iso
  .datetime({ offset: true, error: 'must be an ISO 8601 date-time with a time zone, e.g. 2026-05-01T09:00:00Z' })
  .nullable();

/** What a PUT's `workflow` may schedule (pages and assets alike). */
export const WorkflowSchedule = {
  publishAt: ScheduleTime.describe(
    'When the item is approved (becomes Public) by the scheduler; null clears it. Needs the Editor role; a past ' +
      'time acts at once. Cleared when the item is approved.',
  ).optional(),
  unpublishAt: ScheduleTime.describe(
    'When the item is archived by the scheduler (if it is Public or in Quick Edit then); null clears it. Needs ' +
      'the Editor role; must be after publishAt. Cleared when the item is archived.',
  ).optional(),
};

/** Who the scheduler's moves are made by (`by` of their events, `lastModifiedBy`): no user can have this name. */
export const SCHEDULER_USERNAME = '(scheduler)';

/** The workflow object of pages and assets (2.2). */
export const WorkflowInfo = z.object({
  name: z.string(),
  state: z.string(),
  checkedOut: z.boolean(),
  checkedOutUser: z.string(),
  /** Set while the item is back in Draft after a Reject. */
  rejection: Rejection.nullable().optional(),
  /** Set while the item is scheduled to be approved then (ISO 8601, UTC). */
  publishAt: z.string().optional().describe('When the scheduler approves the item (ISO 8601, UTC); absent if never.'),
  /** Set while the item is scheduled to be archived then (ISO 8601, UTC). */
  unpublishAt: z.string().optional().describe('When the scheduler archives the item (ISO 8601, UTC); absent if never.'),
});
export type WorkflowInfo = z.infer<typeof WorkflowInfo>;

/** `GET …/transitions/<path>`: what the caller may do now. */
export const TransitionsResponse = z.object({
  state: z.string(),
  transitions: z.array(z.object({ name: TransitionName, to: WorkflowState })),
});
export type TransitionsResponse = z.infer<typeof TransitionsResponse>;
