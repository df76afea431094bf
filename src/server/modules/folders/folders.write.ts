import type { Kysely } from 'kysely';
import type { FolderPutBody } from '../../../shared/api/folders.js';
import { ASSET_LIBRARY } from '../../../shared/api/paths.js';
import { nextId } from '../../db/dialect.js';
import type { DB, NodeKind } from '../../db/schema.js';
import { ROOT_NODE_ID } from '../../db/structure.js';
import { isoTime, type Actor, type ActorClaim, type AppContext, type WriteScope } from '../../lib/context.js';
import { conflict, notFound, preconditionFailed } from '../../lib/errors.js';
import { createGuardedWrites, type Guarded } from '../../lib/guarded-write.js';
import { nextSeq } from '../../lib/remembered.js';
import { assertPreconditions } from '../../lib/etag.js';
import { requireAccess, requireSiteAdmin } from '../tree/access.js';
import { newNodeRow, treeRepository as tree, type NodeRow } from '../tree/tree.repository.js';
import { assertDistinctEntries, assertLocation, assertTemplate, fieldsOf, invalidField } from './folders.body.js';
import { addLandingPage, applyChildEntries, insertNavigationEntry, insertNode } from './folders.entries.js';
import { DEFAULT_SITE_TITLE, DEFAULT_TARGET_WINDOW } from './folders.presenter.js';
import {
  aKind,
  canContain,
  isContainer,
  isFolderLike,
  isNavigation,
  lockFound,
  missingError,
  quotePath,
  realmOf,
} from './folders.rules.js';
import { foldersRepository as repo, type FolderRead } from './folders.repository.js';
import { linkTargetsOf, represent, representWith, type Preconditions, type Represented } from './folders.represent.js';

type Tx = Kysely<DB>;

/** How many items a process remembers after writing their fields (each a row and its children's ids and names). */
const REMEMBERED_FOLDERS = 1000;
/** Items with more children than this are read again at each write (an asset folder may hold 100,000 assets). */
const REMEMBERED_CHILDREN = 500;

/**
 * Whether a PUT body changes nothing but columns of the item's own that need no read to check (display title,
 * target window, navigation class, link URL, workflow): what the properties form sends. Those updates take one
 * read and one write (guardedWrite).
 */
function ownFieldsOnly(body: FolderPutBody): boolean {
  const si = body.sectionInfo;
  return (
    !body.subfolders?.length &&
    !body.subsections?.length &&
    body.accessLevel === undefined &&
    si?.templateName === undefined &&
    si?.linkTarget === undefined
  );
}

/** The columns an update by `body` changes on the item at the end of `chain` (409 and 400 for what cannot be). */
async function patchOf(
  db: Tx,
  actor: Actor,
  chain: readonly NodeRow[],
  segments: readonly string[],
  body: FolderPutBody,
): Promise<Partial<NodeRow>> {
  const node = chain[chain.length - 1]!;
  if (body.id !== undefined && body.id !== node.id) {
    throw conflict('ID_MISMATCH', `The body's id "${body.id}" is not the id of ${quotePath(segments)} (${node.id}).`);
  }
  const fields = await fieldsOf(db, actor, node.kind, body, chain);
  return Object.fromEntries(
    Object.entries(fields).filter(([k, v]) => node[k as keyof NodeRow] !== v),
  ) as Partial<NodeRow>;
}

