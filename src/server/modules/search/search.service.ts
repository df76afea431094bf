import { SEARCH_DEFAULT_LIMIT, type SearchQuery, type SearchResults } from '../../../shared/api/search.js';
import type { AccessLevel } from '../../../shared/api/folders.js';
import type { Actor, AppContext } from '../../lib/context.js';
import { badRequest, notFound } from '../../lib/errors.js';
import { accessCapOf, accessUnderCap } from '../tree/access.js';
import { treeRepository, type NodeRow } from '../tree/tree.repository.js';
import { decodeCursor, encodeCursor, presentHit, type SearchCursor } from './search.presenter.js';
import { flushSearchIndex } from './search.indexer.js';
import { parseSearch } from './search.query.js';
import { searchRepository as repo, type SearchRow } from './search.repository.js';

const READABLE: readonly AccessLevel[] = ['READ', 'WRITE', 'ADMIN'];
/** Rounds of candidates read while filters and access leave too few: a bound, so no search reads the whole index. */
const MAX_BATCHES = 4;
/** The first round asks the engine for this many candidates per hit wanted; each further round for four times more. */
const FIRST_ROUND_FACTOR = 2;

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
      let cursor: SearchCursor | undefined;
      if (query.cursor !== undefined) {
        const decoded = decodeCursor(query.cursor);
        if (!decoded)
          throw badRequest('`cursor` is not the `next` of an earlier answer.', undefined, 'INVALID_PARAMETER');
        cursor = decoded;
      }
      const parsed = parseSearch(query.q);
      // Only operators, quotes or punctuation: no word to look for, so nothing matches.
      if (parsed.include.length === 0) return { items: [], next: null, capped: false };

      const scopes: string[] = [];
      if (query.site) scopes.push(await scopeOf(query.site, 'site'));
      if (query.folder) scopes.push(await scopeOf(query.folder, 'folder'));
      // The folder lies in the site, or the two exclude each other (then nothing is below both).
      const underId = scopes[scopes.length - 1];
      if (query.site && query.folder) {
        const top = query.folder.split('/').find((s) => s.length > 0);
        if (top !== query.site) return { items: [], next: null, capped: false };
      }

      // What was written before this search is indexed first (search.indexer.ts).
      await flushSearchIndex(ctx.db);
      const filter = {
        ...(query.kind ? { kinds: query.kind } : {}),
        ...(query.state ? { states: query.state } : {}),
        ...(query.type ? { type: query.type } : {}),
        ...(underId ? { underId } : {}),
      };
      // More matches than the limit: only the newest are ranked (the cursor keeps where they start, so every page
      // pages through the same ones).
      const floor = cursor ? cursor.floor : await repo.floor(ctx.db, parsed, filter, ctx.config.searchRankLimit);
      // The engine's best candidates, capped; those the filters or access leave out are skipped, and when too few
      // remain the next round starts after the last candidate seen (never again from the top).
      const kept: SearchRow[] = [];
      const names = new Map<string, string[]>();
      let position = cursor?.after ?? null;
      let exhausted = false;
      let round = (limit + 1) * FIRST_ROUND_FACTOR;
      for (let batch = 0; batch < MAX_BATCHES && kept.length <= limit; batch++, round *= 4) {
        const rows = await repo.find(ctx.db, parsed, filter, position, round, floor);
        const chains = await repo.chains(
          ctx.db,
          rows.filter((r) => r.wanted).map((r) => r.node_id),
        );
        for (const row of rows) {
          position = { tier: row.tier, score: row.score, id: row.id };
          const chain = chains.get(row.node_id);
          if (!row.wanted || !chain) continue; // filtered out, or deleted since the match
          const cap = accessCapOf(chain.levels.map((access_level) => ({ access_level }) as NodeRow));
          if (!READABLE.includes(accessUnderCap(actor, cap))) continue;
          kept.push(row);
          names.set(row.node_id, chain.names);
          if (kept.length > limit) break;
        }
        if (rows.length < round) {
          exhausted = true;
          break;
        }
      }
      const page = kept.slice(0, limit);
      const last = page[page.length - 1];
      // More kept than a page: the next starts after the page's last hit. A short page with candidates left
      // (every round spent): after the last candidate seen, so paging on never skips a readable hit.
      const nextAfter =
        kept.length > limit && last ? { tier: last.tier, score: last.score, id: last.id } : exhausted ? null : position;
      const details = await repo.details(
        ctx.db,
        parsed,
        page.map((r) => r.id),
      );
      const items = page.map((row) =>
        presentHit(row.kind, names.get(row.node_id)!.join('/'), row.title, details.get(row.node_id)),
      );
      return { items, next: nextAfter ? encodeCursor({ after: nextAfter, floor }) : null, capped: floor !== null };
    },
  };
}

export type SearchService = ReturnType<typeof createSearchService>;
