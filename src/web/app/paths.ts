/** The app's own URLs (the API lives under /cms/rest, served by the same origin). */
export const paths = {
  signIn: '/sign-in',
  sites: '/sites',
  users: '/users',
  /** `/pages/<site>/<folders…>/<page>`: a page. */
  pages: '/pages',
  /** `/assets` (the asset library) and `/assets/<folders…>`: asset folders. */
  assets: '/assets',
} as const;
