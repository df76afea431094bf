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

/** The workflow object of pages and assets (2.2). */
export const WorkflowInfo = z.object({
  name: z.string(),
  state: z.string(),
  checkedOut: z.boolean(),
  checkedOutUser: z.string(),
  /** Set while the item is back in Draft after a Reject. */
  rejection: Rejection.nullable().optional(),
});
export type WorkflowInfo = z.infer<typeof WorkflowInfo>;

/** `GET …/transitions/<path>`: what the caller may do now. */
export const TransitionsResponse = z.object({
  state: z.string(),
  transitions: z.array(z.object({ name: TransitionName, to: WorkflowState })),
});
export type TransitionsResponse = z.infer<typeof TransitionsResponse>;
