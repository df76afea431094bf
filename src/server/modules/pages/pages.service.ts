import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { settleClaim, type Actor, type ActorClaim, type AppContext } from '../../lib/context.js';
import { andThen } from '../../db/prepared.js';
import { notFound } from '../../lib/errors.js';
import { requireAccess } from '../tree/access.js';
import type { NodeRow } from '../tree/tree.repository.js';
import { docPathOf, pageJson, readPage, representationOf, trustedDoc, type PageRepresentation } from './page-docs.js';
import { isPagePath, locatePage } from './page-location.js';
import { createPageWorkflow } from './page-workflow.js';
import { createPageWrites } from './page-write.js';
import { pagesRepository as repo, type PageDocAtPath, type PageDocByPath } from './pages.repository.js';

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
   * The page at `segments` and its trusted doc, from the one-statement lookup, when the path is a site, then
   * folders or sections, then a page with a doc stored under the current epoch; undefined otherwise.
   */
  function trustedAt(segments: readonly string[], found: PageDocByPath | undefined) {
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

  const { readNow } = ctx.database;

  /**
   * The page whose trusted doc was stored with this path: one indexed read, no walk of the tree (the database
   * keeps stored paths true, migration 0090). Every role may read everywhere (access levels only ever take
   * writing away), so the ancestors' levels are not needed to answer.
   */
  function atStoredPath(actor: Actor, segments: readonly string[], stored: PageDocAtPath | undefined) {
    if (!stored) return undefined;
    requireAccess(actor, [], 'READ', 'this page');
    const last = segments.length - 1;
    const at = {
      id: stored.node_id,
      name: segments[last]!,
      siteName: segments[0]!,
      folderPath: segments.slice(1, last).join('/'),
    };
    return { json: pageJson(at, stored.doc), etag: stored.doc_etag };
  }

  /**
   * GET of a page, with a strong ETag of its JSON: from the doc stored with its path; else from its trusted doc
   * found by walking the path (and the path is stored with it); else assembled from its rows (and the doc stored).
   * With a `claim`, the first read proves the claimed actor, or the claim is confirmed before anything else.
   * Without one, the reads go through SQLite's read-only connection: a stored doc is answered now (no promise).
   */
  function get(
    actor: Actor,
    segments: readonly string[],
    claim?: ActorClaim,
  ): PageRepresentation | Promise<PageRepresentation> {
    const key = docPathOf(segments);
    if (key === undefined) return assembled(actor, segments, undefined);
    const stored = repo.docAtPath(ctx.db, key, claim ? { proof: claim.proof } : { now: readNow });
    return andThen(stored, (doc) =>
      andThen(settleClaim(actor, claim, doc?.proven), (who) => atStoredPath(who, segments, doc) ?? walked(who, key)),
    );

    /** The path and the doc in one statement (one snapshot: its epoch is no newer than the path it read). */
    function walked(who: Actor, path: string) {
      return andThen(repo.docByPath(ctx.db, segments, { now: readNow }), async (found) => {
        const fast = trustedAt(segments, found);
        if (!found || !fast) return assembled(who, segments, found);
        requireAccess(who, fast.chain as NodeRow[], 'READ', 'this page');
        const rep = representationOf(fast.at, fast.doc);
        const seq = found.doc_seq!;
        await repo.storeDocPath(ctx.db, { nodeId: fast.at.id, path, etag: rep.etag, seq, epoch: found.current_epoch });
        return rep;
      });
    }
  }

  /**
   * The general way (no trusted doc, a path that does not lead to a page, a very deep one), which also answers the
   * precise 4xx. The doc assembled is stored with the path when the one-statement walk `found` this page: its epoch
   * and `doc_seq` were read with the path, before the parts (a write since then makes the store a no-op).
   */
  async function assembled(actor: Actor, segments: readonly string[], found: PageDocByPath | undefined) {
    const { loc, node, chain } = await findPage(ctx.db, segments);
    requireAccess(actor, chain, 'READ', 'this page');
    const row = await repo.findPageDoc(ctx.db, node.id);
    if (!row) throw notFound('PAGE_NOT_FOUND', `No page "${loc.name}".`);
    const at = { id: node.id, name: loc.name, siteName: loc.siteName, folderPath: loc.folderPath };
    const walked = found?.chain[found.chain.length - 1]?.id === node.id && found.doc_seq !== null;
    const store = walked
      ? { seq: found.doc_seq!, epoch: found.current_epoch, path: segments.join('/') }
      : { seq: row.doc_seq, epoch: row.current_epoch, path: null };
    const { json, etag } = await readPage(ctx.db, at, row, store);
    return { json, etag };
  }

  return {
    get,
    ...createPageWrites(ctx, findPage),
    ...createPageWorkflow(ctx, findPage),
  };
}
export type PagesService = ReturnType<typeof createPagesService>;
