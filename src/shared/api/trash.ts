import { z } from 'zod';

/** The id of a trash entry: digits (`GET /cms/rest/trash` answers them). */
export const TrashId = z.string().regex(/^[1-9]\d{0,15}$/, 'must be the id of a trash entry');

/** The answer of a DELETE of a page, asset or folder item: `trashId` names its trash entry (none when purged). */
export const TrashedMessage = z.object({ message: z.literal('Deleted'), trashId: TrashId.optional() });
export type TrashedMessage = z.infer<typeof TrashedMessage>;

/** `?purge=true` on a DELETE: delete for good, skipping the trash (admins). */
export const PurgeParam = z
  .enum(['true', 'false'])
  .optional()
  .describe('`true` deletes for good, skipping the trash (admins only: 403 otherwise).');

/** The query of a DELETE of a page: only `purge`. */
export const PurgeQuery = z.object({ purge: PurgeParam });
export type PurgeQuery = z.infer<typeof PurgeQuery>;

export const TRASH_MAX_LIMIT = 100;
export const TRASH_DEFAULT_LIMIT = 50;

/** The query of `GET /cms/rest/trash`. */
export const TrashListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(TRASH_MAX_LIMIT).optional(),
  /** The `next` of the previous answer. */
  cursor: z.string().min(1).optional(),
});
export type TrashListQuery = z.infer<typeof TrashListQuery>;

/** One deleted item waiting in the trash. */
export const TrashEntry = z.object({
  id: TrashId,
  /** `page`, `asset`, or a folder item's kind (`site`, `folder`, `section`, `sectionlink`, `externallink`). */
  kind: z.string(),
  /** Its name. */
  name: z.string(),
  /**
   * The title people know it by: a page's display name, an asset's display title, a site's, section's, folder's
   * or link's title; its name when it has none.
   */
  title: z.string(),
  /** Where it was: its path then (segments joined by `/`), and the container's path (`''` for a site). */
  path: z.string(),
  from: z.string(),
  /** Who deleted it and when (ISO 8601, UTC). */
  deletedBy: z.string(),
  deletedAt: z.string(),
  /** When the trash purges it (ISO 8601, UTC): `CMS_TRASH_DAYS` after the delete. */
  purgeAt: z.string(),
});
export type TrashEntry = z.infer<typeof TrashEntry>;

/** The answer of `GET /cms/rest/trash`: newest first. */
export const TrashList = z.object({
  items: z.array(TrashEntry),
  /** The cursor of the next page; null on the last. */
  next: z.string().nullable(),
});
export type TrashList = z.infer<typeof TrashList>;

/** `POST /cms/rest/trash/restore`: the entry to put back, where it was, or into the container at `to`. */
export const TrashRestoreBody = z.object({ id: TrashId, to: z.string().min(1).max(8192).optional() });
export type TrashRestoreBody = z.infer<typeof TrashRestoreBody>;

/** The answer of a restore: the item where it is now. */
export const TrashRestored = z.object({
  kind: z.string(),
  /** Its path (segments joined by `/`) and its address. */
  path: z.string(),
  href: z.string(),
});
export type TrashRestored = z.infer<typeof TrashRestored>;

export const TrashIdParams = z.object({ id: TrashId });
