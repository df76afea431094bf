import {
  FIND_DEFAULT_LIMIT,
  FIND_MAX_LIMIT,
  type FolderChildren,
  type ItemKind,
  type TreeItem,
} from '../../../shared/api/folders.js';
import type { SiteSummary } from '../../../shared/api/sites.js';
import type { NodeKind } from '../../db/schema.js';
import { settleClaim, type Actor, type ActorClaim, type AppContext } from '../../lib/context.js';
import { andThen } from '../../db/prepared.js';
import { accessCapOf, accessUnderCap, effectiveAccess, requireAccess, type AccessLevel } from '../tree/access.js';
import type { SerialisedJson } from '../../lib/respond.js';
import { treeRepository as tree } from '../tree/tree.repository.js';
import {
  assetTitleOf,
  compareNames,
  presentChildren,
  presentSite,
  presentTreeItem,
  titleOf,
} from './folders.presenter.js';
import { foldersRepository as repo, type FolderDocAtPath, type FolderRead } from './folders.repository.js';
import { isContainer, isFolderLike, locateFolder, quotePath } from './folders.rules.js';
import { linkTargetsOf, represent, representWith, type Represented } from './folders.represent.js';

/** Every kind `find` may answer. */
const FINDABLE: readonly NodeKind[] = ['site', 'folder', 'section', 'sectionlink', 'externallink', 'page', 'asset'];

