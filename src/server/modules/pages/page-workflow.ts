import type { Kysely } from 'kysely';
import { roleAtLeast } from '../../../shared/api/auth.js';
import type { Message } from '../../../shared/api/common.js';
import { BULK_PAGE_OPERATIONS, type BulkPageOperation } from '../../../shared/api/pages.js';
import { TRANSITIONS, type TransitionsResponse, type WorkflowState } from '../../../shared/api/workflow.js';
import type { DB } from '../../db/schema.js';
import { isoTime, type Actor, type AppContext } from '../../lib/context.js';
import { forbidden } from '../../lib/errors.js';
import { applyTransition, availableTransitions, planTransitions } from '../../lib/workflow.js';
import { effectiveAccess, requireAccess } from '../tree/access.js';
import type { NodeRow } from '../tree/tree.repository.js';
import { locateContainer } from './page-location.js';
import { pagesRepository as repo, type PageRow, type SubtreeNode } from './pages.repository.js';

/** The workflow columns of a page row. */
type WorkflowColumns = Pick<PageRow, 'workflow_state' | 'checked_out' | 'checked_out_user'>;

/**
 * The workflow of a page after a PUT: editing a Public page moves it to Quick Edit first, then the state asked
 * for is walked to; an edit (or a move to Quick Edit) checks the page out to the editor, publishing checks it in,
 * and `checkedOut` sent in the body has the last word. Answers the changed columns (empty when none) and whether
 * a transition was taken.
 */
export function workflowAfterPut(
  page: WorkflowColumns,
  change: {
    actor: Actor;
    created: boolean;
    contentChanged: boolean;
    state?: WorkflowState;
    checkedOut?: boolean;
  },
): { patch: Partial<WorkflowColumns>; moved: boolean } {
  const { actor, created, contentChanged } = change;
  const from = page.workflow_state as WorkflowState;
  let state = from;
  let moved = false;
  if (!created && contentChanged && state === 'Public') {
    state = applyTransition(state, 'Edit', actor);
    moved = true;
  }
  if (change.state) {
    for (const t of planTransitions(state, change.state, actor)) {
      state = t.to;
      moved = true;
    }
  }
  let checkedOut = page.checked_out === 1;
  let checkedOutUser = page.checked_out_user;
  if ((contentChanged && !created) || (moved && state === 'Quick Edit')) {
    checkedOut = true;
    checkedOutUser = actor.username;
  }
  if (moved && state === 'Public') {
    checkedOut = false;
    checkedOutUser = '';
  }
  if (change.checkedOut !== undefined) {
    checkedOut = change.checkedOut;
    checkedOutUser = checkedOut ? actor.username : '';
  }
  const patch: Partial<WorkflowColumns> = {};
  if (state !== from) patch.workflow_state = state;
  if ((checkedOut ? 1 : 0) !== page.checked_out) patch.checked_out = checkedOut ? 1 : 0;
  if (checkedOutUser !== page.checked_out_user) patch.checked_out_user = checkedOutUser;
  return { patch, moved };
}

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
      const state = page.workflow_state;
      const canWrite = effectiveAccess(actor, chain) !== 'READ';
      return {
        state,
        transitions: canWrite ? availableTransitions(state, actor).map((t) => ({ name: t.name, to: t.to })) : [],
      };
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
