import type { TrashEntry, TrashList, TrashedMessage } from '../../../shared/api/trash.js';
import type { NodeKind } from '../../db/schema.js';
import { badRequest } from '../../lib/errors.js';
import { assetTitleOf, titleOf } from '../folders/folders.presenter.js';
import type { TrashListRow } from './trash.repository.js';

/** The answer of a DELETE: `trashId` when the item went to the trash. */
export function trashedMessage(trashId: string | null): TrashedMessage {
  return trashId === null ? { message: 'Deleted' } : { message: 'Deleted', trashId };
}

const DAY_MS = 86_400_000;

/** An entry as the list shows it, titled as people know it; it is purged `days` after its delete. */
export function presentEntry(r: TrashListRow, days: number): TrashEntry {
  const segments = r.path.split('/');
  return {
    id: String(r.id),
    kind: r.kind,
    name: r.name,
    title: (r.kind === 'asset' ? assetTitleOf(r.fields) : titleOf({ ...r, kind: r.kind as NodeKind })) ?? r.name,
    path: r.path,
    from: segments.slice(0, -1).join('/'),
    deletedBy: r.deleted_by,
    deletedAt: r.deleted_at,
    purgeAt: new Date(Date.parse(r.deleted_at) + days * DAY_MS).toISOString(),
  };
}

/** A page of the list: `more` when entries follow the last. */
export function presentTrashList(entries: TrashEntry[], more: boolean): TrashList {
  const last = entries[entries.length - 1];
  return { items: entries, next: more && last ? Buffer.from(`t${last.id}`).toString('base64url') : null };
}

/** The entry id a cursor continues below; 400 for one this server did not make. */
export function entryOfCursor(cursor: string): number {
  const m = /^t([1-9]\d{0,15})$/.exec(Buffer.from(cursor, 'base64url').toString());
  if (!m) {
    throw badRequest(
      'The cursor is not valid.',
      [{ path: 'cursor', message: 'is not a cursor of this list' }],
      'INVALID_PARAMETER',
    );
  }
  return Number(m[1]);
}
