import { SEARCH_DEFAULT_LIMIT, type SearchQuery, type SearchResults } from '../../../shared/api/search.js';
import type { AccessLevel } from '../../../shared/api/folders.js';
import type { Actor, AppContext } from '../../lib/context.js';
import { badRequest, notFound } from '../../lib/errors.js';
import { accessCapOf, accessUnderCap } from '../tree/access.js';
import { treeRepository, type NodeRow } from '../tree/tree.repository.js';
import { decodeCursor, encodeCursor, presentHit } from './search.presenter.js';
import { parseSearch } from './search.query.js';
import { searchRepository as repo, type SearchAfter, type SearchRow } from './search.repository.js';

const READABLE: readonly AccessLevel[] = ['READ', 'WRITE', 'ADMIN'];
/** Batches read while hits fall away for access: a bound, so one search never reads the whole index. */
const MAX_BATCHES = 5;

/**
 * Full-text search of pages, assets and folder items (`GET /cms/rest/search`): the engine's matches best first
 * (search.repository.ts), each kept only when the caller may read its folder, with its path resolved through the
 * tree now (the index holds node ids: moves need no reindexing) and a snippet of what matched.
 */
export function createSearchService(ctx: AppContext) {
  /** The node `folder` (or `site`) names, for "only below it"; 404 when it does not exist. */
  async function scopeOf(path: string, what: 'site' | 'folder'): Promise<string> {
    const segments = path.split('/').filter((s) => s.length > 0);
    if (segments.length === 0) throw badRequest(`\`${what}\` must name a ${what}.`, undefined, 'INVALID_PARAMETER');
    const { chain, found } = await treeRepository.resolve(ctx.db, segments);
    if (found < segments.length) {
      throw notFound(what === 'site' ? 'SITE_NOT_FOUND' : 'FOLDER_NOT_FOUND', `No ${what} "${segments.join('/')}".`);
    }
    return chain[chain.length - 1]!.id;
  }

  return {
    async search(actor: Actor, query: SearchQuery): Promise<SearchResults> {
      const limit = query.limit ?? SEARCH_DEFAULT_LIMIT;
      let after: SearchAfter | undefined;
      if (query.cursor !== undefined) {
        const decoded = decodeCursor(query.cursor);
        if (!decoded)
          throw badRequest('`cursor` is not the `next` of an earlier answer.', undefined, 'INVALID_PARAMETER');
        after = decoded;
      }
      const parsed = parseSearch(query.q);
      // Only operators, quotes or punctuation: no word to look for, so nothing matches.
      if (parsed.include.length === 0) return { items: [], next: null };

      const scopes: string[] = [];
      if (query.site) scopes.push(await scopeOf(query.site, 'site'));
      if (query.folder) scopes.push(await scopeOf(query.folder, 'folder'));
      // The folder lies in the site, or the two exclude each other (then nothing is below both).
      const underId = scopes[scopes.length - 1];
      if (query.site && query.folder) {
        const top = query.folder.split('/').find((s) => s.length > 0);
        if (top !== query.site) return { items: [], next: null };
      }

      const kept: { row: SearchRow; names: string[] }[] = [];
      let more = false;
      for (let batch = 0; batch < MAX_BATCHES && kept.length <= limit; batch++) {
        const rows = await repo.find(ctx.db, parsed, {
          ...(query.kind ? { kinds: query.kind } : {}),
          ...(query.state ? { states: query.state } : {}),
          ...(query.type ? { type: query.type } : {}),
          ...(underId ? { underId } : {}),
          ...(after ? { after } : {}),
          limit: limit + 1,
        });
        const chains = await repo.chains(
          ctx.db,
          rows.map((r) => r.node_id),
        );
        for (const row of rows) {
          const chain = chains.get(row.node_id);
          if (!chain) continue; // deleted since the match
          const cap = accessCapOf(chain.levels.map((access_level) => ({ access_level }) as NodeRow));
          if (!READABLE.includes(accessUnderCap(actor, cap))) continue;
          kept.push({ row, names: chain.names });
        }
        more = rows.length > limit;
        if (!more) break;
        const last = rows[rows.length - 1]!;
        after = { score: last.score, id: last.node_id };
      }
      const page = kept.slice(0, limit);
      const hasNext = kept.length > limit || (more && page.length === limit);
      const details = await repo.details(
        ctx.db,
        parsed,
        page.map((k) => k.row.node_id),
      );
      const items = page.map(({ row, names }) =>
        presentHit(row.kind, names.join('/'), row.title, details.get(row.node_id)),
      );
      const lastKept = page[page.length - 1];
      return {
        items,
        next: hasNext && lastKept ? encodeCursor({ score: lastKept.row.score, id: lastKept.row.node_id }) : null,
      };
    },
  };
}

export type SearchService = ReturnType<typeof createSearchService>;
