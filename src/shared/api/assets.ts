import { z } from 'zod';
import { AssetTypeId } from '../registry/asset-types.js';
import { Id, Timestamp } from './common.js';
import { PurgeParam } from './trash.js';
import { TransitionComment, TransitionName, WorkflowInfo, WorkflowSchedule, WorkflowState } from './workflow.js';

/** Largest page of `GET /cms/rest/assets/list/…`. */
export const MAX_ASSET_LIST_LIMIT = 200;
/** Page size of `GET /cms/rest/assets/list/…` when `limit` is not sent. */
export const DEFAULT_ASSET_LIST_LIMIT = 50;
/** Prefix of a thumbnail's file name: `GET /cms/rest/assets/binary/<folder>/thumb_<name>` downloads it. */
export const THUMBNAIL_PREFIX = 'thumb_';

/**
 * `image` and `thumbnail` of an image asset (read-only). `extension` is written without a leading dot (`png`),
 * as the reference system does for images; `size` is in bytes.
 */
export const AssetImageInfo = z.object({
  filename: z.string().nullable(),
  extension: z.string(),
  size: z.number().int().nonnegative(),
  /** MIME type, sniffed from the bytes. */
  type: z.string(),
  width: z.number().int().nonnegative(),
  height: z.number().int().nonnegative(),
});
export type AssetImageInfo = z.infer<typeof AssetImageInfo>;

/** `file` of a file or Flash asset (read-only). `extension` has a leading dot (`.pdf`); `size` is in bytes. */
export const AssetFileInfo = z.object({
  filename: z.string().nullable(),
  extension: z.string(),
  size: z.number().int().nonnegative(),
  /** MIME type, sniffed from the bytes. */
  type: z.string(),
});
export type AssetFileInfo = z.infer<typeof AssetFileInfo>;

/** An asset's `fields`: every key of its type (registry), `null` when unset. */
export const AssetFields = z.record(z.string(), z.string().nullable());
export type AssetFields = z.infer<typeof AssetFields>;

/** Asset metadata (interface 2.7): what `GET /cms/rest/assets/by-path/<asset_path>` answers. */
export const AssetMetadata = z.object({
  fields: AssetFields,
  id: Id,
  name: z.string(),
  type: z.string(),
  /** `Assets` or `Assets/<folder…>`. */
  folderPath: z.string(),
  workflow: WorkflowInfo,
  lastModifiedDate: Timestamp,
  createdDate: Timestamp,
  image: AssetImageInfo.optional(),
  thumbnail: AssetImageInfo.optional(),
  file: AssetFileInfo.optional(),
});
export type AssetMetadata = z.infer<typeof AssetMetadata>;

/**
 * `PUT /cms/rest/assets/by-path/<asset_path>`: creates a non-binary asset (`type` and the type's required
 * fields) or updates any asset (only the `fields` sent change; `null` unsets one, `""` is kept). `id`, `name` and
 * `folderPath` may be sent but must match the URL; the read-only members of a GET are accepted and ignored,
 * so a client can send back what it read.
 */
export const AssetPutBody = z.strictObject({
  fields: z
    .record(z.string(), z.unknown())
    .describe(
      'The fields that change, each a string as its type says: null unsets one, "" is kept as an empty string; ' +
        'a required field cannot be null or "".',
    )
    .optional(),
  type: z.string().min(1).optional(),
  workflow: z
    .object({
      /** Target state: the Default Workflow's transitions are walked to reach it. */
      state: WorkflowState.optional(),
      name: z.string().optional(),
      checkedOut: z.boolean().optional(),
      checkedOutUser: z.string().optional(),
      comment: TransitionComment.optional(),
      ...WorkflowSchedule,
    })
    .optional(),
  id: z.string().optional(),
  name: z.string().optional(),
  folderPath: z.string().optional(),
  lastModifiedDate: z.unknown().optional(),
  createdDate: z.unknown().optional(),
  image: z.unknown().optional(),
  thumbnail: z.unknown().optional(),
  file: z.unknown().optional(),
});
export type AssetPutBody = z.infer<typeof AssetPutBody>;

/** `assetType` of an upload: overrides the type sniffed from the bytes. */
export const UploadAssetType = z.enum(['file', 'flash', 'image']);
export type UploadAssetType = z.infer<typeof UploadAssetType>;

