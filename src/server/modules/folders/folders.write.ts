import type { Kysely } from 'kysely';
import type { FolderPutBody } from '../../../shared/api/folders.js';
import { ASSET_LIBRARY } from '../../../shared/api/paths.js';
import { nextId } from '../../db/dialect.js';
import type { DB, NodeKind } from '../../db/schema.js';
import { ROOT_NODE_ID } from '../../db/structure.js';
import { isoTime, type Actor, type AppContext } from '../../lib/context.js';
import { conflict, notFound, preconditionFailed } from '../../lib/errors.js';
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
  isNavigation,
  lockFound,
  missingError,
  quotePath,
  realmOf,
} from './folders.rules.js';
import { represent, type Preconditions, type Represented } from './folders.represent.js';

type Tx = Kysely<DB>;

/** PUT of sites, folders, sections, links and asset folders: create at a free path, update what is there. */
export function createFolderWrites(ctx: AppContext) {
  const now = () => isoTime(ctx.now());

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
    if (body.id !== undefined && body.id !== node.id) {
      throw conflict('ID_MISMATCH', `The body's id "${body.id}" is not the id of ${quotePath(segments)} (${node.id}).`);
    }
    const fields = await fieldsOf(db, actor, node.kind, body, chain);
    const patch = Object.fromEntries(
      Object.entries(fields).filter(([k, v]) => node[k as keyof NodeRow] !== v),
    ) as Partial<NodeRow>;
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
    /** PUT: creates or updates the item at `segments` in one transaction; answers it and whether it was created. */
    async put(
      actor: Actor,
      segments: readonly string[],
      input: FolderPutBody | null | undefined,
      pre: Preconditions = {},
    ): Promise<Represented & { created: boolean }> {
      const body = input ?? {};
      assertLocation(segments, body);
      assertDistinctEntries(body);
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
