import { z } from 'zod';
import { commaListPattern, Id, ItemName, Link } from './common.js';

/**
 * Sites, folders, sections, section links and external links (spec 2.6 and 4.2), asset library folders, and the
 * tree operations of the admin app (move, copy, rename, find).
 */

/** What a user may do at an item: READ, WRITE or ADMIN. */
export const AccessLevel = z.enum(['READ', 'WRITE', 'ADMIN']);
export type AccessLevel = z.infer<typeof AccessLevel>;

/** Where a navigation entry opens. */
export const TargetWindow = z.enum(['_self', '_blank', '_top']);
export type TargetWindow = z.infer<typeof TargetWindow>;

/** Kinds of navigation entries listed in `subsections`. */
export const SubsectionType = z.enum(['section', 'sectionlink', 'externallink']);
export type SubsectionType = z.infer<typeof SubsectionType>;

/** `workflow` of a folder that follows the system default workflow. */
export const DEFAULT_FOLDER_WORKFLOW = '[default]';

/** An absolute http(s) URL, as external links need. */
export const ExternalUrl = z
  .string()
  .max(2048)
  .refine((s) => {
    try {
      const u = new URL(s);
      return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname.length > 0;
    } catch {
      return false;
    }
  }, 'must be an absolute http:// or https:// URL');

/**
 * `sectionInfo` of a site, section, external link or section link as the service answers it. Sites and
 * sections carry `templateName` and `landingPage`; external links `type: externallink` and `externalLinkUrl`;
 * section links (a Folio extension of the spec's shape) `type: sectionlink` and `linkTarget`.
 */
export const SectionInfo = z.object({
  /** Title shown in navigation. */
  displayTitle: z.string(),
  targetWindow: TargetWindow,
  /** Navigation class; may be empty. */
  navClass: z.string(),
  /** Template of the landing page (sites and sections). */
  templateName: z.string().optional(),
  /** The landing page (sites and sections): `{name: 'index', href}`. */
  landingPage: Link.optional(),
  /** `externallink` on external links, `sectionlink` on section links; absent on sites and sections. */
  type: z.enum(['externallink', 'sectionlink']).optional(),
  /** The link's absolute URL (external links). */
  externalLinkUrl: z.string().optional(),
  /** The section a section link points at (section links). */
  linkTarget: Link.optional(),
});
export type SectionInfo = z.infer<typeof SectionInfo>;

/** An entry of `subsections`: a section (`href` its folder resource), a section link (`href` its target's folder
 * resource) or an external link (`href` its URL). */
export const SubsectionEntry = z.object({
  name: z.string(),
  href: z.string(),
  type: SubsectionType,
});
export type SubsectionEntry = z.infer<typeof SubsectionEntry>;

/**
 * A site, folder, section, section link, external link or asset library folder (spec 2.6).
 * `name` is "" for a site (and for the asset library itself); `path` holds the folders between the site (or
 * `Assets`) and the item. `accessLevel` is the level the current user has at the item.
 */
export const Folder = z.object({
  id: z.string(),
  name: z.string(),
  siteName: z.string(),
  path: z.string(),
  workflow: z.string(),
  accessLevel: AccessLevel,
  sectionInfo: SectionInfo.optional(),
  /** Pages directly inside (sites, sections, folders); a site or section lists its landing page here too. */
  pages: z.array(Link).optional(),
  /** Plain folders directly inside; never sections. */
  subfolders: z.array(Link).optional(),
  /** Sections, section links and external links in navigation order (sites and sections). */
  subsections: z.array(SubsectionEntry).optional(),
  /** Assets directly inside (asset library folders only). */
  assets: z.array(Link).optional(),
});
export type Folder = z.infer<typeof Folder>;

/** `sectionInfo` in a PUT body: every field optional; read-only `landingPage` is accepted and ignored. */
export const SectionInfoInput = z.object({
  displayTitle: z.string().max(1000).optional(),
  targetWindow: TargetWindow.optional(),
  navClass: z.string().max(255).optional(),
  /** Template of the landing page. Required to create a site; a section defaults to its parent's. */
  templateName: z.string().min(1).max(255).optional(),
  landingPage: Link.optional(),
  /** `section` (the default), `sectionlink` or `externallink`: what a PUT at a free path creates. */
  type: SubsectionType.optional(),
  /** Required to create an external link. */
  externalLinkUrl: ExternalUrl.optional(),
  /** Required to create a section link: `href` names the target section's folder resource. */
  linkTarget: z.object({ name: z.string().optional(), href: z.string().min(1) }).optional(),
});
export type SectionInfoInput = z.infer<typeof SectionInfoInput>;

/** A `subfolders` entry of a PUT: a new name creates that folder; existing ones are left as they are. */
export const SubfolderInput = z.object({ name: ItemName, href: z.string().optional() });
/** A `subsections` entry of a PUT: a new name creates a section, section link or external link; the list's order
 * becomes the navigation order. */
export const SubsectionInput = z.object({ name: ItemName, href: z.string().optional(), type: SubsectionType });
export type SubsectionInput = z.infer<typeof SubsectionInput>;

/**
 * Body of `PUT /cms/rest/folders/by-path/…` (may be absent or `{}` for a folder). Fields not sent are not
 * modified. `pages` and `assets` are accepted for round trips and ignored: pages and assets have their own
 * endpoints. Entries missing from `subfolders`/`subsections` are not deleted (use DELETE).
 */
