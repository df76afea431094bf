import type { Kysely } from 'kysely';
import { ASSET_LIBRARY, assetHref, folderHref, pageHref } from '../../../shared/api/paths.js';
import {
  TRASH_DEFAULT_LIMIT,
  type TrashList,
  type TrashListQuery,
  type TrashRestoreBody,
  type TrashRestored,
} from '../../../shared/api/trash.js';
import type { DB, NodeKind } from '../../db/schema.js';
import { ROOT_NODE_ID } from '../../db/structure.js';
import { recordChanges } from '../../lib/change-log.js';
import { isoTime, type Actor, type AppContext } from '../../lib/context.js';
import { conflict, forbidden, notFound } from '../../lib/errors.js';
import { aKind, canContain, locateContainer, quotePath, realmOf } from '../folders/folders.rules.js';
import { effectiveAccess, requireAccess } from '../tree/access.js';
import { itemPathSegments } from '../tree/paths.js';
import { treeRepository as tree, type NodeRow } from '../tree/tree.repository.js';
import { deleteUnreferencedBlobs, purgeNode } from './trash-records.js';
import { entryOfCursor, presentEntry, presentTrashList } from './trash.presenter.js';
import { trashRepository as repo, type TrashListRow, type TrashRow } from './trash.repository.js';

/** The container an entry was in, where it still has a path: its segments and chain (none for a site). */
interface Place {
  segments: string[];
  chain: NodeRow[];
}

/** Entries read per round while a non-admin's page of the list fills (some may be others'). */
const LIST_ROUND = 200;

/**
 * The trash: its list, restore, and purge (of one entry by an admin, and of those older than `CMS_TRASH_DAYS`).
 * Who sees and restores an entry: admins every entry; others those whose place they may write now (WRITE there
 * and on the item itself, as its delete needed; a site's entry is for admins only), and those they deleted
 * themselves whose place is gone (they restore them elsewhere with `to`). Viewers have none.
 */
