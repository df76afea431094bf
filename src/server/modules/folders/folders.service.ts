import type { Kysely } from 'kysely';
import type { FieldError } from '../../../shared/api/errors.js';
import {
  DEFAULT_FOLDER_WORKFLOW,
  ExternalUrl,
  FIND_DEFAULT_LIMIT,
  FIND_MAX_LIMIT,
  type Folder,
  type FolderChildren,
  type FolderContents,
  type FolderPutBody,
  type ItemKind,
  type SectionInfoInput,
  type TreeItem,
} from '../../../shared/api/folders.js';
import { ASSET_LIBRARY, segmentsOfHref, splitPath } from '../../../shared/api/paths.js';
import type { SiteSummary } from '../../../shared/api/sites.js';
import { DEFAULT_WORKFLOW } from '../../../shared/api/workflow.js';
import { isUniqueViolation, nextId } from '../../db/dialect.js';
import type { DB, NodeKind } from '../../db/schema.js';
import { ROOT_NODE_ID } from '../../db/structure.js';
import { isoTime, type Actor, type AppContext } from '../../lib/context.js';
import { badRequest, conflict, forbidden, notFound, preconditionFailed } from '../../lib/errors.js';
import { assertIfMatch, assertPreconditions, etagOf } from '../../lib/etag.js';
import { insertPageRecord, LANDING_PAGE_NAME } from '../pages/page-records.js';
import { effectiveAccess, requireAccess, requireSiteAdmin, type AccessLevel } from '../tree/access.js';
import { assertValidNames } from '../tree/paths.js';
import { newNodeRow, treeRepository as tree, type NodeRow } from '../tree/tree.repository.js';
import {
  compareNames,
  DEFAULT_SITE_TITLE,
  DEFAULT_TARGET_WINDOW,
  assetTitleOf,
  presentChildren,
  presentContents,
  presentCounts,
  presentFolder,
  presentSite,
  presentTreeItem,
  titleOf,
} from './folders.presenter.js';
import { foldersRepository as repo } from './folders.repository.js';
import {
  aKind,
  canContain,
  isContainer,
  isNavigation,
  locateFolder,
  lockFound,
  missingError,
  quotePath,
  realmOf,
} from './folders.rules.js';
import { deleteBlobs } from './folders.blobs.js';
import { createTransfers, type EtagSource } from './folders.transfer.js';

/** A folder as sent: the object, its exact JSON and that JSON's strong ETag. */
export interface Represented {
  folder: Folder;
  json: string;
  etag: string;
}

/** Conditional request headers of a write. */
export interface Preconditions {
  ifMatch?: string;
  /** `*` (or the current ETag) makes a PUT create-only: 412 when something is there. */
  ifNoneMatch?: string;
}

type Tx = Kysely<DB>;

/** Every kind `find` may answer. */
const FINDABLE: readonly NodeKind[] = ['site', 'folder', 'section', 'sectionlink', 'externallink', 'page', 'asset'];

/** `workflow` of a body as stored: null follows the system default (`[default]`). */
function storedWorkflow(value: string): string | null {
  if (value === DEFAULT_FOLDER_WORKFLOW) return null;
  if (value === DEFAULT_WORKFLOW) return value;
  throw badRequest('Unknown workflow.', [
    { path: 'body.workflow', message: `must be "${DEFAULT_FOLDER_WORKFLOW}" or "${DEFAULT_WORKFLOW}"` },
  ]);
}

/** 409 LOCATION_MISMATCH when `name`, `siteName` or `path` of the body differ from the URL (spec §7.1). */
function assertLocation(segments: readonly string[], body: FolderPutBody): void {
  const isTop = segments.length === 1;
  const name = isTop ? '' : segments[segments.length - 1]!;
  const path = segments.slice(1, -1).join('/');
  const mismatch = (field: string, sent: string, url: string) =>
    conflict(
      'LOCATION_MISMATCH',
      `The body's ${field} "${sent}" differs from the URL's "${url}"; nothing was changed.`,
      {
        field,
      },
    );
  if (body.siteName !== undefined && body.siteName !== segments[0])
    throw mismatch('siteName', body.siteName, segments[0]!);
  // A site's `name` is unused (spec 4.2): "" or the site's own name are both accepted.
  if (body.name !== undefined && body.name !== name && !(isTop && body.name === segments[0])) {
    throw mismatch('name', body.name, name);
  }
  if (body.path !== undefined && splitPath(body.path).join('/') !== path) throw mismatch('path', body.path, path);
}