export const FolderPutBody = z.object({
  id: Id.optional(),
  name: z.string().optional(),
  siteName: z.string().optional(),
  path: z.string().optional(),
  /** `[default]` or `Default Workflow`. */
  workflow: z.string().min(1).max(255).optional(),
  /** Admins only: READ makes the item read-only for everyone but admins; WRITE lifts that. */
  accessLevel: AccessLevel.optional(),
  sectionInfo: SectionInfoInput.optional(),
  pages: z.array(Link).optional(),
  subfolders: z.array(SubfolderInput).optional(),
  subsections: z.array(SubsectionInput).optional(),
  assets: z.array(Link).optional(),
});
export type FolderPutBody = z.infer<typeof FolderPutBody>;

/** Kinds of items in the tree, as `find` and the move/copy/rename answers name them. */
export const ItemKind = z.enum(['site', 'folder', 'section', 'sectionlink', 'externallink', 'page', 'asset']);
export type ItemKind = z.infer<typeof ItemKind>;

/**
 * An item of the tree: its name, by-path path (`<site>/…/<name>` or `Assets/…`), kind and resource address.
 * `find` adds `title`: a page's display name, a site's, section's or link's display title, an asset's display
 * title (absent when the item has none).
 */
export const TreeItem = z.object({
  name: z.string(),
  path: z.string(),
  kind: ItemKind,
  href: z.string(),
  title: z.string().optional(),
});
export type TreeItem = z.infer<typeof TreeItem>;

/** A by-path path in a body: `<site>/<folder>/<name>` or `Assets/…` (leading/trailing `/` tolerated). */
const ItemPath = z.string().min(1).max(8192);

/** `POST /cms/rest/folders/move` and `…/copy`: put the item at `itemPath` into the container at `targetFolderPath`. */
export const MoveBody = z.object({ itemPath: ItemPath, targetFolderPath: ItemPath });
export type MoveBody = z.infer<typeof MoveBody>;
export const CopyBody = MoveBody;
export type CopyBody = MoveBody;

/** `POST /cms/rest/folders/rename`: give the item at `path` a new name in the same container. */
export const RenameBody = z.object({ path: ItemPath, newName: ItemName });
export type RenameBody = z.infer<typeof RenameBody>;

/** Default and maximum `limit` of `GET /cms/rest/folders/find`. */
export const FIND_DEFAULT_LIMIT = 50;
export const FIND_MAX_LIMIT = 200;

/**
 * `GET /cms/rest/folders/find?q=&limit=&kind=`: items whose name or title (display name, display title) contains
 * `q`, case-insensitively.
 */
export const FindQuery = z.object({
  q: z.string().min(1).max(255),
  limit: z.coerce.number().int().min(1).max(FIND_MAX_LIMIT).default(FIND_DEFAULT_LIMIT),
  /** Comma-separated kinds to keep (e.g. `section,folder`); all kinds when absent. */
  kind: z
    .string()
    .regex(commaListPattern(ItemKind.options.join('|')), `must list kinds of items (${ItemKind.options.join(', ')})`)
    .optional(),
});
export type FindQuery = z.infer<typeof FindQuery>;
export const FindResult = z.array(TreeItem);

/** A count of items of one kind. */
const Count = z.number().int().nonnegative();

/**
 * `GET /cms/rest/folders/contents/by-path/…`: what a DELETE of the item would remove — every item below it by kind
 * (landing pages count as pages), plus what goes elsewhere with it — so a client can say so before deleting.
 */
export const FolderContents = z.object({
  folders: Count,
  sections: Count,
  sectionLinks: Count,
  externalLinks: Count,
  pages: Count,
  assets: Count,
  /** Section links outside the item that point at it or at a section inside it (deleted with it). */
  sectionLinksElsewhere: Count,
  /** Widgets on pages outside the item that show a shared asset inside it (removed from those pages). */
  widgetsElsewhere: Count,
  /** True when a DELETE needs no `includeSubFolders`: nothing inside but the landing page. */
  empty: z.boolean(),
});
export type FolderContents = z.infer<typeof FolderContents>;

/**
 * A child of a container as people see it in a table: `GET /cms/rest/folders/children/by-path/…` (a Folio
 * extension). Timestamps are the reference system's (`YYYY-MM-DDThh:mm:ss.SSS+0000`).
 */
export const ChildSummary = z.object({
  name: z.string(),
  kind: ItemKind,
  /** A page's display name, a site's, section's or link's display title; absent for folders and assets. */
  title: z.string().optional(),
  /** The workflow state of a page or asset. */
  workflowState: z.string().optional(),
  /** When the item last changed: its properties, name or place (for a page or asset also its content). */
  lastModified: z.string(),
  /** Who made that change; absent when the service does not know (items from before it kept track). */
  lastModifiedBy: z.string().optional(),
  /** A page or asset someone has checked out (holds its lease, the spec's `workflow.checkedOut`); absent otherwise. */
  checkedOut: z.literal(true).optional(),
  /** Who has it checked out; with `checkedOut`. */
  checkedOutUser: z.string().optional(),
});
export type ChildSummary = z.infer<typeof ChildSummary>;

/** `GET /cms/rest/folders/children/by-path/…?kind=…`: only children of these kinds (all when absent). */
export const ChildrenQuery = z.object({
  /** Comma-separated kinds to keep (e.g. `folder` for the subfolders of a folder of many assets). */
  kind: z
    .string()
    .regex(commaListPattern(ItemKind.options.join('|')), `must list kinds of items (${ItemKind.options.join(', ')})`)
    .optional(),
});
export type ChildrenQuery = z.infer<typeof ChildrenQuery>;

/**
 * `GET /cms/rest/folders/children/by-path/…`: the children of a site, section, folder or asset folder (of the
 * kinds asked for), and the caller's access level on the container (what the item's own GET says) — so a screen
 * of a folder of 100,000 assets needs neither that GET's list of every asset nor a second request.
 */
export const FolderChildren = z.object({ accessLevel: AccessLevel, items: z.array(ChildSummary) });
export type FolderChildren = z.infer<typeof FolderChildren>;
