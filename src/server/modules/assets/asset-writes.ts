import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { isoTime } from '../../lib/context.js';
import { representAsset, type AssetRepresentation } from './assets.presenter.js';
import type { AssetFilePatch, AssetPatch, AssetRow } from './assets.repository.js';

/**
 * The time of a write of a row last modified at `updatedAt`: `now`, or just after the row's time when the clock
 * has not passed it (several nodes' clocks, two writes in one millisecond), so that every write changes the
 * asset's last-modified time (and its node takes it and keeps the stored doc: migrations 0120, 0150).
 */
export function writeTime(now: number, updatedAt: string): string {
  const t = Date.parse(updatedAt);
  return isoTime(Math.max(now, Number.isNaN(t) ? 0 : t + 1));
}

/**
 * Writes `patch` to the asset `row` (inside the caller's transaction, the row locked) as its next revision: the
 * patch, the time `at`, the asset's new JSON stored as its doc and the next revision number in one `UPDATE`, so
 * the revision trigger records exactly what a GET answers next (migration 0280). Answers that JSON.
 */
export async function writeAssetRevision(
  trx: Kysely<DB>,
  row: AssetRow,
  patch: AssetPatch | AssetFilePatch | Record<string, never>,
  at: string,
  folder: readonly string[],
): Promise<AssetRepresentation> {
  const rep = representAsset({ ...row, ...patch, updated_at: at }, folder);
  await trx
    .updateTable('assets')
    .set({
      ...patch,
      updated_at: at,
      doc: rep.json,
      doc_etag: rep.etag,
      doc_path: [...folder, row.name].join('/'),
      doc_seq: sql`doc_seq + 1`,
      revision: Number(row.revision) + 1,
    })
    .where('node_id', '=', row.id)
    .execute();
  return rep;
}
