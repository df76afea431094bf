import { z } from 'zod';
import { WorkflowState } from './workflow.js';

/** What has a history: pages and assets. */
export const RevisionKind = z.enum(['pages', 'assets']);
export type RevisionKind = z.infer<typeof RevisionKind>;

export const REVISIONS_MAX_LIMIT = 100;
export const REVISIONS_DEFAULT_LIMIT = 50;

/** The query of `GET /cms/rest/{pages|assets}/revisions/{path}`. */
export const RevisionListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(REVISIONS_MAX_LIMIT).optional(),
  /** The `next` of the previous answer. */
  cursor: z.string().min(1).optional(),
});
export type RevisionListQuery = z.infer<typeof RevisionListQuery>;

/** One revision of a page or an asset: a successful write of it (PUT, workflow move, upload, replace, restore). */
export const RevisionSummary = z.object({
  /** The revision's number: 1 for the item's first, one more for each write after it. */
  revision: z.number().int().positive(),
  /** When it was written (ISO 8601, UTC). */
  savedAt: z.string(),
  /** Who wrote it (a username); null when not known. */
  savedBy: z.string().nullable(),
  /** The workflow state the write left the item in. */
  state: WorkflowState,
  /** True for the item's live revision: the one last approved, until it is archived. */
  live: z.boolean(),
});
export type RevisionSummary = z.infer<typeof RevisionSummary>;

/** The answer of the revision list: newest first. */
export const RevisionList = z.object({
  items: z.array(RevisionSummary),
  /** The cursor of the next page; null on the last. */
  next: z.string().nullable(),
});
export type RevisionList = z.infer<typeof RevisionList>;

/**
 * The query a by-path GET of a page or an asset also takes: `revision=N` answers the item as it was at N (byte for
 * byte what a GET answered then); `version=live` answers its live revision. At most one of the two.
 */
export const VersionQuery = z
  .object({
    revision: z.coerce.number().int().positive().optional(),
    version: z.literal('live').optional(),
  })
  .refine((q) => q.revision === undefined || q.version === undefined, {
    message: 'ask for a revision or for the live version, not both',
    path: ['version'],
  });
export type VersionQuery = z.infer<typeof VersionQuery>;

/** The body of `POST /cms/rest/{pages|assets}/restore/{path}`: the revision whose content becomes current. */
export const RestoreBody = z.object({ revision: z.number().int().positive() });
export type RestoreBody = z.infer<typeof RestoreBody>;
