/** Names of the session's cookie hint and CSRF header, as plain data (no zod) for the SPA's first screen. */

/**
 * A cookie the browser may read, set with the (HttpOnly) session cookie at sign-in and cleared at sign-out: it
 * holds no secret, only tells the SPA that asking who is signed in is worth a request (without it, a signed-out
 * visit would start with a 401 in the console).
 */
export const SESSION_HINT_COOKIE = 'folio_signed_in';

/** Header carrying the session's CSRF token on unsafe methods. */
export const CSRF_HEADER = 'x-csrf-token';
