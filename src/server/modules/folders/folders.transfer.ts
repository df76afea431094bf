import type { Kysely } from 'kysely';
import type { MoveBody, RenameBody, TreeItem } from '../../../shared/api/folders.js';
import { ASSET_LIBRARY } from '../../../shared/api/paths.js';
import { isUniqueViolation } from '../../db/dialect.js';
import type { DB } from '../../db/schema.js';
import { isoTime, type Actor, type AppContext } from '../../lib/context.js';
import { conflict, preconditionFailed } from '../../lib/errors.js';
import { assertIfMatch } from '../../lib/etag.js';
import { requireAccess, requireSiteAdmin } from '../tree/access.js';
import { itemPathSegments } from '../tree/paths.js';
import { treeRepository as tree, type NodeRow } from '../tree/tree.repository.js';
import { copyBlob, deleteBlobs } from '../assets/asset-blobs.js';
import { presentTreeItem } from './folders.presenter.js';
import { copySubtree, freeName } from './folders.copy.js';
import { foldersRepository as repo } from './folders.repository.js';
import { rewriteLinks } from '../pages/link-rewrite.js';
import {
  aKind,
  canContain,
  isLandingPage,
  isNavigation,
  locateContainer,
  locateItem,
  lockFound,
  quotePath,
  realmOf,
} from './folders.rules.js';

/**
 * The current ETag of a page or asset as its own module sends it (its GET), so that `If-Match` on a move or
 * rename of a page or asset means what it means on that item's PUT. Called outside any transaction.
 */
export type EtagSource = (actor: Actor, segments: readonly string[]) => Promise<string>;

interface Deps {
  represent(
    db: Kysely<DB>,
    actor: Actor,
    chain: readonly NodeRow[],
    segments: readonly string[],
  ): Promise<{ etag: string }>;
}

/** 409 INVALID_MOVE unless an item of this kind may go into the target (same realm, allowed kind). */
function assertPlacement(node: NodeRow, itemSegs: readonly string[], target: NodeRow, targetSegs: readonly string[]) {
  const realm = realmOf(itemSegs);
  if (realm !== realmOf(targetSegs)) {
    throw conflict(
      'INVALID_MOVE',
      realm === 'assets'
        ? `Assets and asset folders stay in the asset library (${ASSET_LIBRARY}/…).`
        : `Only assets and asset folders go into the asset library.`,
    );
  }
  if (!canContain(target.kind, realm, node.kind)) {
    throw conflict(
      'INVALID_MOVE',
      `${aKind(node.kind)} cannot go into ${aKind(target.kind)}: sections and links live in sites and sections.`,
    );
  }
}

/** 409 INVALID_MOVE for what never moves, copies or renames: the asset library, sites (except renames), landing pages. */
function assertTransferable(
  chain: readonly NodeRow[],
  segments: readonly string[],
  verb: 'moved' | 'copied' | 'renamed',
) {
  const node = chain[chain.length - 1]!;
  if (node.kind === 'library') throw conflict('INVALID_MOVE', `The asset library cannot be ${verb}.`);
  if (node.kind === 'site' && verb !== 'renamed')
    throw conflict('INVALID_MOVE', `A site cannot be ${verb}; sites stay at the top.`);
  if (verb !== 'copied' && isLandingPage(chain)) {
    throw conflict('INVALID_MOVE', `${quotePath(segments)} is the landing page of its section and cannot be ${verb}.`);
  }
}

