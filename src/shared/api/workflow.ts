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

/** The workflow object of pages and assets (2.2). */
export const WorkflowInfo = z.object({
  name: z.string(),
  state: z.string(),
  checkedOut: z.boolean(),
  checkedOutUser: z.string(),
});
export type WorkflowInfo = z.infer<typeof WorkflowInfo>;

/** `GET …/transitions/<path>`: what the caller may do now. */
export const TransitionsResponse = z.object({
  state: z.string(),
  transitions: z.array(z.object({ name: TransitionName, to: WorkflowState })),
});
export type TransitionsResponse = z.infer<typeof TransitionsResponse>;
