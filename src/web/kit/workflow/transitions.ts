import type { TransitionName, WorkflowState } from '../../../shared/api/workflow';

/** How an item's UI words its transitions: pages and assets say "Approve"; `publish` says "Publish". */
export interface TransitionWording {
  publish?: boolean;
}

const LABEL: Record<TransitionName, string> = {
  Submit: 'Submit for review',
  Approve: 'Approve',
  Reject: 'Reject',
  Edit: 'Quick edit',
  Archive: 'Archive',
  Resubmit: 'Resubmit',
};

/** The button label of a transition: named for what it does ("Submit for review", "Approve" or "Publish"; "Quick edit", as Percussion calls reopening a live item, so it is never confused with the editor's own "Edit"). */
export function transitionLabel(name: TransitionName, wording: TransitionWording = {}): string {
  if (name === 'Approve' && wording.publish) return 'Publish';
  return LABEL[name];
}

/** One sentence on what a transition does, for a tooltip or a menu entry's description. */
export function transitionDescription(name: TransitionName, to: WorkflowState | string): string {
  switch (name) {
    case 'Submit':
      return `Sends it to an editor for review (${to}).`;
    case 'Approve':
      return `Makes it live (${to}).`;
    case 'Reject':
      return `Sends it back to its author (${to}).`;
    case 'Edit':
      return `Opens a live item for changes (${to}); it stays live until approved again.`;
    case 'Archive':
      return `Takes it off the site (${to}).`;
    case 'Resubmit':
      return `Starts a new round of work on it (${to}).`;
  }
}

/** Order the transitions appear in: the step forward first, going back last. */
const ORDER: readonly TransitionName[] = ['Approve', 'Submit', 'Resubmit', 'Edit', 'Reject', 'Archive'];

/** The transitions in the order buttons and menus show them. */
export function sortTransitions<T extends { name: TransitionName }>(transitions: readonly T[]): T[] {
  return [...transitions].sort((a, b) => ORDER.indexOf(a.name) - ORDER.indexOf(b.name));
}

/** What a transition did, for the confirmation ("Submitted for review"). */
export const TRANSITION_DONE: Record<TransitionName, string> = {
  Submit: 'Submitted for review',
  Approve: 'Approved',
  Reject: 'Rejected',
  Edit: 'Opened for editing',
  Archive: 'Archived',
  Resubmit: 'Resubmitted',
};
