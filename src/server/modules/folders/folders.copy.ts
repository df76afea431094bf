import type { Kysely, Selectable } from 'kysely';
import { MAX_NAME_LENGTH } from '../../../shared/api/common.js';
import { isUniqueViolation, nextId, type IdType } from '../../db/dialect.js';
import type { AssetsTable, DB, NodeKind, PagesTable, WidgetsTable } from '../../db/schema.js';
import { isoTime, type Actor, type AppContext } from '../../lib/context.js';
import { conflict } from '../../lib/errors.js';
import { copyBlob } from '../assets/asset-blobs.js';
import { assetRefs, widgetRefs } from '../pages/widget-refs.js';
import { treeRepository as tree, type NodeRow } from '../tree/tree.repository.js';
import { isNavigation } from './folders.rules.js';

/*
 * The copy of a subtree (folders.transfer.ts's `copy`): a free name for it, its rows read and written again
 * under new ids, in chunks, with their own blobs.
 */

/** Rows per chunk when reading or writing many rows (bound parameters stay below every dialect's limit). */
const CHUNK = 500;
/** Rows per multi-row INSERT of nodes (16 columns each). */
const INSERT_CHUNK = 100;

function chunks<T>(items: readonly T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** The rows a copy reads and writes, by id, in chunks. */
const copyQueries = {
  async nodesByIds(db: Kysely<DB>, ids: readonly string[]): Promise<NodeRow[]> {
    const out: NodeRow[] = [];
    for (const c of chunks(ids)) out.push(...(await db.selectFrom('nodes').selectAll().where('id', 'in', c).execute()));
    return out;
  },

  async pagesOf(db: Kysely<DB>, ids: readonly string[]): Promise<Selectable<PagesTable>[]> {
    const out: Selectable<PagesTable>[] = [];
    for (const c of chunks(ids))
      out.push(...(await db.selectFrom('pages').selectAll().where('node_id', 'in', c).execute()));
    return out;
  },

  async widgetsOf(db: Kysely<DB>, pageIds: readonly string[]): Promise<Selectable<WidgetsTable>[]> {
    const out: Selectable<WidgetsTable>[] = [];
    for (const c of chunks(pageIds)) {
      out.push(
        ...(await db
          .selectFrom('widgets')
          .selectAll()
          .where('page_id', 'in', c)
          .orderBy('page_id')
          .orderBy('region')
          .orderBy('position')
          .execute()),
      );
    }
    return out;
  },

  async assetsOf(db: Kysely<DB>, ids: readonly string[]): Promise<Selectable<AssetsTable>[]> {
    const out: Selectable<AssetsTable>[] = [];
    for (const c of chunks(ids))
      out.push(...(await db.selectFrom('assets').selectAll().where('node_id', 'in', c).execute()));
    return out;
  },

  async insertNodes(db: Kysely<DB>, rows: readonly NodeRow[]): Promise<void> {
    for (const c of chunks(rows, INSERT_CHUNK)) await db.insertInto('nodes').values(c).execute();
  },

  async insertPages(db: Kysely<DB>, rows: readonly Selectable<PagesTable>[]): Promise<void> {
    for (const c of chunks(rows, INSERT_CHUNK)) await db.insertInto('pages').values(c).execute();
  },

  async insertWidgets(db: Kysely<DB>, rows: readonly Selectable<WidgetsTable>[]): Promise<void> {
    for (const c of chunks(rows, INSERT_CHUNK)) await db.insertInto('widgets').values(c).execute();
  },

  async insertAssets(db: Kysely<DB>, rows: readonly Selectable<AssetsTable>[]): Promise<void> {
    for (const c of chunks(rows, INSERT_CHUNK / 2)) await db.insertInto('assets').values(c).execute();
  },
};

/** How many `-copy-N` names a copy tries before giving up. */
const MAX_COPY_SUFFIX = 1000;

function idTypeOf(kind: NodeKind): IdType {
  return kind === 'page' ? 'page' : kind === 'asset' ? 'asset' : 'folder';
}

/** A name free in the container: `name`, else `<name>-copy`, `<name>-copy-2`, … (before an asset's extension). */
export async function freeName(db: Kysely<DB>, parentId: string, name: string, kind: NodeKind): Promise<string> {
  if (!(await tree.findChild(db, parentId, name))) return name;
  const dot = kind === 'asset' ? name.lastIndexOf('.') : -1;
  const [base, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  for (let i = 1; i <= MAX_COPY_SUFFIX; i++) {
    const suffix = i === 1 ? '-copy' : `-copy-${i}`;
    let b = base;
    while (b.length + suffix.length + ext.length > MAX_NAME_LENGTH) b = [...b].slice(0, -1).join('');
    const candidate = b.trimEnd() + suffix + ext;
    if (!(await tree.findChild(db, parentId, candidate))) return candidate;
  }
  throw conflict('NAME_TAKEN', `Too many copies of "${name}" exist there already.`);
}

/** Copies the subtree of `top` into `target` as `name` inside the transaction; answers the blob keys used. */
export async function copySubtree(
  ctx: AppContext,
  db: Kysely<DB>,
  actor: Actor,
  top: NodeRow,
  target: NodeRow,
  name: string,
  blobCopies: Map<string, string>,
  made: string[],
): Promise<Set<string>> {
  const ts = isoTime(ctx.now());
  const sub = await tree.subtree(db, top.id);
  const rows = new Map(
    (
      await copyQueries.nodesByIds(
        db,
        sub.map((s) => s.id),
      )
    ).map((r) => [r.id, r]),
  );
  const ids = new Map<string, string>();
  for (const s of sub) ids.set(s.id, await nextId(db, idTypeOf(s.kind)));
  const navigationOrder = isNavigation(top.kind) ? (await tree.maxSortOrder(db, target.id)) + 1 : top.sort_order;

  const copies: NodeRow[] = sub.map((s) => {
    const r = rows.get(s.id)!;
    const isTop = r.id === top.id;
    return {
      ...r,
      id: ids.get(r.id)!,
      parent_id: isTop ? target.id : ids.get(r.parent_id!)!,
      name: isTop ? name : r.name,
      sort_order: isTop ? navigationOrder : r.sort_order,
      // References inside the copied subtree are re-pointed at the copies once those exist (below).
      link_target_id: r.link_target_id && !ids.has(r.link_target_id) ? r.link_target_id : null,
      landing_page_id: null,
      created_at: ts,
      updated_at: ts,
      updated_by: actor.username,
    };
  });
  try {
    await copyQueries.insertNodes(db, copies);
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict('NAME_TAKEN', `Something named "${name}" already exists there.`);
    throw err;
  }
  for (const r of rows.values()) {
    const patch: Partial<NodeRow> = {};
    if (r.landing_page_id && ids.has(r.landing_page_id)) patch.landing_page_id = ids.get(r.landing_page_id)!;
    if (r.link_target_id && ids.has(r.link_target_id)) patch.link_target_id = ids.get(r.link_target_id)!;
    if (Object.keys(patch).length) await tree.update(db, ids.get(r.id)!, patch);
  }

  // Pages: new ids for the page and each widget; local fields are copied, shared assets stay linked.
  const pageIds = sub.filter((s) => s.kind === 'page').map((s) => s.id);
  if (pageIds.length) {
    const pages: Selectable<PagesTable>[] = (await copyQueries.pagesOf(db, pageIds)).map((p) => ({
      ...p,
      node_id: ids.get(p.node_id)!,
      workflow_state: 'Draft',
      checked_out: 0,
      checked_out_user: '',
      created_at: ts,
      updated_at: ts,
      created_by: actor.username,
      updated_by: actor.username,
    }));
    await copyQueries.insertPages(db, pages);
    const widgets: Selectable<WidgetsTable>[] = [];
    for (const w of await copyQueries.widgetsOf(db, pageIds)) {
      widgets.push({ ...w, id: await nextId(db, 'widget'), page_id: ids.get(w.page_id)! });
    }
    await copyQueries.insertWidgets(db, widgets);
    await widgetRefs.addedMany(db, widgets);
  }

  // Assets: each copy gets its own blobs (copied before the transaction where possible).
  const used = new Set<string>();
  const blobFor = async (key: string | null) => {
    if (!key) return null;
    let copy = blobCopies.get(key);
    if (!copy) {
      copy = await copyBlob(ctx, key);
      made.push(copy);
      blobCopies.set(key, copy);
    }
    used.add(copy);
    return copy;
  };
  const assetIds = sub.filter((s) => s.kind === 'asset').map((s) => s.id);
  if (assetIds.length) {
    const assets: Selectable<AssetsTable>[] = [];
    for (const a of await copyQueries.assetsOf(db, assetIds)) {
      assets.push({
        ...a,
        node_id: ids.get(a.node_id)!,
        workflow_state: 'Draft',
        checked_out: 0,
        checked_out_user: '',
        blob_key: await blobFor(a.blob_key),
        thumb_blob_key: await blobFor(a.thumb_blob_key),
        created_at: ts,
        updated_at: ts,
      });
    }
    await copyQueries.insertAssets(db, assets);
    await assetRefs.addedMany(db, assets);
  }
  return used;
}
