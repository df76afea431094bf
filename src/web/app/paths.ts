/** The app's own URLs (the API lives under /cms/rest, served by the same origin). */
export const paths = {
  signIn: '/sign-in',
  sites: '/sites',
  users: '/users',
  /** `/templates`, `/templates?new`, `/templates/<name>`: templates and their editor (admins). */
  templates: '/templates',
  /** Deleted items, to restore (admins also delete them for good). */
  trash: '/trash',
  /** The signed-in user's own account (their password). */
  account: '/account',
  /** `/kit` and `/kit/<widgets|assets>/<type>`: the editing kit's gallery (admins). */
  kit: '/kit',
  /** `/pages/<site>/<folders…>/<page>`: a page. */
  pages: '/pages',
  /** `/assets` (the asset library) and `/assets/<folders…>`: asset folders. */
  assets: '/assets',
} as const;
