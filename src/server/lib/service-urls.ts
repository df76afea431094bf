/**
 * Which URLs the service answers itself and which belong to the browser app. One rule, read by the security
 * headers, authentication, the route list of the OpenAPI document and the SPA fallback. Each function takes a
 * request URL as sent (a query string may follow the path) and is cheap enough to run on every request.
 */

/** The URL's path, without its query string. */
function pathOf(url: string): string {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

/** The REST interface (`/cms/…`) and the health check: JSON answers, never stored by clients, documented. */
export function isApiUrl(url: string): boolean {
  return url.startsWith('/cms/') || pathOf(url) === '/healthz';
}

/**
 * URLs the browser app never owns: the API, `/cms` itself and the API docs (`/docs`, `/docs/…`). A GET of an
 * unknown one is a JSON 404, not the app's index page.
 */
export function isServiceUrl(url: string): boolean {
  if (isApiUrl(url)) return true;
  const path = pathOf(url);
  return path === '/cms' || path === '/docs' || path.startsWith('/docs/');
}

/** Service URLs that need credentials: all but the health check (a route may still be `config.public`). */
export function needsCredentials(url: string): boolean {
  return url.startsWith('/cms/') || (isServiceUrl(url) && pathOf(url) !== '/healthz');
}
