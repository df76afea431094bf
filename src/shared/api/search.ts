import { z } from 'zod';
import { Timestamp } from './common.js';
import { WorkflowState } from './workflow.js';

/** What a search result is: a page, an asset, or a folder item (site, folder, section, links, asset folder). */
export const SearchKind = z.enum(['page', 'asset', 'folder']);
export type SearchKind = z.infer<typeof SearchKind>;

export const SEARCH_MAX_LIMIT = 100;
export const SEARCH_DEFAULT_LIMIT = 20;
export const SEARCH_MAX_QUERY = 200;

/**
 * The query of `GET /cms/rest/search`. `q` is what the editor typed: words match by English stem, `"a phrase"` in
 * quotes matches the words in order, `-word` excludes, and the last word also matches as a prefix while typing.
 * `kind` and `state` repeat (`?kind=page&kind=asset`).
 */
export const SearchQuery = z.object({
  q: z.string().trim().min(1).max(SEARCH_MAX_QUERY),
  kind: z.array(SearchKind).optional(),
  /** A site's name (or `Assets`): only items under it. */
  site: z.string().min(1).optional(),
  /** A path prefix (`<site>/<folders…>` or `Assets/<folders…>`): only items in that folder or below. */
  folder: z.string().min(1).optional(),
  state: z.array(WorkflowState).optional(),
  /** A widget type (pages containing one) or an asset type (`cmsImageAsset`, …). */
  type: z.string().min(1).optional(),
  limit: z.coerce.number().int().min(1).max(SEARCH_MAX_LIMIT).optional(),
  /** The `next` of the previous answer. */
  cursor: z.string().min(1).optional(),
});
export type SearchQuery = z.infer<typeof SearchQuery>;

export const SearchHit = z.object({
  kind: SearchKind,
  /** The item's path: `<site>/<folders…>/<name>` or `Assets/<folders…>/<name>`. */
  path: z.string(),
  title: z.string(),
  /** A page's template, an asset's type, a folder item's kind (`site`, `folder`, `section`, …). */
  type: z.string(),
  /** The workflow state; null for folder items. */
  state: WorkflowState.nullable(),
  modified: Timestamp.nullable(),
  /** A short excerpt, HTML-escaped, with the matched words in `<mark>` and no other markup. */
  snippet: z.string(),
});
export type SearchHit = z.infer<typeof SearchHit>;

/** The answer of `GET /cms/rest/search`: best match first (a title match before a body match). */
export const SearchResults = z.object({
  items: z.array(SearchHit),
  /** The cursor of the next page; null on the last. */
  next: z.string().nullable(),
  /**
   * True when more items match than the server ranks (`CMS_SEARCH_RANK_LIMIT`, 2,000 by default): the answer and
   * the pages after it hold only the newest of them (by when each was first indexed), best match first among those.
   * A word that common says little; more words narrow it.
   */
  capped: z.boolean(),
});
export type SearchResults = z.infer<typeof SearchResults>;
