import type { RevisionList } from '../../../shared/api/revisions.js';
import type { WorkflowState } from '../../../shared/api/workflow.js';
import { badRequest } from '../../lib/errors.js';
import type { RevisionListRow } from './revisions.repository.js';

/** A page of the list: its rows newest first, `more` when rows follow, and the live revision's number. */
export function presentRevisionList(
  rows: readonly RevisionListRow[],
  more: boolean,
  live: number | null,
): RevisionList {
  const items = rows.map((r) => ({
    revision: Number(r.revision),
    savedAt: r.saved_at,
    savedBy: r.saved_by,
    state: r.state as WorkflowState,
    live: Number(r.revision) === live,
  }));
  const last = items[items.length - 1];
  return { items, next: more && last ? cursorOf(last.revision) : null };
}

/** The opaque cursor after revision `n`. */
function cursorOf(n: number): string {
  return Buffer.from(`r${n}`).toString('base64url');
}

/** The revision a cursor continues below; 400 for one this server did not make. */
export function revisionOfCursor(cursor: string): number {
  const m = /^r([1-9]\d{0,15})$/.exec(Buffer.from(cursor, 'base64url').toString());
  if (!m)
    throw badRequest(
      'The cursor is not valid.',
      [{ path: 'cursor', message: 'is not a cursor of this list' }],
      'INVALID_PARAMETER',
    );
  return Number(m[1]);
}
