import { Navigate, type RouteObject } from 'react-router';
import { paths } from './paths';
import { NotFoundRoute } from './routes/not-found-route';
import { RequireSession } from './routes/require-session';
import { RootLayout } from './routes/root-layout';
import { RouteError } from './routes/route-error';
import { SignInRoute } from './routes/sign-in-route';
import { SitesRoute } from './routes/sites-route';

// Screens not needed for the first paint (sign-in, the sites) load on first use, with the libraries only they
// need (user management's dialogs, menus and selects; the explorer's tree and forms).
const explorerItemRoute = () => import('./routes/explorer-item-route');
const usersRoute = () => import('./routes/users-route');
const kitRoute = () => import('./routes/kit-route');

/** Every screen of the app. Features are composed here; they never import each other. */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteError />,
    children: [
      { path: paths.signIn, element: <SignInRoute /> },
      {
        element: <RequireSession />,
        errorElement: <RouteError />,
        children: [
          { index: true, element: <Navigate to={paths.sites} replace /> },
          { path: paths.sites, element: <SitesRoute /> },
          { path: paths.users, lazy: usersRoute },
          { path: paths.kit, lazy: kitRoute },
          { path: `${paths.kit}/:kind/:type`, lazy: kitRoute },
          // The explorer's screens: the URL of an item is its path (loaded on first use).
          { path: `${paths.sites}/*`, lazy: explorerItemRoute },
          { path: `${paths.pages}/*`, lazy: explorerItemRoute },
          { path: paths.assets, lazy: explorerItemRoute },
          { path: `${paths.assets}/*`, lazy: explorerItemRoute },
          { path: '*', element: <NotFoundRoute /> },
        ],
      },
    ],
  },
];