/** GETs of folders: one item, its children, the sites, and search by name or title. */
export function createFolderReads(ctx: AppContext) {
  const { readNow } = ctx.database;

  /**
   * The item from one statement (the path, the item and its children), presented; undefined when the path does not
   * lead to a site, folder, section or link, is deeper than the joined lookups go, or shows section-link targets
   * (their paths take more reads): the general way answers those, with the precise 4xx.
   */
  function fromOneRead(
    actor: Actor,
    segments: readonly string[],
    found: FolderRead | undefined,
  ): (Represented & { access: AccessLevel }) | undefined {
    if (!found) return undefined;
    const { chain } = found;
    const node = chain[chain.length - 1]!;
    const children = isContainer(node.kind) ? found.children : [];
    if (!isFolderLike(node.kind) || linkTargetsOf(node, children).length) return undefined;
    requireAccess(actor, chain, 'READ', quotePath(segments));
    return { ...representWith(actor, chain, segments, children, new Map()), access: effectiveAccess(actor, chain) };
  }

  /**
   * Whether an answer presented from the rows is stored for the next read: when no doc is stored at this path. One
   * made for another access level is kept (callers of different levels do not take turns rewriting it).
   */
  function storesDoc(found: FolderRead, segments: readonly string[]): boolean {
    return found.storedPath !== segments.join('/');
  }

  /** A doc found by its path, when it answers this caller: made for the access level they have there. */
  function docAnswer(actor: Actor, found: FolderDocAtPath | undefined): SerialisedJson | undefined {
    if (!found) return undefined;
    // Every role reads every item (levels only take writing away): the level decides only the JSON's accessLevel.
    const access = accessUnderCap(actor, found.doc_cap);
    return found.doc_access === access ? { json: found.doc, etag: found.doc_etag } : undefined;
  }

  /**
   * The item presented from its one statement (`found`, `answer` from fromOneRead), its doc stored for the next read
   * when storesDoc says so; the general way when that statement could not answer (with the precise 4xx).
   */
  async function answerFound(
    actor: Actor,
    segments: readonly string[],
    found: FolderRead | undefined,
    answer: (Represented & { access: AccessLevel }) | undefined,
  ): Promise<SerialisedJson> {
    if (answer) {
      if (storesDoc(found!, segments)) {
        // Conditional on the doc row's seq and the epoch as read with the rows.
        await repo.storeDoc(ctx.db, {
          id: found!.chain[found!.chain.length - 1]!.id,
          doc: answer.json,
          etag: answer.etag,
          path: segments.join('/'),
          access: answer.access,
          cap: accessCapOf(found!.chain),
          epoch: found!.epoch,
          seq: found!.seq,
        });
      }
      return { json: answer.json, etag: answer.etag };
    }
    const chain = await locateFolder(ctx.db, segments);
    requireAccess(actor, chain, 'READ', quotePath(segments));
    const { json, etag } = await represent(ctx.db, actor, chain, segments);
    return { json, etag };
  }

  /** How a lookup reads: proving `claim` when one is to be settled, else now when the database can (SQLite). */
  const modeOf = (claim: ActorClaim | undefined) => (claim ? { proof: claim.proof } : { now: readNow });

  /**
   * GET: the item at `segments` as the caller sees it: the doc stored at its path (one indexed read), else the path
   * and the item in one statement, presented and stored for the next read (storesDoc), else the general way. The
   * first read that finds something proves a `claim` (or it is confirmed). Without a claim on SQLite, what needs
   * no write is answered now (no promise).
   */
  function get(
    actor: Actor,
    segments: readonly string[],
    claim?: ActorClaim,
  ): SerialisedJson | Promise<SerialisedJson> {
    return andThen(repo.docAtPath(ctx.db, segments.join('/'), modeOf(claim)), (doc) => {
      const pending = doc ? undefined : claim;
      return andThen(
        settleClaim(actor, doc && claim, doc?.proven),
        (who) => docAnswer(who, doc) ?? withChildren(who, pending),
      );
    });

    function withChildren(who: Actor, pending: ActorClaim | undefined) {
      return andThen(repo.withChildrenByPath(ctx.db, segments, modeOf(pending)), ({ found, proven }) =>
        andThen(settleClaim(who, pending, proven), (reader) => {
          const answer = fromOneRead(reader, segments, found);
          if (answer && !storesDoc(found!, segments)) return { json: answer.json, etag: answer.etag };
          return answerFound(reader, segments, found, answer);
        }),
      );
    }
  }

  return {
    get,

    /**
     * The children (of `kinds`, all when absent) of a site, section, folder or asset folder with their titles,
     * workflow states and changes, and the caller's access level on it.
     */
    async children(actor: Actor, segments: readonly string[], kinds?: readonly ItemKind[]): Promise<FolderChildren> {
      const chain = await locateFolder(ctx.db, segments);
      requireAccess(actor, chain, 'READ', quotePath(segments));
      const node = chain[chain.length - 1]!;
      const accessLevel = effectiveAccess(actor, chain);
      if (!isContainer(node.kind)) return { accessLevel, items: [] };
      return presentChildren(accessLevel, await repo.childSummaries(ctx.db, node.id, kinds));
    },

    /** GET /cms/rest/sites: every site the caller may read (every signed-in user reads every site). */
    async listSites(_actor: Actor): Promise<SiteSummary[]> {
      const rows = await repo.sites(ctx.db);
      return rows.sort((a, b) => compareNames(a.name, b.name)).map(presentSite);
    },

    /**
     * Items whose name or title contains `q`, ignoring case: exact matches (of the name or the title) first, then
     * those starting with it, then the rest (shorter names first within each). Every signed-in user may read every
     * item.
     */
    async find(_actor: Actor, q: string, opts: { limit?: number; kinds?: ItemKind[] } = {}): Promise<TreeItem[]> {
      const limit = Math.min(Math.max(opts.limit ?? FIND_DEFAULT_LIMIT, 1), FIND_MAX_LIMIT);
      const kinds = opts.kinds?.length ? FINDABLE.filter((k) => opts.kinds!.includes(k as ItemKind)) : FINDABLE;
      const rows = await repo.find(ctx.db, q, kinds, limit);
      const paths = await tree.pathsOf(
        ctx.db,
        rows.map((r) => r.id),
      );
      const needle = q.toLocaleLowerCase();
      const titled = rows.map((r) => ({ ...r, title: r.kind === 'asset' ? assetTitleOf(r.fields) : titleOf(r) }));
      const rankOf = (text: string | undefined) => {
        const n = text?.toLocaleLowerCase();
        return n === undefined ? 3 : n === needle ? 0 : n.startsWith(needle) ? 1 : 2;
      };
      const rank = (r: (typeof titled)[number]) => Math.min(rankOf(r.name), rankOf(r.title));
      return titled
        .filter((r) => paths.has(r.id))
        .sort((a, b) => rank(a) - rank(b) || a.name.length - b.name.length || compareNames(a.name, b.name))
        .map((r) => presentTreeItem(r.kind, paths.get(r.id)!, r.title));
    },
  };
}
