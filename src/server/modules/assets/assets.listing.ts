import type { AssetList, AssetListQuery } from '../../../shared/api/assets.js';
import type { Actor, AppContext } from '../../lib/context.js';
import { badRequest } from '../../lib/errors.js';
import { flushSearchIndex } from '../search/search.indexer.js';
import { requireAccess } from '../tree/access.js';
import { findFolder } from './assets.common.js';
import { presentAsset } from './assets.presenter.js';
import { assetListQueries as repo, sortValueOf, type ListFilter, type ListPosition } from './assets.list-queries.js';

/** The assets of a folder (or its subtree), a keyset page at a time with an opaque cursor. */
export function createAssetListing(ctx: AppContext) {
  function encodeCursor(q: AssetListQuery, pos: ListPosition): string {
    const c = { s: q.sort, o: q.order, v: pos.value, i: pos.id, ...(pos.name !== undefined ? { n: pos.name } : {}) };
    return Buffer.from(JSON.stringify(c)).toString('base64url');
  }

  function decodeCursor(q: AssetListQuery): ListPosition | null {
    if (!q.cursor) return null;
    const bad = () =>
      badRequest(
        'The cursor is not valid for this listing.',
        [{ path: 'query.cursor', message: 'is not a nextCursor of this sort and order' }],
        'INVALID_PARAMETER',
      );
    let c: { s?: unknown; o?: unknown; v?: unknown; i?: unknown; n?: unknown };
    try {
      c = JSON.parse(Buffer.from(q.cursor, 'base64url').toString('utf8')) as typeof c;
    } catch {
      throw bad();
    }
    if (c?.s !== q.sort || c.o !== q.order || typeof c.v !== 'string' || typeof c.i !== 'string') throw bad();
    const byName = q.sort === 'name' || q.sort === 'lastModifiedDate';
    if (!byName && typeof c.n !== 'string') throw bad();
    if (q.sort === 'size' && !/^-?\d{1,15}$/.test(c.v)) throw bad();
    return { value: c.v, id: c.i, ...(byName ? {} : { name: c.n as string }) };
  }

  /** A page of the assets of a folder (or its subtree), by keyset: every page costs the same. */
  async function list(actor: Actor, segments: readonly string[], q: AssetListQuery): Promise<AssetList> {
    const { chain, node, path } = await findFolder(ctx.db, segments);
    requireAccess(actor, chain, 'READ', path);
    const after = decodeCursor(q);
    const text = q.q?.trim().toLowerCase();
    const filter: ListFilter = {
      folderId: node.id,
      folderPath: path,
      recursive: q.recursive,
      q: text || undefined,
      type: q.type,
      state: q.state,
      missingAltText: q.missingAltText,
      sort: q.sort,
      order: q.order,
    };
    // `q` matches through the search index: what was written before is indexed first (read-your-writes).
    if (filter.q) await flushSearchIndex(ctx.db);
    const rows = await repo.listPage(ctx.db, filter, after, q.limit + 1);
    const total = await repo.listCount(ctx.db, filter);
    const page = rows.slice(0, q.limit);
    const lastRow = page[page.length - 1];
    const nextCursor =
      rows.length > q.limit && lastRow
        ? encodeCursor(q, {
            value: sortValueOf(lastRow, q.sort),
            id: lastRow.id,
            ...(q.sort === 'name' || q.sort === 'lastModifiedDate' ? {} : { name: lastRow.name }),
          })
        : null;
    return { items: page.map((r) => presentAsset(r, r.folder_path)), nextCursor, total };
  }

  return { list };
}
