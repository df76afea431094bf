import type { Kysely } from 'kysely';
import type { Page } from '../../../shared/api/pages.js';
import type { DB } from '../../db/schema.js';
import { withEtag } from '../../lib/respond.js';
import type { SerialisedJson } from '../../lib/respond.js';
import { templateRegionsOf } from '../templates/templates.presenter.js';
import { templatesRepository, type TemplateRow } from '../templates/templates.repository.js';
import { MAX_JOINED_DEPTH, treeRepository } from '../tree/tree.repository.js';
import { pageHeadOf, presentPage, type PageView } from './pages.presenter.js';
import { pagesRepository as repo, type PageDocRow, type PageRow, type WidgetWithAsset } from './pages.repository.js';

/**
 * The stored representation of a page (migration 0080): `pages.doc` holds the page's JSON without `id`, `name`,
 * `siteName` and `folderPath`, which a read takes from the path it resolved. A GET that finds a trusted doc
 * answers from that one row; one that does not assembles the page from its rows (template, widgets, linked
 * assets) and stores the doc for the next read. A PUT writes the doc with the row, in the same statement.
 *
 * The database decides when a doc is stale (triggers of migration 0080), so no write path can forget to: this
 * module only trusts a doc whose `doc_epoch` is the current epoch, and stores one only if the row's `doc_seq` is
 * still the one read before the parts it was made from.
 */

/** Where a page is: what its JSON says besides its stored doc. */
export interface PageAt {
  id: string;
  name: string;
  siteName: string;
  folderPath: string;
}

/** A page as sent to the client: its exact JSON and the strong ETag of that JSON. */
export type PageRepresentation = SerialisedJson;

/** The page's JSON: its location, then the stored doc's members (byte for byte `JSON.stringify(presentPage(…))`). */
export function pageJson(at: PageAt, doc: string): string {
  return (
    `{"id":${JSON.stringify(at.id)},"name":${JSON.stringify(at.name)},"siteName":${JSON.stringify(at.siteName)},` +
    `"folderPath":${JSON.stringify(at.folderPath)},${doc.slice(1)}`
  );
}

/** What is stored of a page: its JSON without the location members. */
export function docOf(page: Page): string {
  const { id: _id, name: _name, siteName: _siteName, folderPath: _folderPath, ...rest } = page;
  return JSON.stringify(rest);
}

/** Where a doc's `body` starts, after its head (pageHeadOf): `{<head members>,"body":[…]}`. */
const BODY_MEMBER = ',"body":';

/** The JSON of the head of the page whose row is `row` and name `name`: the members a doc begins with. */
export function headJsonOf(row: PageRow, name: string): string {
  return JSON.stringify(pageHeadOf(row, name));
}

/**
 * The JSON of the `body` of `doc` without parsing it, when `doc` begins with exactly the head `headJson`
 * (headJsonOf of the row the doc was made from); null when it does not.
 */
export function docBodyJson(doc: string, headJson: string): string | null {
  const prefix = headJson.slice(0, -1) + BODY_MEMBER;
  return doc.startsWith(prefix) && doc.endsWith('}') ? doc.slice(prefix.length, -1) : null;
}

/** The doc whose head is `headJson` (headJsonOf) and whose body is `bodyJson` (docBodyJson). */
export function docWithBody(headJson: string, bodyJson: string): string {
  return headJson.slice(0, -1) + BODY_MEMBER + bodyJson + '}';
}

/**
 * The key a doc's path is stored under (migration 0090): the segments joined by `/` (no name holds one, see
 * byPathSegments); undefined for paths too short to be a page's or deeper than MAX_JOINED_DEPTH.
 */
export function docPathOf(segments: readonly string[]): string | undefined {
  return segments.length >= 2 && segments.length <= MAX_JOINED_DEPTH ? segments.join('/') : undefined;
}

export function representationOf(at: PageAt, doc: string): PageRepresentation {
  return withEtag(pageJson(at, doc));
}

/** The stored doc of `row` when it can be trusted (stored under the current epoch), else null. */
export function trustedDoc(row: Pick<PageDocRow, 'doc' | 'doc_epoch' | 'current_epoch'>): string | null {
  return row.doc !== null && String(row.doc_epoch) === String(row.current_epoch) ? row.doc : null;
}

/** What a page shows besides its own row: its template (undefined when gone), widgets and their asset folders. */
export interface PageParts {
  template: TemplateRow | undefined;
  widgets: readonly WidgetWithAsset[];
  assetFolderPaths: Map<string, string>;
}

/**
 * Reads the parts of page `id` inside `db`; `known` supplies parts already read in the same transaction (and
 * asset folder paths already resolved), which are not read again.
 */
export async function loadParts(
  db: Kysely<DB>,
  id: string,
  templateName: string,
  known: { template?: TemplateRow; widgets?: readonly WidgetWithAsset[]; assetFolderPaths?: Map<string, string> } = {},
): Promise<PageParts> {
  const template = known.template ?? (await templatesRepository.find(db, templateName));
  const widgets = known.widgets ?? (await repo.widgets(db, id));
  const assetFolderPaths = new Map<string, string>();
  for (const w of widgets) {
    const folderId = w.asset_parent_id;
    if (!folderId || assetFolderPaths.has(folderId)) continue;
    const path = known.assetFolderPaths?.get(folderId) ?? ((await treeRepository.pathOf(db, folderId)) ?? []).join('/');
    assetFolderPaths.set(folderId, path);
  }
  return { template, widgets, assetFolderPaths };
}

export function viewOf(at: PageAt, page: PageRow, parts: PageParts): PageView {
  return {
    ...at,
    page,
    templateRegions: parts.template ? templateRegionsOf(parts.template) : [],
    widgets: parts.widgets,
    assetFolderPaths: parts.assetFolderPaths,
  };
}

/** The page assembled from its rows, read inside `db` (no stored doc involved). */
export async function assemblePage(db: Kysely<DB>, at: PageAt, row: PageRow): Promise<Page> {
  return presentPage(viewOf(at, row, await loadParts(db, at.id, row.template_name)));
}

/** How a GET that assembled a page stores its doc: the `doc_seq` and epoch read before its parts, and its path. */
export interface DocStore {
  seq: string | number;
  epoch: string | number;
  /** The page's path key (docPathOf), when it was read in the same snapshot as `epoch`; else null. */
  path: string | null;
}

/**
 * The page at `at` whose row is `row` (read with the current epoch): from its doc when trusted, otherwise
 * assembled from its rows — and then stored for the next read as `store` says (outside a write; a store that lost
 * a race with a write is simply not made).
 */
export async function readPage(
  db: Kysely<DB>,
  at: PageAt,
  row: PageDocRow,
  store: DocStore | null,
): Promise<PageRepresentation & { doc: string }> {
  const trusted = trustedDoc(row);
  if (trusted !== null) return { ...representationOf(at, trusted), doc: trusted };
  const doc = docOf(await assemblePage(db, at, row));
  const rep = representationOf(at, doc);
  if (store) {
    const stamp = store.path === null ? null : { path: store.path, etag: rep.etag };
    await repo.storeDoc(db, at.id, doc, store.epoch, store.seq, stamp);
  }
  return { ...rep, doc };
}
