import { matchRoutes, Navigate, type RouteObject } from 'react-router';
import { paths } from './paths';
import { NotFoundRoute } from './routes/not-found-route';
import { RequireSession } from './routes/require-session';
import { RootLayout } from './routes/root-layout';
import { RouteError } from './routes/route-error';
import { SignInRoute } from './routes/sign-in-route';
import { SitesRoute } from './routes/sites-route';
import { FirstLoad } from './routes/first-load';

// Screens not needed for the first paint (sign-in, the sites) load on first use, with the libraries only they
// need (user management's dialogs, menus and selects; the explorer's tree and forms).
const explorerItemRoute = () => import('./routes/explorer-item-route');
const usersRoute = () => import('./routes/users-route');
const kitRoute = () => import('./routes/kit-route');
const templatesRoute = () => import('./routes/templates-route');
const accountRoute = () => import('./routes/account-route');
const trashRoute = () => import('./routes/trash-route');
const assetLibraryRoute = () => import('./routes/asset-library-route');
const pageEditorRoute = () => import('./routes/page-editor-route');

/**
 * Starts loading the code of the screen at an app URL — the lazy routes below that the router would load for it —
 * when a link to it is pointed at or focused (the tree, a folder's contents, search), so it opens without waiting
 * for its code. A failed load is tried again on opening.
 */
function preloadScreenAt(href: string) {
  for (const { route } of matchRoutes(routes, href.split('?')[0]!) ?? []) {
    if (typeof route.lazy === 'function') void Promise.resolve(route.lazy()).catch(() => undefined);
  }
}

/** Every screen of the app. Features are composed here; they never import each other. */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteError />,
    // Shown while the first screen's lazy route loads on a full page load (React Router warns without one).
    hydrateFallbackElement: <FirstLoad />,
    children: [
      { path: paths.signIn, element: <SignInRoute /> },
      {
        element: <RequireSession preloadScreenAt={preloadScreenAt} />,
        errorElement: <RouteError />,
        children: [
          { index: true, element: <Navigate to={paths.sites} replace /> },
          { path: paths.sites, element: <SitesRoute /> },
          { path: paths.users, lazy: usersRoute },
          { path: paths.templates, lazy: templatesRoute },
          { path: `${paths.templates}/:name`, lazy: templatesRoute },
          { path: paths.account, lazy: accountRoute },
          { path: paths.trash, lazy: trashRoute },
          { path: paths.kit, lazy: kitRoute },
          { path: `${paths.kit}/:kind/:type`, lazy: kitRoute },
          // The explorer's screens: the URL of an item is its path (loaded on first use).
          { path: `${paths.sites}/*`, lazy: explorerItemRoute },
          { path: `${paths.pages}/*`, lazy: pageEditorRoute },
          // The asset library: /assets and /assets/<folders…> (the URLs the explorer gives asset folders).
          { path: paths.assets, lazy: assetLibraryRoute },
          { path: `${paths.assets}/*`, lazy: assetLibraryRoute },
          { path: '*', element: <NotFoundRoute /> },
        ],
      },
    ],
  },
];
