import type { Kysely } from 'kysely';
import { roleAtLeast } from '../../../shared/api/auth.js';
import type { Message } from '../../../shared/api/common.js';
import { BULK_PAGE_OPERATIONS, type BulkPageOperation } from '../../../shared/api/pages.js';
import { TRANSITIONS, type TransitionsResponse, type WorkflowState } from '../../../shared/api/workflow.js';
import type { DB, NodeKind } from '../../db/schema.js';
import { isoTime, type Actor, type AppContext } from '../../lib/context.js';
import { forbidden } from '../../lib/errors.js';
import { scheduleEndedBy, transitionsOf } from '../../lib/workflow.js';
import { effectiveAccess, requireAccess } from '../tree/access.js';
import type { NodeRow } from '../tree/tree.repository.js';
import { assemblePage, docOf } from './page-docs.js';
import { locateContainer } from './page-location.js';
import { pagesRepository as repo, type PageRow } from './pages.repository.js';

/** A node below a folder, with what bulk operations need to decide about it. */
export interface SubtreeNode {
  id: string;
  name: string;
  parent_id: string | null;
  kind: NodeKind;
  access_level: string | null;
  workflow_state: string | null;
}

/** Every node below `rootId` (not itself), with the workflow state of pages: one recursive query. */
function subtree(db: Kysely<DB>, rootId: string): Promise<SubtreeNode[]> {
  return db
    .withRecursive('sub(id, parent_id, name, kind, access_level)', (qb) =>
      qb
        .selectFrom('nodes')
        .select(['id', 'parent_id', 'name', 'kind', 'access_level'])
        .where('parent_id', '=', rootId)
        .unionAll((q) =>
          q
            .selectFrom('nodes')
            .innerJoin('sub', 'sub.id', 'nodes.parent_id')
            .select(['nodes.id', 'nodes.parent_id', 'nodes.name', 'nodes.kind', 'nodes.access_level']),
        ),
    )
    .selectFrom('sub')
    .leftJoin('pages', 'pages.node_id', 'sub.id')
    .select(['sub.id', 'sub.parent_id', 'sub.name', 'sub.kind', 'sub.access_level', 'pages.workflow_state'])
    .execute() as Promise<SubtreeNode[]>;
}

/**
 * Sets the workflow of many pages: each page's row with its new doc and next revision in one statement (migration
 * 0280: every workflow move is a revision with the JSON a GET answers after it).
 */
async function setWorkflow(
  db: Kysely<DB>,
  pages: readonly Pick<SubtreeNode, 'id' | 'name'>[],
  patch: Pick<PageRow, 'workflow_state' | 'updated_at' | 'updated_by'> &
    Partial<Pick<PageRow, 'checked_out' | 'checked_out_user' | 'rejection' | 'publish_at' | 'unpublish_at'>>,
) {
  for (const { id, name } of pages) {
    const row = await repo.findPageDoc(db, id, { lock: true });
    if (!row) continue;
    const at = { id, name, siteName: '', folderPath: '' };
    const doc = docOf(await assemblePage(db, at, { ...row, ...patch }));
    const revision = Number(row.revision) + 1;
    await repo.updatePageAndDoc(db, id, { ...patch, revision }, doc, row.current_epoch, null, row.doc_path);
  }
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
        const nodes = await subtree(trx, chain[chain.length - 1]!.id);
        const children = new Map<string, SubtreeNode[]>();
        for (const n of nodes) {
          const list = children.get(n.parent_id!) ?? [];
          list.push(n);
          children.set(n.parent_id!, list);
        }
        // Walk down so each page's access includes every folder above it.
        const targets: SubtreeNode[] = [];
        const walk = (parentId: string, above: NodeRow[]) => {
          for (const n of children.get(parentId) ?? []) {
            const path = [...above, n as unknown as NodeRow];
            if (n.kind === 'page') {
              if (
                n.workflow_state &&
                from.has(n.workflow_state as WorkflowState) &&
                effectiveAccess(actor, path) !== 'READ'
              ) {
                targets.push(n);
              }
            } else {
              walk(n.id, path);
            }
          }
        };
        walk(chain[chain.length - 1]!.id, chain);
        await setWorkflow(trx, targets, {
          workflow_state: def.to,
          rejection: null,
          ...scheduleEndedBy(def.to),
          updated_at: ts,
          updated_by: actor.username,
        });
        return targets.length;
      });
      return { message: `${op.verb} ${count} page${count === 1 ? '' : 's'}` };
    },
  };
}
