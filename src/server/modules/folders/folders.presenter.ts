import type {
  ChildSummary,
  Folder,
  FolderChildren,
  FolderContents,
  SectionInfo,
  SubsectionEntry,
  TreeItem,
} from '../../../shared/api/folders.js';
import { DEFAULT_FOLDER_WORKFLOW } from '../../../shared/api/folders.js';
import type { SiteSummary } from '../../../shared/api/sites.js';
import { ASSET_LIBRARY, assetHref, folderHref, pageHref } from '../../../shared/api/paths.js';
import type { NodeKind } from '../../db/schema.js';
import type { AccessLevel } from '../tree/access.js';
import type { NodeRow } from '../tree/tree.repository.js';
import { referenceTime } from '../assets/assets.presenter.js';
import type { ChildRow, ChildSummaryRow } from './folders.repository.js';

/** Display title of a site created without one: the reference system's fresh site shows `Home`. */
export const DEFAULT_SITE_TITLE = 'Home';
/** Where navigation entries open unless told otherwise. */
export const DEFAULT_TARGET_WINDOW = '_self';

const NON_ASCII = /[\u0080-\uffff]/;
const DIGIT = /\d/;
/** Sort keys of names seen lately (a listing of a big folder reads the same names again and again). */
const SORT_KEYS = new Map<string, string>();
const MAX_SORT_KEYS = 20_000;

/**
 * The key that orders names for people: case and accents folded, digit runs compared by value ("item 2" before
 * "item 10"). Computed in code, so listings and their ETags never depend on the database's collation, and once
 * per name, so sorting 10k children stays cheap.
 */
function sortKey(name: string): string {
  let key = SORT_KEYS.get(name);
  if (key === undefined) {
    if (SORT_KEYS.size >= MAX_SORT_KEYS) SORT_KEYS.clear();
    SORT_KEYS.set(name, (key = foldName(name)));
  }
  return key;
}

function foldName(name: string): string {
  // ASCII has nothing to decompose (most names: the folding is then only the lower-casing).
  const folded = (NON_ASCII.test(name) ? name.normalize('NFD').replace(/[\u0300-\u036f]/g, '') : name).toLowerCase();
  return DIGIT.test(folded) ? folded.replace(/\d+/g, (d) => d.replace(/^0+(?=\d)/, '').padStart(24, '0')) : folded;
}

/** Orders two names as `sortByName` does. */
export function compareNames(a: string, b: string): number {
  const ka = sortKey(a);
  const kb = sortKey(b);
  return ka < kb ? -1 : ka > kb ? 1 : a < b ? -1 : a > b ? 1 : 0;
}

