import { z } from 'zod';

/** What an event is about: a page, an asset, a template, or a folder item by its kind. */
export const ChangeKind = z.enum([
  'page',
  'asset',
  'template',
  'site',
  'folder',
  'section',
  'sectionlink',
  'externallink',
  'library',
  'root',
]);
export type ChangeKind = z.infer<typeof ChangeKind>;

/**
 * One change, as the `data` of a `change` event of `GET /cms/rest/events` (its SSE `id` is `id`, for
 * `Last-Event-ID`).
 */
export const ChangeEvent = z.object({
  /** Increasing: the event's position in the change log. */
  id: z.number().int(),
  kind: ChangeKind,
  /** The item's id; a template's name. */
  itemId: z.string(),
  /**
   * The item's path (`<site>/<folders…>/<name>` or `Assets/<folders…>/<name>`; a template's name): where it is
   * now, or where it was when deleted.
   */
  path: z.string(),
  /** The item's new strong ETag; null when deleted or when the write did not compute it (refetch to learn it). */
  etag: z.string().nullable(),
  deleted: z.boolean(),
  /** The user who made the change; null when unknown. */
  by: z.string().nullable(),
  /** When (ISO-8601 UTC). */
  at: z.string(),
  /**
   * Only on a change of the item's check-out lease (taken, taken over, ended): who holds it now, null when nobody
   * does. `by` is who changed it (the taker; the holder who left or signed out). The item's content is unchanged.
   */
  lease: z.object({ holder: z.string().nullable() }).optional(),
});
export type ChangeEvent = z.infer<typeof ChangeEvent>;

/**
 * The `data` of a `reset` event: the stream cannot resume from the `Last-Event-ID` sent (the log no longer reaches
 * back that far), so the client must refetch everything it shows. Live events follow from `lastId`.
 */
export const ResetEvent = z.object({ lastId: z.number().int() });
export type ResetEvent = z.infer<typeof ResetEvent>;