/** 400 when `subfolders`/`subsections` name one item twice. */
function assertDistinctEntries(body: FolderPutBody): void {
  const seen = new Set<string>();
  const errors: FieldError[] = [];
  const check = (list: { name: string }[] | undefined, field: string) =>
    list?.forEach((e, i) => {
      if (seen.has(e.name)) errors.push({ path: `body.${field}.${i}.name`, message: `"${e.name}" is listed twice` });
      seen.add(e.name);
    });
  check(body.subfolders, 'subfolders');
  check(body.subsections, 'subsections');
  if (errors.length) throw badRequest('An entry is listed twice.', errors);
}

/** The folder href of an entry, when one is sent, must be the entry's own address (409 LOCATION_MISMATCH). */
function assertEntryHref(href: string | undefined, expected: readonly string[], field: string): void {
  if (href === undefined || href === '') return;
  const ok = href.includes('/folders/by-path/') && segmentsOfHref(href).join('/') === expected.join('/');
  if (!ok) {
    throw conflict('LOCATION_MISMATCH', `${field} "${href}" is not the address of ${quotePath(expected)}.`, {
      field,
    });
  }
}

const invalidField = (field: string, message: string) =>
  badRequest(`The request body is invalid: ${field} ${message}.`, [{ path: field, message }]);