/** Move, copy and rename of any item of the tree: folders, sections, links, pages, assets and asset folders. */
export function createTransfers(ctx: AppContext, deps: Deps) {
  const etagSources: Partial<Record<'page' | 'asset', EtagSource>> = {};

  /**
   * `If-Match` of a page or asset, checked before the transaction through the owning module's ETag (its
   * representation is that module's business). Answers a stamp of the item's rows at that moment; the
   * transaction compares it again under the row lock, so a change in between still fails with 412.
   */
  async function preconditionOfItem(
    actor: Actor,
    segments: readonly string[],
    ifMatch: string | undefined,
  ): Promise<string | undefined> {
    if (ifMatch === undefined || ifMatch.split(',').some((t) => t.trim() === '*')) return undefined;
    const { chain, found } = await tree.resolve(ctx.db, segments);
    const node = chain[chain.length - 1];
    if (found !== segments.length || (node!.kind !== 'page' && node!.kind !== 'asset')) return undefined;
    const kind = node!.kind as 'page' | 'asset';
    const source = etagSources[kind];
    if (!source) throw preconditionFailed(`The current ETag of ${quotePath(segments)} cannot be checked here.`);
    const stamp = await repo.itemStamp(ctx.db, node!.id);
    assertIfMatch(ifMatch, await source(actor, segments));
    return stamp ?? undefined;
  }

  /** 412 unless `ifMatch` (when sent) names the item's current ETag (see `preconditionOfItem` for pages/assets). */
  async function assertItemIfMatch(
    db: Kysely<DB>,
    actor: Actor,
    chain: readonly NodeRow[],
    segments: readonly string[],
    ifMatch: string | undefined,
    stamp: string | undefined,
  ) {
    if (ifMatch === undefined) return;
    const node = chain[chain.length - 1]!;
    if (node.kind === 'page' || node.kind === 'asset') {
      if (ifMatch.split(',').some((t) => t.trim() === '*')) return;
      if (stamp === undefined || stamp !== (await repo.itemStamp(db, node.id))) throw preconditionFailed();
      return;
    }
    assertIfMatch(ifMatch, (await deps.represent(db, actor, chain, segments)).etag);
  }

  /** Locks the item and the target in id order, so two transactions locking the same pair never deadlock. */
  async function lockPair(
    db: Kysely<DB>,
    item: { node: NodeRow; segments: readonly string[] },
    target: { node: NodeRow; segments: readonly string[] },
  ): Promise<[NodeRow, NodeRow]> {
    if (item.node.id > target.node.id) {
      const t = await lockFound(db, target.node, target.segments);
      return [await lockFound(db, item.node, item.segments), t];
    }
    const i = await lockFound(db, item.node, item.segments);
    return [i, item.node.id === target.node.id ? i : await lockFound(db, target.node, target.segments)];
  }

  /** 409 when `target` is the item or below it, read fresh after the locks (a concurrent move cannot slip in). */
  async function assertNotInside(db: Kysely<DB>, itemId: string, targetId: string, verb: string) {
    if ((await repo.ancestorIds(db, targetId)).includes(itemId)) {
      throw conflict('INVALID_MOVE', `An item cannot be ${verb} into itself or into something below it.`);
    }
  }

  return {
    /** Lets the pages and assets modules tell the current ETag of their items (If-Match on move/rename). */
    useEtagSource(kind: 'page' | 'asset', source: EtagSource) {
      etagSources[kind] = source;
    },

    /** Moves the item at `itemPath` into the container at `targetFolderPath`, keeping its name and id. */
    async move(actor: Actor, body: MoveBody, ifMatch?: string): Promise<TreeItem> {
      const itemSegs = itemPathSegments(body.itemPath, 'body.itemPath');
      const targetSegs = itemPathSegments(body.targetFolderPath, 'body.targetFolderPath');
      const stamp = await preconditionOfItem(actor, itemSegs, ifMatch);
      return ctx.db.transaction().execute(async (trx) => {
        const resolved = await locateItem(trx, itemSegs);
        assertTransferable(resolved, itemSegs, 'moved');
        const targetResolved = await locateContainer(trx, targetSegs);
        const found = resolved[resolved.length - 1]!;
        const targetFound = targetResolved[targetResolved.length - 1]!;
        assertPlacement(found, itemSegs, targetFound, targetSegs);
        const [node, target] = await lockPair(
          trx,
          { node: found, segments: itemSegs },
          { node: targetFound, segments: targetSegs },
        );
        await assertNotInside(trx, node.id, target.id, 'moved');
        const chain = [...resolved.slice(0, -1), node];
        requireAccess(actor, chain, 'WRITE', quotePath(itemSegs));
        requireAccess(actor, [...targetResolved.slice(0, -1), target], 'WRITE', quotePath(targetSegs));
        await assertItemIfMatch(trx, actor, chain, itemSegs, ifMatch, stamp);
        if (node.parent_id === target.id) return presentTreeItem(node.kind, itemSegs);
        const taken = () =>
          conflict('NAME_TAKEN', `Something named "${node.name}" already exists in ${quotePath(targetSegs)}.`);
        if (await tree.findChild(trx, target.id, node.name)) throw taken();
        const patch: Partial<NodeRow> = {
          parent_id: target.id,
          updated_at: isoTime(ctx.now()),
          updated_by: actor.username,
        };
        if (isNavigation(node.kind)) patch.sort_order = (await tree.maxSortOrder(trx, target.id)) + 1;
        try {
          await tree.update(trx, node.id, patch);
        } catch (err) {
          if (isUniqueViolation(err)) throw taken();
          throw err;
        }
        await rewriteLinks(trx, node.kind, itemSegs, [...targetSegs, node.name], {
          at: patch.updated_at!,
          username: actor.username,
        });
        return presentTreeItem(node.kind, [...targetSegs, node.name]);
      });
    },

    /**
     * Copies the item at `itemPath` with everything below it into `targetFolderPath`. Every copy gets new ids;
     * pages copy their widgets (shared assets stay linked), assets their blobs. Copies start as Drafts checked
     * out to the caller. A taken name becomes `<name>-copy`, `<name>-copy-2`, ….
     */
    async copy(actor: Actor, body: MoveBody): Promise<TreeItem> {
      const itemSegs = itemPathSegments(body.itemPath, 'body.itemPath');
      const targetSegs = itemPathSegments(body.targetFolderPath, 'body.targetFolderPath');
      // Blob copies are slow I/O: made before the transaction (which re-reads everything), dropped if unused.
      const blobCopies = new Map<string, string>();
      const made: string[] = [];
      try {
        if (realmOf(itemSegs) === 'assets') {
          const { chain, found } = await tree.resolve(ctx.db, itemSegs);
          if (found === itemSegs.length) {
            for (const key of await repo.subtreeBlobKeys(ctx.db, chain[chain.length - 1]!.id)) {
              const copy = await copyBlob(ctx, key);
              made.push(copy);
              blobCopies.set(key, copy);
            }
          }
        }
        const { item, used } = await ctx.db.transaction().execute(async (trx) => {
          const resolved = await locateItem(trx, itemSegs);
          assertTransferable(resolved, itemSegs, 'copied');
          const targetResolved = await locateContainer(trx, targetSegs);
          const found = resolved[resolved.length - 1]!;
          assertPlacement(found, itemSegs, targetResolved[targetResolved.length - 1]!, targetSegs);
          const target = await lockFound(trx, targetResolved[targetResolved.length - 1]!, targetSegs);
          await assertNotInside(trx, found.id, target.id, 'copied');
          requireAccess(actor, resolved, 'READ', quotePath(itemSegs));
          requireAccess(actor, [...targetResolved.slice(0, -1), target], 'WRITE', quotePath(targetSegs));
          const name = await freeName(trx, target.id, found.name, found.kind);
          const used = await copySubtree(ctx, trx, actor, found, target, name, blobCopies, made);
          return { item: presentTreeItem(found.kind, [...targetSegs, name]), used };
        });
        await deleteBlobs(
          ctx,
          made.filter((k) => !used.has(k)),
        );
        return item;
      } catch (err) {
        await deleteBlobs(ctx, made);
        throw err;
      }
    },

    /** Renames the item at `path` in its container (sites too; not the asset library or a landing page). */
    async rename(actor: Actor, body: RenameBody, ifMatch?: string): Promise<TreeItem> {
      const segs = itemPathSegments(body.path, 'body.path');
      const newName = body.newName;
      const stamp = await preconditionOfItem(actor, segs, ifMatch);
      return ctx.db.transaction().execute(async (trx) => {
        const resolved = await locateItem(trx, segs);
        assertTransferable(resolved, segs, 'renamed');
        const node = await lockFound(trx, resolved[resolved.length - 1]!, segs);
        const chain = [...resolved.slice(0, -1), node];
        requireAccess(actor, chain, 'WRITE', quotePath(segs));
        if (node.kind === 'site') requireSiteAdmin(actor, 'rename');
        await assertItemIfMatch(trx, actor, chain, segs, ifMatch, stamp);
        const renamed = [...segs.slice(0, -1), newName];
        if (newName === node.name) return presentTreeItem(node.kind, renamed);
        const taken = () =>
          conflict('NAME_TAKEN', `Something named "${newName}" already exists beside ${quotePath(segs)}.`);
        if (segs.length === 1 && newName === ASSET_LIBRARY) throw taken();
        if (await tree.findChild(trx, node.parent_id!, newName)) throw taken();
        const ts = isoTime(ctx.now());
        try {
          await tree.update(trx, node.id, { name: newName, updated_at: ts, updated_by: actor.username });
        } catch (err) {
          if (isUniqueViolation(err)) throw taken();
          throw err;
        }
        // The asset's row changes with its name (its last change, as before the item finder read names itself).
        if (node.kind === 'asset') await repo.touchAsset(trx, node.id, ts);
        await rewriteLinks(trx, node.kind, segs, renamed, { at: ts, username: actor.username });
        return presentTreeItem(node.kind, renamed);
      });
    },
  };
}
