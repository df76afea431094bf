import type { Kysely } from 'kysely';
import type { Page } from '../../../shared/api/pages.js';
import { ASSET_LIBRARY } from '../../../shared/api/paths.js';
import {
  REVISIONS_DEFAULT_LIMIT,
  type RestoreBody,
  type RevisionKind,
  type RevisionList,
  type RevisionListQuery,
  type VersionQuery,
} from '../../../shared/api/revisions.js';
import type { DB } from '../../db/schema.js';
import type { Actor, AppContext } from '../../lib/context.js';
import { conflict, notFound } from '../../lib/errors.js';
import type { Preconditions } from '../../lib/etag.js';
import { withEtag, type SerialisedJson } from '../../lib/respond.js';
import type { AssetsService } from '../assets/assets.service.js';
import { pageJson } from '../pages/page-docs.js';
import type { PagesService } from '../pages/pages.service.js';
import { requireAccess } from '../tree/access.js';
import { treeRepository } from '../tree/tree.repository.js';
import { presentRevisionList, revisionOfCursor } from './revisions.presenter.js';
import { revisionsRepository as repo, type RevisionRow } from './revisions.repository.js';
import { restoreBodyOf, sharedAssetPaths } from './restore-page.js';

/**
 * History of pages and assets: the list of an item's revisions, one revision or the live one as a GET answered it,
 * and restoring one. Revisions are written by the database in the statement of each write (migration 0280); this
 * only reads them, and restores through the pages' and assets' own write paths.
 */
export function createRevisionsService(ctx: AppContext, items: { pages: PagesService; assets: AssetsService }) {
  /** The page or asset at `segments` (404 PAGE_NOT_FOUND / ASSET_NOT_FOUND), readable by `actor`. */
  async function locate(db: Kysely<DB>, actor: Actor, kind: RevisionKind, segments: readonly string[]) {
    const want = kind === 'pages' ? 'page' : 'asset';
    const { chain } = await treeRepository.resolve(db, segments);
    const node = chain[chain.length - 1];
    const inPlace = kind === 'pages' ? segments[0] !== ASSET_LIBRARY : segments[0] === ASSET_LIBRARY;
    if (!inPlace || segments.length < 2 || chain.length !== segments.length || node?.kind !== want) {
      throw notFound(kind === 'pages' ? 'PAGE_NOT_FOUND' : 'ASSET_NOT_FOUND', `No ${want} at ${segments.join('/')}.`);
    }
    requireAccess(actor, chain, 'READ', segments.join('/'));
    return node;
  }

  /** Revision `n` of the item (404 REVISION_NOT_FOUND). */
  async function revisionOf(itemId: string, n: number, segments: readonly string[]): Promise<RevisionRow> {
    const row = await repo.find(ctx.db, itemId, n);
    if (!row) throw notFound('REVISION_NOT_FOUND', `${segments.join('/')} has no revision ${n}.`);
    return row;
  }

  /** The JSON a GET answered at the revision: a page's doc with its location, an asset's doc as it is. */
  function jsonOf(row: RevisionRow, id: string, segments: readonly string[]): string {
    if (row.kind === 'asset') return row.doc;
    const at = {
      id,
      name: segments[segments.length - 1]!,
      siteName: segments[0]!,
      folderPath: segments.slice(1, -1).join('/'),
    };
    return pageJson(at, row.doc);
  }

  return {
    /** The item's revisions, newest first, a page at a time. */
    async list(
      actor: Actor,
      kind: RevisionKind,
      segments: readonly string[],
      query: RevisionListQuery,
    ): Promise<RevisionList> {
      const before = query.cursor === undefined ? undefined : revisionOfCursor(query.cursor);
      const node = await locate(ctx.db, actor, kind, segments);
      const limit = query.limit ?? REVISIONS_DEFAULT_LIMIT;
      const rows = await repo.list(ctx.db, node.id, limit + 1, before);
      const live = await repo.live(ctx.db, node.id);
      return presentRevisionList(rows.slice(0, limit), rows.length > limit, live);
    },

    /** `?revision=N` or `?version=live` of a by-path GET: the item as a GET answered it then, with its ETag. */
    async version(
      actor: Actor,
      kind: RevisionKind,
      segments: readonly string[],
      query: VersionQuery,
    ): Promise<SerialisedJson> {
      const node = await locate(ctx.db, actor, kind, segments);
      let n = query.revision;
      if (n === undefined) {
        const live = await repo.live(ctx.db, node.id);
        if (live === null) {
          throw notFound('NO_LIVE_REVISION', `${segments.join('/')} has no live version: it is not approved.`);
        }
        n = live;
      }
      return withEtag(jsonOf(await revisionOf(node.id, n, segments), node.id, segments));
    },

    /**
     * Makes revision `body.revision`'s content the item's current content as a new revision, through the item's
     * own write (access, lease, workflow and `If-Match` as for a PUT). A page whose revision links shared assets
     * that are gone is refused (409 RESTORE_ASSETS_MISSING naming them).
     */
    async restore(
      actor: Actor,
      kind: RevisionKind,
      segments: readonly string[],
      body: RestoreBody,
      pre: Preconditions,
    ): Promise<SerialisedJson> {
      const node = await locate(ctx.db, actor, kind, segments);
      const row = await revisionOf(node.id, body.revision, segments);
      if (row.kind === 'asset') return items.assets.restore(actor, segments, row, pre.ifMatch);
      const revision = JSON.parse(jsonOf(row, node.id, segments)) as Page;
      const missing: string[] = [];
      for (const path of sharedAssetPaths(revision)) {
        const names = path.split('/');
        const { chain } = await treeRepository.resolve(ctx.db, names);
        if (chain.length !== names.length || chain[chain.length - 1]?.kind !== 'asset') missing.push(path);
      }
      if (missing.length) {
        throw conflict(
          'RESTORE_ASSETS_MISSING',
          `Revision ${body.revision} links shared assets that no longer exist: ${missing.join(', ')}.`,
          { missing },
        );
      }
      const now = await items.pages.get(actor, segments);
      const current = JSON.parse(now.json) as Page;
      const r = await items.pages.put(actor, segments, restoreBodyOf(revision, current), pre);
      return { json: r.responseJson, etag: r.etag };
    },
  };
}
export type RevisionsService = ReturnType<typeof createRevisionsService>;