/** Sites, folders, sections, section links, external links and asset folders: rules and transactions. */
export function createFoldersService(ctx: AppContext) {
  const now = () => isoTime(ctx.now());

  /** The representation of the item at the end of `chain` for `actor`: the folder, its JSON and ETag. */
  async function represent(db: Tx, actor: Actor, chain: readonly NodeRow[], segments: readonly string[]) {
    const node = chain[chain.length - 1]!;
    const children = isContainer(node.kind) ? await repo.children(db, node.id) : [];
    const targetIds = children
      .filter((c) => c.kind === 'sectionlink' && c.link_target_id)
      .map((c) => c.link_target_id!);
    if (node.link_target_id) targetIds.push(node.link_target_id);
    const targetPaths = targetIds.length ? await tree.pathsOf(db, targetIds) : new Map<string, string[]>();
    const folder = presentFolder({ segments, node, accessLevel: effectiveAccess(actor, chain), children, targetPaths });
    const json = JSON.stringify(folder);
    return { folder, json, etag: etagOf(json) } satisfies Represented;
  }

  async function assertTemplate(db: Tx, name: string): Promise<void> {
    if (!(await repo.templateExists(db, name))) throw notFound('TEMPLATE_NOT_FOUND', `No template named "${name}".`);
  }

  /** The section (or site) a section link's `href` names; 400/404/409 otherwise. */
  async function linkTarget(db: Tx, href: string, field: string): Promise<NodeRow> {
    if (!href.includes('/folders/by-path/')) {
      throw invalidField(field, 'must be the address of a section (/cms/rest/folders/by-path/…)');
    }
    const segments = segmentsOfHref(href);
    if (segments.length === 0) throw invalidField(field, 'names no section');
    assertValidNames(segments, field, 'INVALID_BODY');
    if (segments[0] === ASSET_LIBRARY) throw invalidField(field, 'must name a section of a site');
    const { chain, found } = await tree.resolve(db, segments);
    if (found < segments.length) throw missingError(segments, found);
    const target = chain[chain.length - 1]!;
    if (target.kind !== 'section' && target.kind !== 'site') {
      throw conflict(
        'TYPE_MISMATCH',
        `${quotePath(segments)} is ${aKind(target.kind)}; section links point at sections.`,
      );
    }
    return target;
  }

  /**
   * The columns `sectionInfo`, `workflow` and `accessLevel` of a body set on an item of `kind` (only what the
   * body sends). `accessAt` is the chain whose access level the caller has now (for the accessLevel rule).
   */
  async function fieldsOf(
    db: Tx,
    actor: Actor,
    kind: NodeKind,
    body: FolderPutBody,
    accessAt: readonly NodeRow[],
  ): Promise<Partial<NodeRow>> {
    const patch: Partial<NodeRow> = {};
    const si: SectionInfoInput | undefined = body.sectionInfo;
    if (si) {
      if (kind === 'folder' || kind === 'library') {
        throw conflict('TYPE_MISMATCH', `This is ${aKind(kind)}: only sites, sections and links have sectionInfo.`);
      }
      const expected = kind === 'externallink' || kind === 'sectionlink' ? kind : 'section';
      if (si.type !== undefined && si.type !== expected) {
        throw conflict('TYPE_MISMATCH', `This is ${aKind(kind)}, not ${aKind(si.type)}; its type cannot change.`);
      }
      if (si.displayTitle !== undefined) patch.display_title = si.displayTitle;
      if (si.targetWindow !== undefined) patch.target_window = si.targetWindow;
      if (si.navClass !== undefined) patch.nav_class = si.navClass;
      const notHere = (field: string, applies: string) =>
        invalidField(`body.sectionInfo.${field}`, `applies to ${applies} only`);
      if (si.templateName !== undefined) {
        if (kind !== 'site' && kind !== 'section') throw notHere('templateName', 'sites and sections');
        await assertTemplate(db, si.templateName);
        patch.template_name = si.templateName;
      }
      if (si.externalLinkUrl !== undefined) {
        if (kind !== 'externallink') throw notHere('externalLinkUrl', 'external links');
        patch.external_url = si.externalLinkUrl;
      }
      if (si.linkTarget !== undefined) {
        if (kind !== 'sectionlink') throw notHere('linkTarget', 'section links');
        patch.link_target_id = (await linkTarget(db, si.linkTarget.href, 'body.sectionInfo.linkTarget.href')).id;
      }
    }
    if (body.workflow !== undefined) patch.workflow = storedWorkflow(body.workflow);
    if (body.accessLevel !== undefined) {
      const current: AccessLevel = effectiveAccess(actor, accessAt);
      if (actor.role !== 'Admin') {
        // A round trip sends back the level the GET showed; anything else is a change only admins may make.
        if (body.accessLevel !== current) throw forbidden('Only admins may set accessLevel.');
      } else if (body.accessLevel === 'READ') {
        patch.access_level = 'READ';
      } else if (body.accessLevel === 'WRITE') {
        // WRITE is the most a non-admin role gives, so it lifts a restriction set here.
        patch.access_level = null;
      }
      // ADMIN (what every admin's GET shows) restricts nobody and changes nothing.
    }
    return patch;
  }

  async function insertNode(db: Tx, row: NodeRow): Promise<void> {
    try {
      await tree.insert(db, row);
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict('NAME_TAKEN', `Something named "${row.name}" already exists there.`);
      throw err;
    }
  }

  /** Creates the landing page of a new site or section from its template and records it. */
  async function addLandingPage(db: Tx, actor: Actor, row: NodeRow): Promise<void> {
    const pageId = await insertPageRecord(db, {
      parentId: row.id,
      name: LANDING_PAGE_NAME,
      templateName: row.template_name!,
      actor,
      now: ctx.now(),
      displayName: row.display_title,
    });
    await tree.update(db, row.id, { landing_page_id: pageId });
    row.landing_page_id = pageId;
  }

  /** Inserts a section (and its landing page) or link as a child, after the last navigation entry. */
  async function insertNavigationEntry(db: Tx, actor: Actor, row: NodeRow): Promise<void> {
    row.sort_order = (await tree.maxSortOrder(db, row.parent_id!)) + 1;
    await insertNode(db, row);
    if (row.kind === 'section') await addLandingPage(db, actor, row);
  }

  /**
   * Children named in `subfolders` and `subsections`: new names are created, existing links re-pointed, and
   * `subsections` order becomes the navigation order (entries not listed follow, in their previous order).
   */
  async function applyChildEntries(
    db: Tx,
    actor: Actor,
    chain: readonly NodeRow[],
    segments: readonly string[],
    body: FolderPutBody,
  ): Promise<void> {
    const node = chain[chain.length - 1]!;
    const subfolders = body.subfolders ?? [];
    const subsections = body.subsections ?? [];
    if (subfolders.length === 0 && subsections.length === 0) return;
    if (subfolders.length && !isContainer(node.kind)) {
      throw invalidField('body.subfolders', `is not allowed: folders cannot be put in ${aKind(node.kind)}`);
    }
    if (subsections.length && node.kind !== 'site' && node.kind !== 'section') {
      throw invalidField('body.subsections', `is not allowed: only sites and sections have subsections`);
    }
    const realm = realmOf(segments);
    const existing = new Map((await repo.children(db, node.id)).map((c) => [c.name, c]));
    const ts = now();
    const taken = (name: string, kind: NodeKind) =>
      conflict('NAME_TAKEN', `"${name}" in ${quotePath(segments)} is already ${aKind(kind)}.`);

    for (const [i, entry] of subfolders.entries()) {
      assertEntryHref(entry.href, [...segments, entry.name], `body.subfolders.${i}.href`);
      const child = existing.get(entry.name);
      if (child) {
        if (child.kind !== 'folder') throw taken(entry.name, child.kind);
        continue;
      }
      if (!canContain(node.kind, realm, 'folder'))
        throw conflict('TYPE_MISMATCH', `Folders cannot be put in ${aKind(node.kind)}.`);
      const row = newNodeRow(await nextId(db, 'folder'), node.id, 'folder', entry.name, ts);
      row.updated_by = actor.username;
      await insertNode(db, row);
      existing.set(row.name, row);
    }

    const listed: string[] = [];
    for (const [i, entry] of subsections.entries()) {
      const field = `body.subsections.${i}.href`;
      const child = existing.get(entry.name);
      if (child && child.kind !== entry.type) {
        if (isNavigation(child.kind)) {
          throw conflict('TYPE_MISMATCH', `"${entry.name}" is ${aKind(child.kind)}, not ${aKind(entry.type)}.`);
        }
        throw taken(entry.name, child.kind);
      }
      const fresh = (kind: NodeKind) => async () =>
        Object.assign(newNodeRow(await nextId(db, 'folder'), node.id, kind, entry.name, ts), {
          display_title: entry.name,
          target_window: DEFAULT_TARGET_WINDOW,
          nav_class: '',
          updated_by: actor.username,
        });
      if (entry.type === 'section') {
        assertEntryHref(entry.href, [...segments, entry.name], field);
        if (!child) {
          if (!node.template_name) throw invalidField(field, 'cannot create a section here: no template is set');
          const row = await fresh('section')();
          row.template_name = node.template_name;
          await insertNavigationEntry(db, actor, row);
          existing.set(row.name, row);
        }
      } else if (entry.type === 'sectionlink') {
        if (!entry.href) throw invalidField(field, 'is required: the address of the section the link points at');
        const target = await linkTarget(db, entry.href, field);
        if (!child) {
          const row = await fresh('sectionlink')();
          row.link_target_id = target.id;
          await insertNavigationEntry(db, actor, row);
          existing.set(row.name, row);
        } else if (child.link_target_id !== target.id) {
          const full = (await tree.findById(db, child.id))!;
          requireAccess(actor, [...chain, full], 'WRITE', `"${entry.name}"`);
          await tree.update(db, child.id, { link_target_id: target.id, updated_at: ts, updated_by: actor.username });
        }
      } else {
        const url = ExternalUrl.safeParse(entry.href ?? '');
        if (!url.success) throw invalidField(field, 'must be an absolute http:// or https:// URL');
        if (!child) {
          const row = await fresh('externallink')();
          row.external_url = url.data;
          await insertNavigationEntry(db, actor, row);
          existing.set(row.name, row);
        } else if (child.external_url !== url.data) {
          const full = (await tree.findById(db, child.id))!;
          requireAccess(actor, [...chain, full], 'WRITE', `"${entry.name}"`);
          await tree.update(db, child.id, { external_url: url.data, updated_at: ts, updated_by: actor.username });
        }
      }
      listed.push(existing.get(entry.name)!.id);
    }

    if (listed.length) {
      const navigation = [...existing.values()]
        .filter((c) => isNavigation(c.kind))
        .sort((a, b) => a.sort_order - b.sort_order || compareNames(a.name, b.name));
      const listedSet = new Set(listed);
      const order = [...listed, ...navigation.filter((c) => !listedSet.has(c.id)).map((c) => c.id)];
      const current = new Map(navigation.map((c) => [c.id, c.sort_order]));
      const changes = order
        .map((id, i) => ({ id, sort_order: i + 1 }))
        .filter((o) => current.get(o.id) !== o.sort_order);
      await repo.setSortOrders(db, changes);
    }
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
    await applyChildEntries(db, actor, chain, segments, body);
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

    if (isNavigation(kind)) await insertNavigationEntry(db, actor, row);
    else {
      await insertNode(db, row);
      if (kind === 'site') await addLandingPage(db, actor, row);
    }
    const chain = [...parentChain, row];
    await applyChildEntries(db, actor, chain, segments, body);
    return represent(db, actor, chain, segments);
  }

  const transfers = createTransfers(ctx, { represent });

  return {
    /** GET: the item at `segments` as the caller sees it. */
    async get(actor: Actor, segments: readonly string[]): Promise<Represented> {
      const chain = await locateFolder(ctx.db, segments);
      requireAccess(actor, chain, 'READ', quotePath(segments));
      return represent(ctx.db, actor, chain, segments);
    },

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

    /**
     * DELETE: an empty item goes; a non-empty one (anything but a landing page inside) only with
     * `includeSubFolders`, then with everything below it in one transaction. Widgets elsewhere that link assets
     * of the subtree are removed with it; the assets' blobs are deleted after the commit.
     */
    async remove(
      actor: Actor,
      segments: readonly string[],
      opts: { includeSubFolders?: boolean; ifMatch?: string } = {},
    ): Promise<void> {
      const blobKeys = await ctx.db.transaction().execute(async (trx) => {
        const resolved = await locateFolder(trx, segments);
        const found = resolved[resolved.length - 1]!;
        if (found.kind === 'library') {
          throw conflict('CONFLICT', 'The asset library itself cannot be deleted; delete the folders inside it.');
        }
        const node = await lockFound(trx, found, segments);
        const chain = [...resolved.slice(0, -1), node];
        requireAccess(actor, chain, 'WRITE', quotePath(segments));
        if (node.kind === 'site') requireSiteAdmin(actor, 'delete');
        if (opts.ifMatch !== undefined)
          assertIfMatch(opts.ifMatch, (await represent(trx, actor, chain, segments)).etag);
        if (await repo.hasChildrenBesides(trx, node.id, node.landing_page_id)) {
          if (!opts.includeSubFolders) {
            const contents = presentCounts(await repo.subtreeCounts(trx, node.id));
            const listed = Object.entries(contents)
              .filter(([, n]) => n > 0)
              .map(([k, n]) => `${n} ${k.replace(/([A-Z])/g, ' $1').toLowerCase()}`)
              .join(', ');
            throw conflict(
              'FOLDER_NOT_EMPTY',
              `${quotePath(segments)} is not empty (${listed}). Send includeSubFolders=true to delete it with everything inside.`,
              { contents },
            );
          }
          if (actor.role !== 'Admin' && (await repo.subtreeHasReadOnly(trx, node.id))) {
            throw forbidden(
              `Something inside ${quotePath(segments)} is read-only for you; only an admin may delete it.`,
            );
          }
        }
        const keys = await repo.subtreeBlobKeys(trx, node.id);
        await repo.unlinkSubtreeAssets(trx, node.id, now());
        await repo.deleteNode(trx, node.id);
        return keys;
      });
      await deleteBlobs(ctx, blobKeys);
    },

    /**
     * What a DELETE of the item at `segments` would remove: the items below it by kind, the section links and
     * widgets elsewhere that go with it, and whether the delete needs `includeSubFolders`.
     */
    async contents(actor: Actor, segments: readonly string[]): Promise<FolderContents> {
      const chain = await locateFolder(ctx.db, segments);
      requireAccess(actor, chain, 'READ', quotePath(segments));
      const node = chain[chain.length - 1]!;
      const counts = await repo.subtreeCounts(ctx.db, node.id);
      const sectionLinks = await repo.linksIntoSubtree(ctx.db, node.id);
      const widgets = await repo.widgetsIntoSubtree(ctx.db, node.id);
      const nonEmpty = await repo.hasChildrenBesides(ctx.db, node.id, node.landing_page_id);
      return presentContents(counts, { sectionLinks, widgets }, !nonEmpty);
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

    ...transfers,
  };
}

export type FoldersService = ReturnType<typeof createFoldersService>;
export type { EtagSource };
