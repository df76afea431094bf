/**
 * The error codes as plain data (no zod): the SPA's first screen tells problems apart without loading the
 * contract's schemas. `errors.ts` makes the `ErrorCode` schema of them.
 */

/** Stable machine-readable error codes carried in `code` of every problem response. */
export const ERROR_CODES = [
  'INVALID_BODY',
  'INVALID_JSON',
  'INVALID_PARAMETER',
  'UNAUTHENTICATED',
  'CSRF_TOKEN_INVALID',
  'NOT_AUTHORIZED',
  'NOT_FOUND',
  'PAGE_NOT_FOUND',
  'FOLDER_NOT_FOUND',
  'ASSET_NOT_FOUND',
  'SITE_NOT_FOUND',
  'TEMPLATE_NOT_FOUND',
  /** No revision of that number: never written, or pruned by retention (404). */
  'REVISION_NOT_FOUND',
  /** The item has no live revision: never approved, or archived since (404). */
  'NO_LIVE_REVISION',
  'USER_NOT_FOUND',
  /** No trash entry of that id: never made, restored, or purged since (404). */
  'TRASH_ENTRY_NOT_FOUND',
  'METHOD_NOT_ALLOWED',
  'LOCATION_MISMATCH',
  'ID_MISMATCH',
  'FOLDER_NOT_EMPTY',
  'ASSET_ALREADY_EXISTS',
  'ASSET_IN_USE',
  /** A restore would link shared assets that no longer exist (409; `detail` names them). */
  'RESTORE_ASSETS_MISSING',
  'TEMPLATE_IN_USE',
  'INVALID_TRANSITION',
  'NAME_TAKEN',
  /** A trashed item's place is gone (its folder was deleted too): restore it elsewhere with `to` (409). */
  'RESTORE_PLACE_GONE',
  'INVALID_MOVE',
  'TYPE_MISMATCH',
  'CONFLICT',
  'PRECONDITION_FAILED',
  /** Someone else holds the item's check-out lease (409; `lease` names them): take it over first. */
  'LEASE_HELD',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'RANGE_NOT_SATISFIABLE',
  'TOO_MANY_ATTEMPTS',
  /** The request line (its URL with the query) and headers together exceed the server's limit (431). */
  'HEADERS_TOO_LARGE',
  /** The request did not arrive whole in time (408). */
  'REQUEST_TIMEOUT',
  /** The bytes sent are not an HTTP request the server can read (400, before any route). */
  'MALFORMED_REQUEST',
  /** A write committed but could not be made durable (the disk failed its sync): it is not acknowledged. */
  'STORAGE_UNAVAILABLE',
  'INTERNAL_ERROR',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];
