import {
  FIND_DEFAULT_LIMIT,
  FIND_MAX_LIMIT,
  type FolderChildren,
  type ItemKind,
  type TreeItem,
} from '../../../shared/api/folders.js';
import type { SiteSummary } from '../../../shared/api/sites.js';
import type { NodeKind } from '../../db/schema.js';
import type { Actor, ActorClaim, AppContext } from '../../lib/context.js';
import { requireAccess } from '../tree/access.js';
import { treeRepository as tree, type NodeRow } from '../tree/tree.repository.js';
import {
  assetTitleOf,
  compareNames,
  presentChildren,
  presentSite,
  presentTreeItem,
  titleOf,
} from './folders.presenter.js';
import { foldersRepository as repo, type ChildRow } from './folders.repository.js';
import { isContainer, isFolderLike, locateFolder, quotePath } from './folders.rules.js';
import { linkTargetsOf, represent, representWith, type Represented } from './folders.represent.js';

/** Every kind `find` may answer. */
const FINDABLE: readonly NodeKind[] = ['site', 'folder', 'section', 'sectionlink', 'externallink', 'page', 'asset'];

/** GETs of folders: one item, its children, the sites, and search by name or title. */
export function createFolderReads(ctx: AppContext) {
  const { readNow } = ctx.database;

  /**
   * The item from one statement (the path, the item and its children); undefined when the path does not lead to
   * a site, folder, section or link, is deeper than the joined lookups go, or shows section-link targets (their
   * paths take more reads): the general way answers those, with the precise 4xx.
   */
  function fromOneRead(
    actor: Actor,
    segments: readonly string[],
    found: { chain: NodeRow[]; children: ChildRow[] } | undefined,
  ): Represented | undefined {
    if (!found) return undefined;
    const { chain } = found;
    const node = chain[chain.length - 1]!;
    const children = isContainer(node.kind) ? found.children : [];
    if (!isFolderLike(node.kind) || linkTargetsOf(node, children).length) return undefined;
    requireAccess(actor, chain, 'READ', quotePath(segments));
    return representWith(actor, chain, segments, children, new Map());
  }

  return {
    /**
     * `get` answered now, synchronously, when the database reads synchronously (SQLite): see `fromOneRead`.
     * Undefined when `get` must answer.
     */
    getNow(actor: Actor, segments: readonly string[]): Represented | undefined {
      return readNow && fromOneRead(actor, segments, repo.withChildrenByPathNow(ctx.db, readNow, segments));
    },

    /**
     * GET: the item at `segments` as the caller sees it. With a `claim`, the first read proves the claimed actor,
     * or the claim is confirmed before anything is answered.
     */
    async get(actor: Actor, segments: readonly string[], claim?: ActorClaim): Promise<Represented> {
      let found;
      if (claim) {
        const read = await repo.withChildrenByPathProven(ctx.db, segments, claim.proof);
        if (!read.proven) actor = await claim.confirm();
        found = read.found;
      } else {
        found = readNow
          ? repo.withChildrenByPathNow(ctx.db, readNow, segments)
          : await repo.withChildrenByPath(ctx.db, segments);
      }
      const answer = fromOneRead(actor, segments, found);
      if (answer) return answer;
      const chain = await locateFolder(ctx.db, segments);
      requireAccess(actor, chain, 'READ', quotePath(segments));
      return represent(ctx.db, actor, chain, segments);
    },

    /** The children of a site, section, folder or asset folder with their titles, workflow states and changes. */
    async children(actor: Actor, segments: readonly string[]): Promise<FolderChildren> {
      const chain = await locateFolder(ctx.db, segments);
      requireAccess(actor, chain, 'READ', quotePath(segments));
      const node = chain[chain.length - 1]!;
      if (!isContainer(node.kind)) return { items: [] };
      return presentChildren(await repo.childSummaries(ctx.db, node.id));
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
