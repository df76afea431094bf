import { roleAtLeast } from '../../shared/api/auth.js';
import { TRANSITIONS, type TransitionDef, type TransitionName, type WorkflowState } from '../../shared/api/workflow.js';
import type { Actor } from './context.js';
import { conflict } from './errors.js';

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
