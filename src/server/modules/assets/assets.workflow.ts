import { BULK_TRANSITION, type AssetBulkAction, type AssetBulkResult } from '../../../shared/api/assets.js';
import { roleAtLeast } from '../../../shared/api/auth.js';
import { TRANSITIONS, type TransitionsResponse } from '../../../shared/api/workflow.js';
import type { Actor, AppContext } from '../../lib/context.js';
import { forbidden } from '../../lib/errors.js';
import { scheduleEndedBy, transitionsOf } from '../../lib/workflow.js';
import { effectiveAccess, requireAccess } from '../tree/access.js';
import { findAsset, findFolder } from './assets.common.js';
import { treeRepository } from '../tree/tree.repository.js';
import { writeAssetRevision, writeTime } from './asset-writes.js';
import { assetsRepository as repo } from './assets.repository.js';

/** Past tense of each bulk action, for its message (as the pages' bulk actions word it). */
const BULK_VERB: Record<AssetBulkAction, string> = {
  'approve-all': 'Approved',
  'submit-all': 'Submitted',
  'archive-all': 'Archived',
};

/** An asset's transitions, and the bulk actions on a folder's assets. */
export function createAssetWorkflow(ctx: AppContext) {
  async function transitions(actor: Actor, segments: readonly string[]): Promise<TransitionsResponse> {
    const { chain, row } = await findAsset(ctx.db, segments);
    requireAccess(actor, chain, 'READ', segments.join('/'));
    return transitionsOf(row.workflow_state, actor, effectiveAccess(actor, chain) !== 'READ');
  }

  /**
   * Takes one transition on every asset of a folder and its subfolders where it applies, as the pages' bulk
   * actions do (approve-all leaves archived assets archived: approve those one by one). Assets in subfolders the
   * caller may only read, or in another state, are skipped and counted.
   */
  async function bulk(actor: Actor, segments: readonly string[], action: AssetBulkAction): Promise<AssetBulkResult> {
    const { chain, node, path } = await findFolder(ctx.db, segments);
    requireAccess(actor, chain, 'WRITE', path);
    const transition = TRANSITIONS.find((t) => t.name === BULK_TRANSITION[action])!;
    if (!roleAtLeast(actor.role, transition.minRole)) {
      throw forbidden(`${transition.name} needs the ${transition.minRole} role or higher.`);
    }
    const from = new Set<string>(transition.from.filter((s) => !(action === 'approve-all' && s === 'Archive')));
    return ctx.db.transaction().execute(async (trx) => {
      const folders = await repo.folderSubtree(trx, node.id);
      // Folders below may cap access further (non-admins): a READ folder and everything in it is skipped.
      const writable = new Set<string>();
      for (const f of folders) {
        const parentOk = f.id === node.id || (f.parent_id !== null && writable.has(f.parent_id));
        const capped = actor.role !== 'Admin' && f.id !== node.id && f.access_level === 'READ';
        if (parentOk && !capped) writable.add(f.id);
      }
      const assets = await repo.assetsIn(
        trx,
        folders.map((f) => f.id),
      );
      const moving = assets.filter((a) => writable.has(a.parent_id) && from.has(a.workflow_state));
      // Each move is the asset's next revision, with the JSON a GET answers after it (migration 0280).
      const folderPaths = new Map<string, readonly string[]>();
      for (const a of moving) {
        const row = await repo.find(trx, a.id, true);
        if (!row) continue;
        let folder = folderPaths.get(a.parent_id);
        if (!folder) folderPaths.set(a.parent_id, (folder = (await treeRepository.pathOf(trx, a.parent_id)) ?? []));
        const patch = {
          workflow_state: transition.to,
          rejection: null,
          ...scheduleEndedBy(transition.to),
          updated_by: actor.username,
        };
        await writeAssetRevision(trx, row, patch, writeTime(ctx.now(), row.updated_at), folder);
      }
      const changed = moving.length;
      return {
        message: `${BULK_VERB[action]} ${changed} asset${changed === 1 ? '' : 's'}`,
        changed,
        skipped: assets.length - changed,
      };
    });
  }

  return { transitions, bulk };
}
