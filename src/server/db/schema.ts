import type { ColumnType, Generated } from 'kysely';

/**
 * Table types of the database. Portable across SQLite and PostgreSQL: timestamps are ISO-8601 UTC strings
 * (`2026-01-02T03:04:05.678Z`, which sort as text), booleans are 0/1 integers, structured values are JSON text.
 */
export interface DB {
  counters: { name: string; value: number };
  users: UsersTable;
  sessions: SessionsTable;
  login_failures: LoginFailuresTable;
  nodes: NodesTable;
  templates: TemplatesTable;
  pages: PagesTable;
  page_doc_epoch: PageDocEpochTable;
  widgets: WidgetsTable;
  /** The item paths stored content refers to, by owner (migration 0220, `lib/asset-refs.ts`). */
  content_refs: ContentRefsTable;
  assets: AssetsTable;
  folder_docs: FolderDocsTable;
  folder_doc_epoch: { id: number; value: number | string };
  /** The change log (migration 0250, `lib/change-log.ts`). */
  changes: ChangesTable;
  /** One row (id 1): the highest change id pruned from the log. */
  changes_pruned: { id: number; up_to: number | string };
  /** Check-out leases, one per item (migration 0260, modules/leases). */
  item_leases: ItemLeasesTable;
  /** Who has an item open (migration 0260, modules/leases). */
  item_presence: ItemPresenceTable;
  /** History of pages and assets (migration 0280, modules/revisions). */
  revisions: RevisionsTable;
  live_revisions: LiveRevisionsTable;
  revision_retention: RevisionRetentionTable;
  /** Deleted items waiting to be restored or purged (migration 0330, modules/trash). */
  trash: TrashTable;
}

/** One deleted item: its node waits below the trash root (TRASH_NODE_ID) under the entry's id as its name. */
export interface TrashTable {
  id: Generated<number | string>;
  node_id: string;
  /** `page`, `asset` or the node kind of a folder item. */
  kind: string;
  /** Where it was: its parent node (null when that is gone since) and its name there; `path` as it was. */
  parent_id: string | null;
  name: string;
  path: string;
  deleted_by: string;
  deleted_at: string;
}

/** A check-out lease; times are milliseconds since the epoch (bigint: a string on PostgreSQL). */
export interface ItemLeasesTable {
  kind: string;
  path: string;
  item_id: string;
  username: string;
  acquired_at: number | string;
  expires_at: number | string;
  /** Whose lease this one took over, until it is renewed past that news (null otherwise). */
  taken_from: string | null;
}

/** One person who has an item open, until `expires_at` (ms). */
export interface ItemPresenceTable {
  kind: string;
  path: string;
  username: string;
  since: number | string;
  expires_at: number | string;
}

/** One path that a widget's local fields, a shared asset's fields or a template's regions refer to: one owner set. */
export interface ContentRefsTable {
  widget_id: string | null;
  asset_id: string | null;
  template_name: string | null;
  path: string;
}

/** The stored JSON of a folder-like item's GET (migration 0130); `seq` advances with every change it shows. */
export interface FolderDocsTable {
  node_id: string;
  seq: number | string;
  doc: string | null;
  doc_etag: string | null;
  doc_path: string | null;
  doc_access: string | null;
  doc_cap: string | null;
  doc_epoch: number | string | null;
}

export interface UsersTable {
  username: string;
  role: string;
  password_hash: string;
  created_at: string;
  updated_at: string;
}

export interface SessionsTable {
  /** SHA-256 of the session id: the id itself is never stored. */
  id_hash: string;
  username: string;
  csrf_token: string;
  created_at: number;
  last_seen_at: number;
  expires_at: number;
}

export interface LoginFailuresTable {
  /** `<username>|<address>` */
  key: string;
  failures: number;
  first_failure_at: number;
  locked_until: number;
}

/** Kinds of tree nodes. `root` is the one hidden root; `library` is the asset library (`Assets`). */
export type NodeKind =
  'root' | 'library' | 'site' | 'folder' | 'section' | 'sectionlink' | 'externallink' | 'page' | 'asset';

/** Every addressable item (site, folder, section, link, page, asset) is one row: the tree and its names. */
export interface NodesTable {
  id: string;
  parent_id: string | null;
  kind: NodeKind;
  name: string;
  /** Navigation order of sections and links among their siblings. */
  sort_order: number;
  access_level: string | null;
  workflow: string | null;
  display_title: string | null;
  target_window: string | null;
  nav_class: string | null;
  template_name: string | null;
  external_url: string | null;
  /** For a section link: the section it points at. */
  link_target_id: string | null;
  /** For a site or section: its landing page node. */
  landing_page_id: string | null;
  created_at: string;
  updated_at: string;
  /** Who last changed the node itself (see migration 0070); null when unknown. */
  updated_by: string | null;
}

export interface TemplatesTable {
  name: string;
  label: string;
  description: string;
  /** JSON: `[{name, editable, widgets: [...]}]` in template order. */
  regions: string;
  created_at: string;
  updated_at: string;
  /** Who last changed the template (migration 0250); null when unknown. */
  updated_by: ColumnType<string | null, string | null | undefined, string | null>;
}

