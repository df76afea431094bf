import type { Kysely } from 'kysely';
import { ExternalUrl, type FolderPutBody } from '../../../shared/api/folders.js';
import { isUniqueViolation, nextId } from '../../db/dialect.js';
import type { DB, NodeKind } from '../../db/schema.js';
import { isoTime, type Actor, type AppContext } from '../../lib/context.js';
import { conflict } from '../../lib/errors.js';
import { insertPageRecord, LANDING_PAGE_NAME } from '../pages/page-records.js';
import { requireAccess } from '../tree/access.js';
import { newNodeRow, treeRepository as tree, type NodeRow } from '../tree/tree.repository.js';
import { assertEntryHref, invalidField, linkTarget } from './folders.body.js';
import { compareNames, DEFAULT_TARGET_WINDOW } from './folders.presenter.js';
import { foldersRepository as repo } from './folders.repository.js';
import { aKind, canContain, isContainer, isNavigation, quotePath, realmOf } from './folders.rules.js';

// Inserting items into the tree: one node, a landing page, a navigation entry, and the children a PUT body lists.

/** Inserts `row`; 409 NAME_TAKEN when its parent already has a child of that name. */
export async function insertNode(db: Kysely<DB>, row: NodeRow): Promise<void> {
  try {
    await tree.insert(db, row);
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict('NAME_TAKEN', `Something named "${row.name}" already exists there.`);
    throw err;
  }
}

/** Creates the landing page of a new site or section from its template and records it. */
export async function addLandingPage(ctx: AppContext, db: Kysely<DB>, actor: Actor, row: NodeRow): Promise<void> {
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
export async function insertNavigationEntry(
  ctx: AppContext,
  db: Kysely<DB>,
  actor: Actor,
  row: NodeRow,
): Promise<void> {
  row.sort_order = (await tree.maxSortOrder(db, row.parent_id!)) + 1;
  await insertNode(db, row);
  if (row.kind === 'section') await addLandingPage(ctx, db, actor, row);
}

/**
 * Children named in `subfolders` and `subsections`: new names are created, existing links re-pointed, and
 * `subsections` order becomes the navigation order (entries not listed follow, in their previous order).
 */
export async function applyChildEntries(
  ctx: AppContext,
  db: Kysely<DB>,
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
  const ts = isoTime(ctx.now());
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
        await insertNavigationEntry(ctx, db, actor, row);
        existing.set(row.name, row);
      }
    } else if (entry.type === 'sectionlink') {
      if (!entry.href) throw invalidField(field, 'is required: the address of the section the link points at');
      const target = await linkTarget(db, entry.href, field);
      if (!child) {
        const row = await fresh('sectionlink')();
        row.link_target_id = target.id;
        await insertNavigationEntry(ctx, db, actor, row);
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
        await insertNavigationEntry(ctx, db, actor, row);
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
    const changes = order.map((id, i) => ({ id, sort_order: i + 1 })).filter((o) => current.get(o.id) !== o.sort_order);
    await repo.setSortOrders(db, changes);
  }
}
