import type { Kysely } from 'kysely';
import { roleAtLeast } from '../../../shared/api/auth.js';
import type { Message } from '../../../shared/api/common.js';
import { BULK_PAGE_OPERATIONS, type BulkPageOperation } from '../../../shared/api/pages.js';
import { TRANSITIONS, type TransitionsResponse, type WorkflowState } from '../../../shared/api/workflow.js';
import type { DB } from '../../db/schema.js';
import { isoTime, type Actor, type AppContext } from '../../lib/context.js';
import { forbidden } from '../../lib/errors.js';
import { transitionsOf } from '../../lib/workflow.js';
import { effectiveAccess, requireAccess } from '../tree/access.js';
import type { NodeRow } from '../tree/tree.repository.js';
import { locateContainer } from './page-location.js';
import { pagesRepository as repo, type SubtreeNode } from './pages.repository.js';

/** The page's transitions and the bulk workflow operations over a folder. */
export function createPageWorkflow(
  ctx: AppContext,
  findPage: (db: Kysely<DB>, segments: readonly string[]) => Promise<{ node: NodeRow; chain: NodeRow[] }>,
) {
  return {
    /** The page's state and the transitions the caller may take now (none without write access). */
    async transitions(actor: Actor, segments: readonly string[]): Promise<TransitionsResponse> {
      const { node, chain } = await findPage(ctx.db, segments);
      requireAccess(actor, chain, 'READ', 'this page');
      const page = (await repo.findPage(ctx.db, node.id))!;
      return transitionsOf(page.workflow_state, actor, effectiveAccess(actor, chain) !== 'READ');
    },

    /**
     * Applies one transition to every page below a site, folder or section that it applies to and that the
     * caller may change; one transaction. Approve-all leaves archived pages archived (approve those one by one).
     */
    async bulk(actor: Actor, operation: BulkPageOperation, segments: readonly string[]): Promise<Message> {
      const op = BULK_PAGE_OPERATIONS[operation];
      const def = TRANSITIONS.find((t) => t.name === op.transition)!;
      if (!roleAtLeast(actor.role, def.minRole)) {
        throw forbidden(`A ${actor.role} may not ${op.transition.toLowerCase()} pages.`);
      }
      const from = new Set<WorkflowState>(def.from.filter((s) => !(operation === 'approve-all' && s === 'Archive')));
      const ts = isoTime(ctx.now());
      const count = await ctx.db.transaction().execute(async (trx) => {
        const chain = await locateContainer(trx, segments);
        requireAccess(actor, chain, 'WRITE', 'pages here');
        const nodes = await repo.subtree(trx, chain[chain.length - 1]!.id);
        const children = new Map<string, SubtreeNode[]>();
        for (const n of nodes) {
          const list = children.get(n.parent_id!) ?? [];
          list.push(n);
          children.set(n.parent_id!, list);
        }
        // Walk down so each page's access includes every folder above it.
        const targets: string[] = [];
        const walk = (parentId: string, above: NodeRow[]) => {
          for (const n of children.get(parentId) ?? []) {
            const path = [...above, n as unknown as NodeRow];
            if (n.kind === 'page') {
              if (
                n.workflow_state &&
                from.has(n.workflow_state as WorkflowState) &&
                effectiveAccess(actor, path) !== 'READ'
              ) {
                targets.push(n.id);
              }
            } else {
              walk(n.id, path);
            }
          }
        };
        walk(chain[chain.length - 1]!.id, chain);
        await repo.setWorkflow(trx, targets, {
          workflow_state: def.to,
          rejection: null,
          updated_at: ts,
          updated_by: actor.username,
          ...(def.to === 'Public' ? { checked_out: 0, checked_out_user: '' } : {}),
        });
        return targets.length;
      });
      return { message: `${op.verb} ${count} page${count === 1 ? '' : 's'}` };
    },
  };
}