/** One change of a page, folder item, asset or template (migration 0250, `lib/change-log.ts`). */
export interface ChangesTable {
  id: Generated<number | string>;
  /** `page`, `asset`, `template`, or the node kind of a folder item (`site`, `folder`, `section`, …). */
  kind: string;
  /** The node id; a template's name. */
  item_id: string;
  /** Set on deletes (the path the item had); null otherwise (the reader resolves it). */
  path: string | null;
  /** The item's new ETag when the write stored it; null when unknown or deleted. */
  etag: string | null;
  deleted: ColumnType<number, number | undefined, number>;
  actor: string | null;
  at: string;
  /** Set on a change of the item's check-out lease: the new holder, or '' when it ended (migration 0300). */
  lease: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface PagesTable {
  node_id: string;
  template_name: string;
  display_name: string | null;
  summary: string | null;
  override_post_date: string | null;
  workflow_name: string;
  workflow_state: string;
  checked_out: number;
  checked_out_user: string;
  /** JSON `{reason, by, at}` of the last Reject, until the item moves on (migration 0220). */
  rejection: string | null;
  /** When the scheduler approves it / archives it (ISO 8601 UTC; migration 0290); null when not scheduled. */
  publish_at: string | null;
  unpublish_at: string | null;
  /** JSON objects. */
  seo: string;
  calendar: string;
  code: string;
  created_at: string;
  updated_at: string;
  created_by: string;
  updated_by: string;
  /**
   * The stored representation (migration 0080, modules/pages/page-docs.ts): the page's JSON without its location,
   * trusted while `doc_epoch` is the current `page_doc_epoch`; null when a write made it stale.
   */
  doc: ColumnType<string | null, string | null | undefined, string | null>;
  doc_epoch: ColumnType<string | number | null, string | number | null | undefined, string | number | null>;
  /** Changes with every write of the row (a store of the doc is conditional on it). */
  doc_seq: ColumnType<string | number, string | number | undefined, string | number>;
  /** Where the doc was last read (segments joined by `/`) and the ETag of the page there (migration 0090). */
  doc_path: ColumnType<string | null, string | null | undefined, string | null>;
  doc_etag: ColumnType<string | null, string | null | undefined, string | null>;
  /** The number of the item's latest revision (migration 0280); a write that is a revision sets the next one. */
  revision: ColumnType<number, number | undefined, number>;
}

/** One row (id 1): the epoch that stored page docs must carry to be trusted (migration 0080). */
export interface PageDocEpochTable {
  id: number;
  value: string | number;
}

export interface WidgetsTable {
  id: string;
  page_id: string;
  region: string;
  position: number;
  type: string;
  scope: string;
  editable: number;
  /** JSON fields of a local asset; null when the widget links a shared asset. */
  fields: string | null;
  shared_asset_id: string | null;
}

export interface AssetsTable {
  node_id: string;
  type: string;
  /** JSON map of the type's fields. */
  fields: string;
  workflow_name: string;
  workflow_state: string;
  checked_out: number;
  checked_out_user: string;
  /** JSON `{reason, by, at}` of the last Reject, until the item moves on (migration 0220). */
  rejection: string | null;
  /** When the scheduler approves it / archives it (ISO 8601 UTC; migration 0290); null when not scheduled. */
  publish_at: string | null;
  unpublish_at: string | null;
  blob_key: string | null;
  content_type: string | null;
  size: number | null;
  sha256: string | null;
  /** JSON `{filename, extension, size, type, width, height}` for images, `{filename, extension, size, type}` for files. */
  image: string | null;
  file: string | null;
  thumbnail: string | null;
  thumb_blob_key: string | null;
  created_at: string;
  /** The asset's last-modified time: its row's writes and its node's (migration 0190). */
  updated_at: string;
  /** Who last changed the asset's row (migration 0250); null when unknown (then its node's `updated_by`). */
  updated_by: ColumnType<string | null, string | null | undefined, string | null>;
  /** The asset node's parent (migration 0190: set on insert, kept when the node moves), for the date listings. */
  parent_id: ColumnType<string | null, string | null | undefined, string | null>;
  /**
   * The stored metadata (migration 0100, modules/assets/assets.metadata.ts): the exact JSON a GET answers at `doc_path`,
   * and its ETag; null when a write made it stale.
   */
  doc: ColumnType<string | null, string | null | undefined, string | null>;
  doc_etag: ColumnType<string | null, string | null | undefined, string | null>;
  doc_path: ColumnType<string | null, string | null | undefined, string | null>;
  /** Changes with every write of the row (a store of the doc is conditional on it). */
  doc_seq: ColumnType<string | number, string | number | undefined, string | number>;
  /** The number of the item's latest revision (migration 0280); a write that is a revision sets the next one. */
  revision: ColumnType<number, number | undefined, number>;
}

/** One revision of a page or an asset (migration 0280, modules/revisions). */
export interface RevisionsTable {
  item_id: string;
  revision: number;
  kind: 'page' | 'asset';
  saved_at: string;
  saved_by: string | null;
  state: string;
  /** A page: its JSON without the location members (page-docs.ts); an asset: its whole JSON. */
  doc: string;
  /** An asset's stored fields (JSON), its file columns (null for a page): what a restore puts back. */
  fields: string | null;
  blob_key: string | null;
  thumb_blob_key: string | null;
  content_type: string | null;
  size: ColumnType<number | string | null, number | null | undefined, number | null>;
  sha256: string | null;
  image: string | null;
  file: string | null;
  thumbnail: string | null;
}

/** An item's live revision (migration 0280). */
export interface LiveRevisionsTable {
  item_id: string;
  revision: number;
}

/** One row (id 1): `CMS_REVISIONS_KEEP` as the server last started with it (migration 0280). */
export interface RevisionRetentionTable {
  id: number;
  keep_count: number | null;
  keep_days: number | null;
}

export type { Generated };
