import { roleAtLeast, type Role } from '../../shared/api/auth.js';
import {
  TRANSITIONS,
  type Rejection,
  type TransitionDef,
  type TransitionName,
  type TransitionsResponse,
  type WorkflowState,
} from '../../shared/api/workflow.js';
import type { Actor } from './context.js';
import { badRequest, conflict, forbidden } from './errors.js';

/** The weakest role that may schedule publishing: the one that may approve and archive. */
const SCHEDULE_ROLE: Role = 'Editor';

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
  /** When the scheduler approves / archives the item (ISO 8601 UTC, migration 0290); absent on rows made without. */
  publish_at?: string | null;
  unpublish_at?: string | null;
}

/** A PUT's `workflow.publishAt` / `unpublishAt`: a time with its zone, null to clear, undefined to keep. */
export interface ScheduleChange {
  publishAt?: string | null;
  unpublishAt?: string | null;
}

/** The stored form of a schedule time: UTC, as `toISOString()` writes it, so text order is time order. */
const storedTime = (t: string | null) => (t === null ? null : new Date(t).toISOString());

/**
 * The schedule after a write: what was sent (only an Editor or Admin may change it, as only they may approve and
 * archive; 403 otherwise), else what was stored, less what the write's own moves did (an approval ends
 * `publish_at`, an archival `unpublish_at`). 400 when the item would be archived before it is published.
 */
function scheduleAfterWrite(
  current: WorkflowColumns,
  change: ScheduleChange,
  moves: readonly TransitionDef[],
  actor: Actor,
): { publish_at: string | null; unpublish_at: string | null } {
  const before = { publish_at: current.publish_at ?? null, unpublish_at: current.unpublish_at ?? null };
  const sent = {
    publish_at: change.publishAt === undefined ? undefined : storedTime(change.publishAt),
    unpublish_at: change.unpublishAt === undefined ? undefined : storedTime(change.unpublishAt),
  };
  const changes = (['publish_at', 'unpublish_at'] as const).filter(
    (k) => sent[k] !== undefined && sent[k] !== before[k],
  );
  if (changes.length && !roleAtLeast(actor.role, SCHEDULE_ROLE)) {
    throw forbidden(`Scheduling publishing needs the ${SCHEDULE_ROLE} role or higher.`);
  }
  const after = {
    publish_at:
      sent.publish_at !== undefined ? sent.publish_at : moves.some((t) => t.to === 'Public') ? null : before.publish_at,
    unpublish_at:
      sent.unpublish_at !== undefined
        ? sent.unpublish_at
        : moves.some((t) => t.to === 'Archive')
          ? null
          : before.unpublish_at,
  };
  if (after.publish_at !== null && after.unpublish_at !== null && after.unpublish_at <= after.publish_at) {
    throw badRequest('The item would be archived before it is published: unpublishAt must be after publishAt.', [
      { path: 'workflow.unpublishAt', message: 'must be after publishAt' },
    ]);
  }
  return after;
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
  change: {
    contentChanged: boolean;
    target?: string;
    checkedOut?: boolean;
    comment?: string;
    now?: string;
    schedule?: ScheduleChange;
  },
  actor: Actor,
): WorkflowColumns {
  let state = current.workflow_state;
  let moved = false;
  let rejected = false;
  if (change.contentChanged && state === 'Public') {
    state = applyTransition(state, 'Edit', actor);
    moved = true;
  }
  const moves = change.target === undefined ? [] : planTransitions(state, change.target, actor);
  for (const t of moves) {
    state = t.to;
    moved = true;
    rejected = t.name === 'Reject';
  }
  const schedule = scheduleAfterWrite(current, change.schedule ?? {}, moves, actor);
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
    ...(schedule.publish_at !== (current.publish_at ?? null) ? { publish_at: schedule.publish_at } : {}),
    ...(schedule.unpublish_at !== (current.unpublish_at ?? null) ? { unpublish_at: schedule.unpublish_at } : {}),
  };
}

/** What a move to `state` ends of a schedule (bulk moves): an approval its publishing, an archival its archiving. */
export function scheduleEndedBy(state: string): { publish_at?: null; unpublish_at?: null } {
  return state === 'Public' ? { publish_at: null } : state === 'Archive' ? { unpublish_at: null } : {};
}

/** The `publishAt` / `unpublishAt` members of a workflow object: present only while set. */
export function scheduleOf(row: WorkflowColumns): { publishAt?: string; unpublishAt?: string } {
  return {
    ...(row.publish_at ? { publishAt: row.publish_at } : {}),
    ...(row.unpublish_at ? { unpublishAt: row.unpublish_at } : {}),
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