export function createTrashService(ctx: AppContext) {
  const days = ctx.config.trashDays;

  async function placeOf(db: Kysely<DB>, entry: TrashRow): Promise<Place | null> {
    if (entry.parent_id === ROOT_NODE_ID) return { segments: [], chain: [] };
    if (!entry.parent_id) return null;
    const segments = await tree.pathOf(db, entry.parent_id);
    if (!segments) return null;
    const { chain, found } = await tree.resolve(db, segments);
    return found === segments.length ? { segments, chain } : null;
  }

  /** The entry's own node as an access level on a chain. */
  const itemLevel = (entry: TrashRow) => ({ access_level: entry.access_level }) as NodeRow;

  async function mayRestore(db: Kysely<DB>, actor: Actor, entry: TrashRow): Promise<boolean> {
    if (actor.role === 'Admin') return true;
    if (actor.role === 'Viewer' || entry.kind === 'site') return false;
    const place = await placeOf(db, entry);
    if (!place) return entry.deleted_by === actor.username;
    return effectiveAccess(actor, [...place.chain, itemLevel(entry)]) !== 'READ';
  }

  async function lockEntry(db: Kysely<DB>, actor: Actor, id: string): Promise<TrashRow> {
    const entry = await repo.lock(db, Number(id));
    if (!entry) throw notFound('TRASH_ENTRY_NOT_FOUND', `No trash entry ${id}: restored or purged already?`);
    if (!(await mayRestore(db, actor, entry))) {
      throw forbidden(`You may not restore "${entry.path}": you may not write where it was.`);
    }
    return entry;
  }

  return {
    /** Entries newest first, those the actor may restore (cursor paging). */
    async list(actor: Actor, query: TrashListQuery): Promise<TrashList> {
      if (actor.role === 'Viewer') throw forbidden('Viewers delete nothing, so they have no trash to see.');
      const limit = query.limit ?? TRASH_DEFAULT_LIMIT;
      let before = query.cursor === undefined ? null : entryOfCursor(query.cursor);
      const out: TrashListRow[] = [];
      for (;;) {
        const round = actor.role === 'Admin' ? limit + 1 : LIST_ROUND;
        const rows = await repo.list(ctx.db, before, round);
        for (const r of rows) {
          if (out.length > limit) break;
          if (await mayRestore(ctx.db, actor, r)) out.push(r);
        }
        if (out.length > limit || rows.length < round) break;
        before = rows[rows.length - 1]!.id;
      }
      const entries = out.slice(0, limit).map((r) => presentEntry(r, days));
      return presentTrashList(entries, out.length > limit);
    },

    /**
     * Puts the entry's item back where it was (409 RESTORE_PLACE_GONE when that container is gone, NAME_TAKEN when
     * its name is taken there), or into the container at `to`; with its history, everything below it and its id.
     */
    async restore(actor: Actor, body: TrashRestoreBody): Promise<TrashRestored> {
      return ctx.db.transaction().execute(async (trx) => {
        const entry = await lockEntry(trx, actor, body.id);
        const kind = entry.kind as NodeKind;
        let place: Place | null;
        if (body.to !== undefined) {
          if (kind === 'site') throw conflict('INVALID_MOVE', 'A site goes back to the top: it takes no "to".');
          const segments = itemPathSegments(body.to, 'to');
          place = { segments, chain: await locateContainer(trx, segments) };
        } else {
          place = await placeOf(trx, entry);
          if (!place) {
            const from = entry.path.split('/').slice(0, -1);
            throw conflict(
              'RESTORE_PLACE_GONE',
              `"${entry.path}" was in ${quotePath(from)}, which is gone; restore it elsewhere with "to".`,
            );
          }
        }
        const parent = place.chain[place.chain.length - 1];
        if (parent) {
          const realm = realmOf(entry.path.split('/'));
          if (realm !== realmOf(place.segments) || !canContain(parent.kind, realm, kind)) {
            throw conflict('INVALID_MOVE', `${aKind(kind)} cannot go into ${quotePath(place.segments)}.`);
          }
          requireAccess(actor, [...place.chain, itemLevel(entry)], 'WRITE', quotePath(place.segments));
        }
        const parentId = parent?.id ?? ROOT_NODE_ID;
        const segments = [...place.segments, entry.name];
        if (await tree.findChild(trx, parentId, entry.name)) {
          throw conflict(
            'NAME_TAKEN',
            `${quotePath(segments)} is taken: restore it elsewhere with "to", or move or rename that item first.`,
          );
        }
        await repo.moveNode(trx, entry.node_id, parentId, entry.name);
        await repo.deleteEntry(trx, entry.id);
        // A node's move is in the change log already (migration 0250), but for an asset's.
        if (kind === 'asset') {
          const at = isoTime(ctx.now());
          await recordChanges(trx, [
            { kind, itemId: entry.node_id, path: null, deleted: false, actor: actor.username, at },
          ]);
        }
        const href =
          kind === 'page'
            ? pageHref(segments)
            : segments[0] === ASSET_LIBRARY && kind === 'asset'
              ? assetHref(segments)
              : folderHref(segments);
        return { kind, path: segments.join('/'), href };
      });
    },

    /** Deletes an entry's item for good (admins). */
    async purge(actor: Actor, id: string): Promise<void> {
      if (actor.role !== 'Admin') throw forbidden('Only admins delete for good.');
      const keys = await ctx.db
        .transaction()
        .execute(async (trx) => purgeNode(trx, (await lockEntry(trx, actor, id)).node_id));
      await deleteUnreferencedBlobs(ctx, keys);
    },

    /** Purges the entries deleted more than `CMS_TRASH_DAYS` ago, a batch at a time; answers how many. */
    async purgeDue(): Promise<number> {
      const cutoff = isoTime(ctx.now() - days * 86_400_000);
      let purged = 0;
      for (;;) {
        const ids = await repo.dueIds(ctx.db, cutoff, PURGE_BATCH);
        for (const id of ids) {
          // Each in a transaction of its own; another node that purged it first leaves nothing to do.
          const keys = await ctx.db.transaction().execute(async (trx) => {
            const entry = await repo.lock(trx, id);
            return entry ? purgeNode(trx, entry.node_id) : null;
          });
          if (keys === null) continue;
          purged += 1;
          await deleteUnreferencedBlobs(ctx, keys);
        }
        if (ids.length < PURGE_BATCH) break;
      }
      return purged;
    },
  };
}

const PURGE_BATCH = 100;

export type TrashService = ReturnType<typeof createTrashService>;
