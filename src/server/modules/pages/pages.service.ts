import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { Actor, AppContext } from '../../lib/context.js';
import { notFound } from '../../lib/errors.js';
import { requireAccess } from '../tree/access.js';
import type { NodeRow } from '../tree/tree.repository.js';
import { readPage, representationOf, trustedDoc, type PageRepresentation } from './page-docs.js';
import { isPagePath, locatePage } from './page-location.js';
import { createPageWorkflow } from './page-workflow.js';
import { createPageWrites } from './page-write.js';
import { MAX_DOC_PATH_DEPTH, pagesRepository as repo } from './pages.repository.js';

export type { PageRepresentation } from './page-docs.js';
export type { PagePutResult } from './page-write.js';

/**
 * Pages: read by everyone signed in, written by Contributors, Editors and Admins where folders allow it.
 * Reading is here (page-docs.ts: the stored representation); writing in page-write.ts; transitions and bulk
 * workflow in page-workflow.ts.
 */
export function createPagesService(ctx: AppContext) {
  /** The page at `segments` (404 PAGE_NOT_FOUND when nothing or something else is there). */
  async function findPage(db: Kysely<DB>, segments: readonly string[]) {
    const loc = await locatePage(db, segments);
    const node = loc.occupant;
    if (!node || node.kind !== 'page') {
      throw notFound('PAGE_NOT_FOUND', `No page "${loc.name}" in ${segments.slice(0, -1).join('/')}.`);
    }
    return { loc, node, chain: [...loc.parentChain, node] };
  }

  /**
   * The page at `segments` and its trusted doc, in one statement, when the path is a site, then folders or
   * sections, then a page with a doc stored under the current epoch; undefined otherwise.
   */
  async function trustedDocByPath(segments: readonly string[]) {
    if (segments.length < 2 || segments.length > MAX_DOC_PATH_DEPTH) return undefined;
    const found = await repo.docByPath(ctx.db, segments);
    if (!found) return undefined;
    const { chain } = found;
    const last = chain.length - 1;
    const doc = trustedDoc(found);
    if (!isPagePath(chain.map((n) => n?.kind)) || doc === null) return undefined;
    const at = {
      id: chain[last]!.id,
      name: segments[last]!,
      siteName: segments[0]!,
      folderPath: segments.slice(1, -1).join('/'),
    };
    return { chain, at, doc };
  }

  return {
    /** The page with a strong ETag of its JSON: its stored doc, or assembled (and stored) when it has none. */
    async get(actor: Actor, segments: readonly string[]): Promise<PageRepresentation> {
      const fast = await trustedDocByPath(segments);
      if (fast) {
        requireAccess(actor, fast.chain as NodeRow[], 'READ', 'this page');
        return representationOf(fast.at, fast.doc);
      }
      // Anything else (no trusted doc, a path that does not lead to a page, a very deep one): the general way,
      // which also answers the precise 4xx.
      const { loc, node, chain } = await findPage(ctx.db, segments);
      requireAccess(actor, chain, 'READ', 'this page');
      const row = await repo.findPageDoc(ctx.db, node.id);
      if (!row) throw notFound('PAGE_NOT_FOUND', `No page "${loc.name}".`);
      const at = { id: node.id, name: loc.name, siteName: loc.siteName, folderPath: loc.folderPath };
      const { json, etag } = await readPage(ctx.db, at, row, true);
      return { json, etag };
    },
    ...createPageWrites(ctx, findPage),
    ...createPageWorkflow(ctx, findPage),
  };
}
export type PagesService = ReturnType<typeof createPagesService>;