/** Sorts by name in the order of `compareNames`, computing each key once. */
export function sortByName<T>(items: readonly T[], nameOf: (item: T) => string): T[] {
  return items
    .map((item) => ({ item, name: nameOf(item), key: sortKey(nameOf(item)) }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map((x) => x.item);
}

/** Everything the presenter needs to show one item. */
export interface FolderView {
  /** Path segments from the site (or `Assets`) down to the item. */
  segments: readonly string[];
  node: NodeRow;
  accessLevel: AccessLevel;
  /** Direct children (only for containers). */
  children: readonly ChildRow[];
  /** Paths of section-link targets (of the children and of the item itself), by target id. */
  targetPaths: ReadonlyMap<string, string[]>;
}

function sectionInfoOf(v: FolderView): SectionInfo | undefined {
  const n = v.node;
  const common = {
    displayTitle: n.display_title ?? '',
    targetWindow: (n.target_window ?? DEFAULT_TARGET_WINDOW) as SectionInfo['targetWindow'],
    navClass: n.nav_class ?? '',
  };
  switch (n.kind) {
    case 'site':
    case 'section': {
      const landing = n.landing_page_id ? v.children.find((c) => c.id === n.landing_page_id) : undefined;
      return {
        ...common,
        ...(n.template_name !== null ? { templateName: n.template_name } : {}),
        ...(landing ? { landingPage: { name: landing.name, href: pageHref([...v.segments, landing.name]) } } : {}),
      };
    }
    case 'externallink':
      return { type: 'externallink', ...common, externalLinkUrl: n.external_url ?? '' };
    case 'sectionlink': {
      const target = n.link_target_id ? v.targetPaths.get(n.link_target_id) : undefined;
      return {
        type: 'sectionlink',
        ...common,
        ...(target ? { linkTarget: { name: target[target.length - 1]!, href: folderHref(target) } } : {}),
      };
    }
    default:
      return undefined;
  }
}

const byNavigation = (a: ChildRow, b: ChildRow) => a.sort_order - b.sort_order || compareNames(a.name, b.name);
const named = (rows: ChildRow[]) => sortByName(rows, (c) => c.name);

/** The href of a `subsections` entry: the section's resource, a section link's target, an external link's URL. */
function subsectionHref(v: FolderView, c: ChildRow): string {
  if (c.kind === 'externallink') return c.external_url ?? '';
  if (c.kind === 'sectionlink') {
    const target = c.link_target_id ? v.targetPaths.get(c.link_target_id) : undefined;
    return target ? folderHref(target) : '';
  }
  return folderHref([...v.segments, c.name]);
}

/** Spec 2.6: the JSON of a site, folder, section, link or asset library folder, with its keys in a fixed order. */
export function presentFolder(v: FolderView): Folder {
  const n = v.node;
  const isTop = v.segments.length === 1;
  const out: Folder = {
    id: n.id,
    name: isTop ? '' : v.segments[v.segments.length - 1]!,
    siteName: v.segments[0]!,
    path: v.segments.slice(1, -1).join('/'),
    workflow: n.workflow ?? DEFAULT_FOLDER_WORKFLOW,
    accessLevel: v.accessLevel,
  };
  const sectionInfo = sectionInfoOf(v);
  if (sectionInfo) out.sectionInfo = sectionInfo;
  const of = (kinds: readonly NodeKind[]) => v.children.filter((c) => kinds.includes(c.kind));
  const inLibrary = n.kind === 'library' || v.segments[0] === ASSET_LIBRARY;
  // A child's href is its container's with its own name appended (each segment encoded once per listing).
  const under = (href: string) => {
    const prefix = `${href}/`;
    return (c: ChildRow) => ({ name: c.name, href: prefix + encodeURIComponent(c.name) });
  };
  if (inLibrary) {
    out.subfolders = named(of(['folder'])).map(under(folderHref(v.segments)));
    out.assets = named(of(['asset'])).map(under(assetHref(v.segments)));
    return out;
  }
  if (n.kind === 'site' || n.kind === 'section' || n.kind === 'folder') {
    out.pages = named(of(['page'])).map(under(pageHref(v.segments)));
    out.subfolders = named(of(['folder'])).map(under(folderHref(v.segments)));
  }
  if (n.kind === 'site' || n.kind === 'section') {
    out.subsections = of(['section', 'sectionlink', 'externallink'])
      .sort(byNavigation)
      .map((c): SubsectionEntry => ({
        name: c.name,
        href: subsectionHref(v, c),
        type: c.kind as SubsectionEntry['type'],
      }));
  }
  return out;
}

/** An entry of `GET /cms/rest/sites`. */
export function presentSite(n: Pick<NodeRow, 'id' | 'name' | 'display_title'>): SiteSummary {
  return { id: n.id, name: n.name, displayTitle: n.display_title ?? DEFAULT_SITE_TITLE, href: folderHref([n.name]) };
}

/** Kind of an item as the API names it (asset library folders are folders). */
export function itemKindOf(kind: NodeKind): TreeItem['kind'] {
  return kind === 'library' || kind === 'root' ? 'folder' : kind;
}

/** `{name, path, kind, href}` of an item at `segments`, and its `title` when given one (find answers it). */
export function presentTreeItem(kind: NodeKind, segments: readonly string[], title?: string | null): TreeItem {
  const k = itemKindOf(kind);
  const href = k === 'page' ? pageHref(segments) : k === 'asset' ? assetHref(segments) : folderHref(segments);
  return {
    name: segments[segments.length - 1]!,
    path: segments.join('/'),
    kind: k,
    href,
    ...(title ? { title } : {}),
  };
}

/** The title people know an item by: a page's display name, a node's display title (sites, sections, links). */
export function titleOf(row: { kind: NodeKind; display_title: string | null; display_name: string | null }) {
  return (row.kind === 'page' ? row.display_name : row.display_title) || undefined;
}

/** An asset's display title from its stored fields (JSON text); undefined when it has none. */
export function assetTitleOf(fields: string | null): string | undefined {
  if (!fields) return undefined;
  try {
    const title = (JSON.parse(fields) as Record<string, unknown>).displaytitle;
    return typeof title === 'string' && title.trim() ? title : undefined;
  } catch {
    return undefined;
  }
}

/** The later of two ISO timestamps, with who wrote it (the first's author when the second is not later). */
function latest(a: { at: string; by: string | null }, b: { at: string | null; by: string | null }) {
  return b.at !== null && b.at > a.at ? { at: b.at, by: b.by ?? a.by } : { at: a.at, by: a.by ?? b.by };
}

/** One row of `GET …/folders/children/by-path/…`. */
function presentChildSummary(r: ChildSummaryRow): ChildSummary {
  // A page or asset changes in its own row (content, workflow) and in its node (name, place): the later counts.
  const own = { at: r.updated_at, by: r.updated_by ?? null };
  const changed =
    r.kind === 'page'
      ? latest({ at: r.page_updated_at ?? r.updated_at, by: r.page_updated_by }, own)
      : r.kind === 'asset'
        ? latest({ at: r.asset_updated_at ?? r.updated_at, by: null }, own)
        : own;
  const title = titleOf(r);
  const state = r.kind === 'page' ? r.page_state : r.kind === 'asset' ? r.asset_state : null;
  return {
    name: r.name,
    kind: itemKindOf(r.kind),
    ...(title ? { title } : {}),
    ...(state ? { workflowState: state } : {}),
    lastModified: referenceTime(changed.at),
    ...(changed.by ? { lastModifiedBy: changed.by } : {}),
    ...(r.checked_out_user ? { checkedOut: true as const, checkedOutUser: r.checked_out_user } : {}),
  };
}

/**
 * The children of a container in the order of its listing: navigation entries in navigation order, then folders,
 * pages and assets, each by name.
 */
export function presentChildren(accessLevel: AccessLevel, rows: readonly ChildSummaryRow[]): FolderChildren {
  const group = (kinds: readonly NodeKind[]) => rows.filter((r) => kinds.includes(r.kind));
  const navigation = group(['section', 'sectionlink', 'externallink']).sort(
    (a, b) => a.sort_order - b.sort_order || compareNames(a.name, b.name),
  );
  const byName = (kinds: readonly NodeKind[]) => sortByName(group(kinds), (r) => r.name);
  return {
    accessLevel,
    items: [...navigation, ...byName(['folder']), ...byName(['page']), ...byName(['asset'])].map(presentChildSummary),
  };
}

/** Counts of the items below a node by kind, as a 409 FOLDER_NOT_EMPTY and the contents endpoint name them. */
export function presentCounts(counts: Partial<Record<NodeKind, number>>) {
  return {
    folders: counts.folder ?? 0,
    sections: counts.section ?? 0,
    sectionLinks: counts.sectionlink ?? 0,
    externalLinks: counts.externallink ?? 0,
    pages: counts.page ?? 0,
    assets: counts.asset ?? 0,
  };
}

/** `GET /cms/rest/folders/contents/by-path/…`: what a delete of the item would remove. */
export function presentContents(
  counts: Partial<Record<NodeKind, number>>,
  elsewhere: { sectionLinks: number; widgets: number },
  empty: boolean,
): FolderContents {
  return {
    ...presentCounts(counts),
    sectionLinksElsewhere: elsewhere.sectionLinks,
    widgetsElsewhere: elsewhere.widgets,
    empty,
  };
}