/** PUT of sites, folders, sections, links and asset folders: create at a free path, update what is there. */
export function createFolderWrites(ctx: AppContext) {
  const now = () => isoTime(ctx.now());
  const { readNow } = ctx.database;

  /**
   * An update of the item's own fields (ownFieldsOnly) as one statement when this process wrote it last, else as
   * one read and one write, no transaction (guarded-write.ts): the path, the item, its children, its doc row's
   * `seq` and the folder-doc epoch in one statement, then the write (writeFrom). Items with many children are
   * not remembered.
   */
  const guardedWrite = createGuardedWrites<FolderRead>(REMEMBERED_FOLDERS);

  /**
   * Checks an update of the item as `found` shows it (access, preconditions, fields), then writes its columns in
   * one `UPDATE` on condition that its doc row's `seq` and the folder-doc epoch are still those of `found`
   * (writeFieldsIf; anything its JSON shows, a rename, move or access level above it advances one), which also
   * proves a claimed actor. The answer is presented from `found` and the columns written. Undefined when the
   * condition failed or the item is not for this way (nothing or something other than a folder there, section
   * links to show); `wrote: false` when there was nothing to write.
   */
  async function writeFrom(
    found: FolderRead,
    actor: Actor,
    segments: readonly string[],
    body: FolderPutBody,
    pre: Preconditions,
    claim: ActorClaim | undefined,
  ): Promise<Guarded<FolderRead, Represented> | undefined> {
    const { chain } = found;
    const node = chain[chain.length - 1]!;
    const children = isContainer(node.kind) ? found.children : [];
    if (!isFolderLike(node.kind) || linkTargetsOf(node, children).length) return undefined;
    requireAccess(actor, chain, 'WRITE', quotePath(segments));
    const before = representWith(actor, chain, segments, children, new Map());
    assertPreconditions(pre, before.etag, quotePath(segments));
    const patch = await patchOf(ctx.db, actor, chain, segments, body);
    if (!Object.keys(patch).length) return { answer: before, wrote: false };
    const write = { ...patch, updated_at: now(), updated_by: actor.username };
    if (!(await repo.writeFieldsIf(ctx.db, node.id, write, found, claim?.proof))) return undefined;
    const written = [...chain.slice(0, -1), { ...node, ...write }];
    // The write advanced the doc row's seq, or made the row at 1 (migration 0130's triggers).
    const remember =
      found.children.length <= REMEMBERED_CHILDREN
        ? { ...found, chain: written, seq: found.seq === null ? 1 : nextSeq(found.seq) }
        : undefined;
    return { answer: representWith(actor, written, segments, children, new Map()), wrote: true, remember };
  }

  /** PUT on an existing item: only what the body sends changes. */
  async function update(
    db: Tx,
    actor: Actor,
    segments: readonly string[],
    resolved: NodeRow[],
    body: FolderPutBody,
    pre: Preconditions,
  ): Promise<Represented> {
    const found = resolved[resolved.length - 1]!;
    if (found.kind === 'page' || found.kind === 'asset') {
      throw conflict(
        'TYPE_MISMATCH',
        `${quotePath(segments)} is ${aKind(found.kind)}, not a folder; nothing was changed.`,
      );
    }
    const node = await lockFound(db, found, segments);
    const chain = [...resolved.slice(0, -1), node];
    requireAccess(actor, chain, 'WRITE', quotePath(segments));
    if (pre.ifMatch !== undefined || pre.ifNoneMatch !== undefined) {
      const { etag } = await represent(db, actor, chain, segments);
      assertPreconditions(pre, etag, quotePath(segments));
    }
    const patch = await patchOf(db, actor, chain, segments, body);
    if (Object.keys(patch).length) {
      await tree.update(db, node.id, { ...patch, updated_at: now(), updated_by: actor.username });
      Object.assign(node, patch);
    }
    await applyChildEntries(ctx, db, actor, chain, segments, body);
    return represent(db, actor, chain, segments);
  }

  /** PUT at a free path: a site, folder, section, section link, external link or asset folder is created. */
  async function create(
    db: Tx,
    actor: Actor,
    segments: readonly string[],
    resolved: NodeRow[],
    body: FolderPutBody,
    pre: Preconditions,
  ): Promise<Represented> {
    // If-Match names a representation; there is none yet.
    if (pre.ifMatch !== undefined) throw preconditionFailed(`Nothing is at ${quotePath(segments)} yet (If-Match).`);
    if (body.id !== undefined) {
      throw conflict('ID_MISMATCH', 'Leave id out when creating: the service assigns it. Nothing was created.');
    }
    const name = segments[segments.length - 1]!;
    const isSite = segments.length === 1;
    if (isSite && realmOf(segments) !== 'assets') requireSiteAdmin(actor, 'create');
    const realm = realmOf(segments);
    const found = isSite ? (await tree.findById(db, ROOT_NODE_ID))! : resolved[resolved.length - 1]!;
    if (!isContainer(found.kind) && found.kind !== 'root') {
      throw notFound('FOLDER_NOT_FOUND', `${quotePath(segments.slice(0, -1))} is ${aKind(found.kind)}, not a folder.`);
    }
    const parent = await lockFound(db, found, segments.slice(0, -1));
    const parentChain = isSite ? [] : [...resolved.slice(0, -1), parent];
    requireAccess(actor, parentChain, 'WRITE', quotePath(segments.slice(0, -1)));
    if (isSite && name === ASSET_LIBRARY) {
      throw conflict('NAME_TAKEN', `"${ASSET_LIBRARY}" is the asset library; choose another site name.`);
    }

    const si = body.sectionInfo;
    let kind: NodeKind;
    if (isSite) {
      if (si?.type !== undefined && si.type !== 'section') {
        throw invalidField('body.sectionInfo.type', 'must be "section" (or absent) for a site');
      }
      kind = 'site';
    } else if (realm === 'assets') {
      if (si) throw invalidField('body.sectionInfo', 'is not allowed: asset folders have no sectionInfo');
      kind = 'folder';
    } else {
      kind = si ? (si.type ?? 'section') : 'folder';
    }
    if (!isSite && !canContain(parent.kind, realm, kind)) {
      throw conflict(
        'TYPE_MISMATCH',
        `${aKind(kind).replace(/^a/, 'A')} cannot be put in ${aKind(parent.kind)}: sections and links live in sites and sections.`,
      );
    }

    const row = newNodeRow(await nextId(db, 'folder'), parent.id, kind, name, now());
    row.updated_by = actor.username;
    if (kind === 'site' || kind === 'section') {
      const templateName = si?.templateName ?? (kind === 'section' ? parent.template_name : null);
      if (!templateName) {
        throw invalidField(
          'body.sectionInfo.templateName',
          `is required to create ${aKind(kind)} (its landing page's template)`,
        );
      }
      row.template_name = templateName;
      row.display_title = kind === 'site' ? DEFAULT_SITE_TITLE : name;
    }
    if (kind === 'externallink' && !si?.externalLinkUrl) {
      throw invalidField('body.sectionInfo.externalLinkUrl', 'is required to create an external link');
    }
    if (kind === 'sectionlink' && !si?.linkTarget) {
      throw invalidField('body.sectionInfo.linkTarget', 'is required to create a section link');
    }
    if (kind !== 'folder') {
      row.target_window = DEFAULT_TARGET_WINDOW;
      row.nav_class = '';
      if (kind !== 'site' && kind !== 'section') row.display_title = name;
    }
    Object.assign(row, await fieldsOf(db, actor, kind, body, parentChain));
    if (row.template_name) await assertTemplate(db, row.template_name);

    if (isNavigation(kind)) await insertNavigationEntry(ctx, db, actor, row);
    else {
      await insertNode(db, row);
      if (kind === 'site') await addLandingPage(ctx, db, actor, row);
    }
    const chain = [...parentChain, row];
    await applyChildEntries(ctx, db, actor, chain, segments, body);
    return represent(db, actor, chain, segments);
  }

  return {
    /**
     * PUT: creates or updates the item at `segments`; answers it and whether it was created. An update of the
     * item's own fields is one read and one write when nothing else writes it meanwhile (guardedWrite); anything else
     * is one transaction. With a `claim`, the actor is taken on trust: that write proves it, any other way confirms
     * it first; the put answers only once it was proven or confirmed, and an error it throws leaves that to the
     * caller.
     */
    async put(
      actor: Actor,
      segments: readonly string[],
      input: FolderPutBody | null | undefined,
      pre: Preconditions = {},
      scope?: WriteScope,
    ): Promise<Represented & { created: boolean }> {
      const claim = scope?.claim;
      const body = input ?? {};
      assertLocation(segments, body);
      assertDistinctEntries(body);
      if (ownFieldsOnly(body)) {
        const quick = await guardedWrite(
          segments.join('/'),
          scope,
          async () => (await repo.withChildrenByPath(ctx.db, segments, { now: readNow })).found,
          async (found) => {
            const r = await writeFrom(found, actor, segments, body, pre, claim);
            return r && { ...r, answer: { ...r.answer, created: false } };
          },
        );
        if (quick) return quick;
      }
      // The write did not prove a claimed actor (another way, a lost race, or the claim failed): confirm it.
      if (claim) actor = await claim.confirm();
      return ctx.db.transaction().execute(async (trx) => {
        const { chain, found } = await tree.resolve(trx, segments);
        if (found === segments.length - 1) {
          // Lock the parent, then look again: a creator that got there first has committed by now, and this PUT
          // becomes an update of what it created (PostgreSQL; SQLite serialises writers anyway).
          const parentId = found === 0 ? ROOT_NODE_ID : chain[found - 1]!.id;
          if (!(await tree.lock(trx, parentId))) throw missingError(segments, found - 1);
          const child = await tree.findChild(trx, parentId, segments[found]!);
          if (!child) return { ...(await create(trx, actor, segments, chain, body, pre)), created: true };
          chain.push(child);
        } else if (found < segments.length) {
          throw missingError(segments, found);
        }
        return { ...(await update(trx, actor, segments, chain, body, pre)), created: false };
      });
    },
  };
}
