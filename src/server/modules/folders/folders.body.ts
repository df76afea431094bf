import type { Kysely } from 'kysely';
import type { FieldError } from '../../../shared/api/errors.js';
import { DEFAULT_FOLDER_WORKFLOW, type FolderPutBody, type SectionInfoInput } from '../../../shared/api/folders.js';
import { ASSET_LIBRARY, segmentsOfHref, splitPath } from '../../../shared/api/paths.js';
import { DEFAULT_WORKFLOW } from '../../../shared/api/workflow.js';
import type { DB, NodeKind } from '../../db/schema.js';
import type { Actor } from '../../lib/context.js';
import { badRequest, conflict, forbidden, notFound } from '../../lib/errors.js';
import { effectiveAccess, type AccessLevel } from '../tree/access.js';
import { assertValidNames } from '../tree/paths.js';
import { treeRepository as tree, type NodeRow } from '../tree/tree.repository.js';
import { foldersRepository as repo } from './folders.repository.js';
import { aKind, missingError, quotePath } from './folders.rules.js';

// Checks of a folder PUT body and the columns it sets.

/** `workflow` of a body as stored: null follows the system default (`[default]`). */
function storedWorkflow(value: string): string | null {
  if (value === DEFAULT_FOLDER_WORKFLOW) return null;
  if (value === DEFAULT_WORKFLOW) return value;
  throw badRequest('Unknown workflow.', [
    { path: 'body.workflow', message: `must be "${DEFAULT_FOLDER_WORKFLOW}" or "${DEFAULT_WORKFLOW}"` },
  ]);
}

/** 409 LOCATION_MISMATCH when `name`, `siteName` or `path` of the body differ from the URL (spec §7.1). */
export function assertLocation(segments: readonly string[], body: FolderPutBody): void {
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
export function assertDistinctEntries(body: FolderPutBody): void {
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
export function assertEntryHref(href: string | undefined, expected: readonly string[], field: string): void {
  if (href === undefined || href === '') return;
  const ok = href.includes('/folders/by-path/') && segmentsOfHref(href).join('/') === expected.join('/');
  if (!ok) {
    throw conflict('LOCATION_MISMATCH', `${field} "${href}" is not the address of ${quotePath(expected)}.`, {
      field,
    });
  }
}

/** 400 naming `field` of the body. */
export const invalidField = (field: string, message: string) =>
  badRequest(`The request body is invalid: ${field} ${message}.`, [{ path: field, message }]);

/** 404 TEMPLATE_NOT_FOUND unless a template of that name exists. */
export async function assertTemplate(db: Kysely<DB>, name: string): Promise<void> {
  if (!(await repo.templateExists(db, name))) throw notFound('TEMPLATE_NOT_FOUND', `No template named "${name}".`);
}

/** The section (or site) a section link's `href` names; 400/404/409 otherwise. */
export async function linkTarget(db: Kysely<DB>, href: string, field: string): Promise<NodeRow> {
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
export async function fieldsOf(
  db: Kysely<DB>,
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
