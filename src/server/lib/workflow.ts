import { roleAtLeast } from '../../shared/api/auth.js';
import {
  TRANSITIONS,
  type Rejection,
  type TransitionDef,
  type TransitionName,
  type TransitionsResponse,
  type WorkflowState,
} from '../../shared/api/workflow.js';
import type { Actor } from './context.js';
import { badRequest, conflict } from './errors.js';

/** Transitions the actor may take from `state`. */
export function availableTransitions(state: string, actor: Actor): TransitionDef[] {
  return TRANSITIONS.filter((t) => t.from.includes(state as WorkflowState) && roleAtLeast(actor.role, t.minRole));
}

/**
 * The shortest walk of transitions, each allowed to the actor, from `from` to `to` (empty when equal).
 * Throws 409 INVALID_TRANSITION naming the reachable states when there is none.
 */
export function planTransitions(from: string, to: string, actor: Actor): TransitionDef[] {
  if (from === to) return [];
  // Breadth-first over states; `prev` remembers how each state was first reached.
  const prev = new Map<string, { via: TransitionDef; from: string }>();
  const queue = [from];
  const seen = new Set([from]);
  while (queue.length) {
    const s = queue.shift()!;
    for (const t of availableTransitions(s, actor)) {
      if (seen.has(t.to)) continue;
      seen.add(t.to);
      prev.set(t.to, { via: t, from: s });
      queue.push(t.to);
    }
  }
  if (!prev.has(to)) {
    const allowedStates = [...seen].filter((s) => s !== from);
    throw conflict(
      'INVALID_TRANSITION',
      `Cannot move from ${from} to ${to}` +
        (allowedStates.length
          ? `; reachable states: ${allowedStates.join(', ')}.`
          : '; no state is reachable for you.'),
      { currentState: from, allowedStates },
    );
  }
  const path: TransitionDef[] = [];
  for (let s = to; s !== from;) {
    const step = prev.get(s)!;
    path.unshift(step.via);
    s = step.from;
  }
  return path;
}

/** Applies a named transition; throws 409 when it does not apply to `state` or the actor may not take it. */
export function applyTransition(state: string, name: TransitionName, actor: Actor): WorkflowState {
  const t = availableTransitions(state, actor).find((x) => x.name === name);
  if (!t) {
    throw conflict('INVALID_TRANSITION', `${name} is not available from ${state}.`, {
      currentState: state,
      allowedStates: availableTransitions(state, actor).map((x) => x.to),
    });
  }
  return t.to;
}

/** The workflow columns pages and assets share. */
export interface WorkflowColumns {
  workflow_state: string;
  checked_out: number;
  checked_out_user: string;
  /** JSON `Rejection` of the last Reject while the item has not moved on; absent on rows made without it. */
  rejection?: string | null;
}

/**
 * The workflow of a page or asset after a write: changing the content of a Public item takes the Edit transition
 * (to Quick Edit) first; `target` is then reached by the shortest walk of transitions the actor may take (409
 * otherwise). Check-out is a lease (modules/leases/lease-records.ts): the check-out columns mirror it and stay as they are,
 * except that the spec's `change.checkedOut` takes (the actor) or ends it — the write then writes the lease row
 * too (writeLeaseOfWrite). A walk that ends with Reject needs a reason (`comment`, 400 when blank) and
 * stores it with who and when; any other move clears it (the item has moved on); `rejection` is returned only when
 * it changes.
 */
export function workflowAfterWrite(
  current: WorkflowColumns,
  change: { contentChanged: boolean; target?: string; checkedOut?: boolean; comment?: string; now?: string },
  actor: Actor,
): WorkflowColumns {
  let state = current.workflow_state;
  let moved = false;
  let rejected = false;
  if (change.contentChanged && state === 'Public') {
    state = applyTransition(state, 'Edit', actor);
    moved = true;
  }
  if (change.target !== undefined) {
    for (const t of planTransitions(state, change.target, actor)) {
      state = t.to;
      moved = true;
      rejected = t.name === 'Reject';
    }
  }
  let rejection = current.rejection ?? null;
  if (rejected) {
    const reason = change.comment?.trim() ?? '';
    if (!reason) {
      throw badRequest('Say why it is rejected: workflow.comment is required when rejecting.', [
        { path: 'workflow.comment', message: 'is required when rejecting (not blank)' },
      ]);
    }
    rejection = JSON.stringify({ reason, by: actor.username, at: change.now ?? new Date().toISOString() });
  } else if (moved) {
    rejection = null;
  }
  return {
    workflow_state: state,
    ...(change.checkedOut === undefined
      ? { checked_out: current.checked_out, checked_out_user: current.checked_out_user }
      : { checked_out: change.checkedOut ? 1 : 0, checked_out_user: change.checkedOut ? actor.username : '' }),
    ...(rejection !== (current.rejection ?? null) ? { rejection } : {}),
  };
}

/** An item's state and the transitions the actor may take from it now (none without write access). */
export function transitionsOf(state: string, actor: Actor, canWrite: boolean): TransitionsResponse {
  return {
    state: state as WorkflowState,
    transitions: canWrite ? availableTransitions(state, actor).map((t) => ({ name: t.name, to: t.to })) : [],
  };
}

/** The stored `rejection` column of a page or asset, as its workflow object shows it. */
export function rejectionOf(stored: string | null | undefined): Rejection | null {
  return stored ? (JSON.parse(stored) as Rejection) : null;
}