/** Query of `POST /cms/rest/assets/binary/<asset_path>` (`assetType` may also be a form field). */
export const AssetUploadQuery = z.object({ assetType: UploadAssetType.optional() });

/** Query of `DELETE /cms/rest/assets/by-path/<asset_path>`. */
export const AssetDeleteQuery = z.object({
  /** `true` deletes an asset that pages link, removing those links (widgets) in the same transaction. */
  force: z.enum(['true', 'false']).optional(),
  purge: PurgeParam,
});

const booleanString = z.enum(['true', 'false']).transform((v) => v === 'true');

/** What a listing can be sorted by. */
export const AssetListSort = z.enum(['name', 'lastModifiedDate', 'type', 'state', 'size']);
export type AssetListSort = z.infer<typeof AssetListSort>;

/** Query of `GET /cms/rest/assets/list/<folder_path>`. */
export const AssetListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(MAX_ASSET_LIST_LIMIT).default(DEFAULT_ASSET_LIST_LIMIT),
  /** Opaque: the `nextCursor` of the previous page (with the same sort, order and filters). */
  cursor: z.string().max(2000).optional(),
  /** Case-insensitive substring of the name, display title or alt text. */
  q: z.string().max(200).optional(),
  type: AssetTypeId.optional(),
  state: WorkflowState.optional(),
  /** `true` lists only images whose alt text is empty (what needs one). */
  missingAltText: booleanString.default(false),
  /**
   * `name` and `lastModifiedDate` read an index range; `type`, `state` and `size` (bytes; assets without a file
   * first) sort the folder's rows, then by name.
   */
  sort: AssetListSort.default('name'),
  order: z.enum(['asc', 'desc']).default('asc'),
  /** `true` lists the assets of every folder below too. */
  recursive: booleanString.default(false),
});
export type AssetListQuery = z.infer<typeof AssetListQuery>;
export type AssetListQueryInput = z.input<typeof AssetListQuery>;

/** A page of assets. `nextCursor` is null on the last page; `total` counts every match. */
export const AssetList = z.object({
  items: z.array(AssetMetadata),
  nextCursor: z.string().nullable(),
  total: z.number().int().nonnegative(),
});
export type AssetList = z.infer<typeof AssetList>;

/** A page region that uses a shared asset: a widget links it, or an image, link or path in a widget's fields. */
export const AssetUsageEntry = z.object({
  /**
   * What uses it, when not a page region: a `template` (its regions show on every page made from it; `path` is the
   * template's name) or a shared `asset` whose text refers to it (`path` is `Assets/…`; the page regions linking
   * that asset are listed too).
   */
  kind: z.enum(['template', 'asset']).optional(),
  /** `<site>/<folder…>/<page>`. */
  path: z.string(),
  displayName: z.string(),
  region: z.string(),
  /** The page's workflow state (`Public`: the change shows to visitors at once). */
  state: z.string(),
  /** The page resource. */
  href: z.string(),
});
export type AssetUsageEntry = z.infer<typeof AssetUsageEntry>;

/** `GET /cms/rest/assets/usage/<asset_path>`: where the asset is used. */
export const AssetUsage = z.object({
  /** The asset's path (`Assets/…`). */
  asset: z.string(),
  usedBy: z.array(AssetUsageEntry),
});
export type AssetUsage = z.infer<typeof AssetUsage>;

/** Bulk workflow actions on the assets of a folder and its subfolders. */
export const AssetBulkAction = z.enum(['approve-all', 'submit-all', 'archive-all']);
export type AssetBulkAction = z.infer<typeof AssetBulkAction>;

/** The transition each bulk action takes. */
export const BULK_TRANSITION: Record<AssetBulkAction, TransitionName> = {
  'approve-all': 'Approve',
  'submit-all': 'Submit',
  'archive-all': 'Archive',
};

/** Answer of a bulk workflow action: how many assets moved and how many could not (wrong state or access). */
export const AssetBulkResult = z.object({
  message: z.string(),
  changed: z.number().int().nonnegative(),
  skipped: z.number().int().nonnegative(),
});
export type AssetBulkResult = z.infer<typeof AssetBulkResult>;
