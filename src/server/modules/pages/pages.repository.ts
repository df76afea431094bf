import type { Compilable, Kysely, Selectable } from 'kysely';
import { forUpdate } from '../../db/dialect.js';
import { prepared, preparedUpdate } from '../../db/prepared.js';
import type { DB, NodeKind, PagesTable, WidgetsTable } from '../../db/schema.js';

export type PageRow = Selectable<PagesTable>;
export type WidgetRow = Selectable<WidgetsTable>;

/** A widget row with what a page shows of the shared asset it links (null columns when it links none). */
export interface WidgetWithAsset extends WidgetRow {
  asset_type: string | null;
  asset_fields: string | null;
  asset_name: string | null;
  asset_parent_id: string | null;
}

/** A node below a folder, with what bulk operations need to decide about it. */
export interface SubtreeNode {
  id: string;
  parent_id: string | null;
  kind: NodeKind;
  access_level: string | null;
  workflow_state: string | null;
}

/** How many ids go into one `in (…)` list (well below both dialects' parameter limits). */
const CHUNK = 500;

// Prepared (db/prepared.ts): the queries every read and write of a page runs.
const FIND_PAGE = prepared((db: Kysely<DB>, p: { nodeId: string }) =>
  db.selectFrom('pages').selectAll().where('node_id', '=', p.nodeId),
);
const LOCK_PAGE = prepared((db: Kysely<DB>, p: { nodeId: string }) =>
  forUpdate(db, db.selectFrom('pages').selectAll().where('node_id', '=', p.nodeId)),
);
const UPDATE_PAGE = preparedUpdate<PageRow>('pages', 'node_id');
const TOUCH_NODE = prepared((db: Kysely<DB>, p: { nodeId: string; updatedAt: string }) =>
  db.updateTable('nodes').set({ updated_at: p.updatedAt }).where('id', '=', p.nodeId),
);
const WIDGETS = prepared((db: Kysely<DB>, p: { pageId: string }): Compilable<WidgetWithAsset> =>
  db
    .selectFrom('widgets')
    .leftJoin('assets', 'assets.node_id', 'widgets.shared_asset_id')
    .leftJoin('nodes', 'nodes.id', 'widgets.shared_asset_id')
    .selectAll('widgets')
    .select([
      'assets.type as asset_type',
      'assets.fields as asset_fields',
      'nodes.name as asset_name',
      'nodes.parent_id as asset_parent_id',
    ])
    .where('widgets.page_id', '=', p.pageId)
    .orderBy('widgets.region')
    .orderBy('widgets.position')
    .orderBy('widgets.id'),
);

/** SQL of pages and their widgets; takes a db or a transaction. */
export const pagesRepository = {
  findPage(db: Kysely<DB>, nodeId: string) {
    return FIND_PAGE.first(db, { nodeId });
  },

  /** The page row, locked until the transaction ends (PostgreSQL) so concurrent writers of one page queue up. */
  lockPage(db: Kysely<DB>, nodeId: string) {
    return LOCK_PAGE.first(db, { nodeId });
  },

  updatePage(db: Kysely<DB>, nodeId: string, patch: Partial<Omit<PageRow, 'node_id'>>) {
    return UPDATE_PAGE.run(db, nodeId, patch);
  },

  touchNode(db: Kysely<DB>, nodeId: string, updatedAt: string) {
    return TOUCH_NODE.run(db, { nodeId, updatedAt });
  },

  /** Widgets of a page in region and position order, with the shared asset each links. */
  widgets(db: Kysely<DB>, pageId: string): Promise<WidgetWithAsset[]> {
    return WIDGETS.all(db, { pageId });
  },

  insertWidget(db: Kysely<DB>, row: WidgetRow) {
    return db.insertInto('widgets').values(row).execute();
  },

  updateWidget(db: Kysely<DB>, id: string, patch: Partial<Omit<WidgetRow, 'id' | 'page_id'>>) {
    return db.updateTable('widgets').set(patch).where('id', '=', id).execute();
  },

  async deleteWidgets(db: Kysely<DB>, ids: readonly string[]) {
    for (let i = 0; i < ids.length; i += CHUNK) {
      await db
        .deleteFrom('widgets')
        .where('id', 'in', ids.slice(i, i + CHUNK))
        .execute();
    }
  },

  /** The asset row of a node, when the node is an asset. */
  findAsset(db: Kysely<DB>, nodeId: string) {
    return db
      .selectFrom('assets')
      .select(['node_id', 'type', 'fields'])
      .where('node_id', '=', nodeId)
      .executeTakeFirst();
  },

  /** True when a site or section has this page as its landing page. */
  async isLandingPage(db: Kysely<DB>, pageId: string): Promise<boolean> {
    const r = await db.selectFrom('nodes').select('id').where('landing_page_id', '=', pageId).executeTakeFirst();
    return !!r;
  },

  deleteNode(db: Kysely<DB>, id: string) {
    return db.deleteFrom('nodes').where('id', '=', id).execute();
  },

  /** Every node below `rootId` (not itself), with the workflow state of pages: one recursive query. */
  subtree(db: Kysely<DB>, rootId: string): Promise<SubtreeNode[]> {
    return db
      .withRecursive('sub(id, parent_id, kind, access_level)', (qb) =>
        qb
          .selectFrom('nodes')
          .select(['id', 'parent_id', 'kind', 'access_level'])
          .where('parent_id', '=', rootId)
          .unionAll((q) =>
            q
              .selectFrom('nodes')
              .innerJoin('sub', 'sub.id', 'nodes.parent_id')
              .select(['nodes.id', 'nodes.parent_id', 'nodes.kind', 'nodes.access_level']),
          ),
      )
      .selectFrom('sub')
      .leftJoin('pages', 'pages.node_id', 'sub.id')
      .select(['sub.id', 'sub.parent_id', 'sub.kind', 'sub.access_level', 'pages.workflow_state'])
      .execute() as Promise<SubtreeNode[]>;
  },

  /** Sets the workflow of many pages at once. */
  async setWorkflow(
    db: Kysely<DB>,
    ids: readonly string[],
    patch: Pick<PageRow, 'workflow_state' | 'updated_at' | 'updated_by'> &
      Partial<Pick<PageRow, 'checked_out' | 'checked_out_user'>>,
  ) {
    for (let i = 0; i < ids.length; i += CHUNK) {
      const chunk = ids.slice(i, i + CHUNK);
      await db.updateTable('pages').set(patch).where('node_id', 'in', chunk).execute();
      await db.updateTable('nodes').set({ updated_at: patch.updated_at }).where('id', 'in', chunk).execute();
    }
  },
};
