import type { ChangeEvent, ChangeKind } from '../../../shared/api/events.js';
import type { ChangeRow } from './events.repository.js';

/** A row of the change log, at `path`, as the event the stream sends. */
export function presentChange(row: ChangeRow, path: string): ChangeEvent {
  return {
    id: Number(row.id),
    kind: row.kind as ChangeKind,
    itemId: row.item_id,
    path,
    etag: row.etag,
    deleted: Number(row.deleted) === 1,
    by: row.actor,
    at: row.at,
    ...(row.lease === null ? {} : { lease: { holder: row.lease || null } }),
  };
}

/** The SSE frame of a change event. */
export function changeFrame(event: ChangeEvent): string {
  return `id: ${event.id}\nevent: change\ndata: ${JSON.stringify(event)}\n\n`;
}

/** The SSE frame that tells a client it missed events and should refetch what it shows; `lastId` is where to resume. */
export function resetFrame(lastId: number): string {
  return `id: ${lastId}\nevent: reset\ndata: ${JSON.stringify({ lastId })}\n\n`;
}
