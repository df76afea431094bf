import { Outlet, useHref, useNavigate } from 'react-router';
import { RouterProvider } from 'react-aria-components';
import { useSessionExpiryHandler } from '../../features/auth/api/session';

/** Root of every route: react-aria links use the router, and any 401 returns the app to sign-in. */
export function RootLayout() {
  const navigate = useNavigate();
  useSessionExpiryHandler();
  return (
    <RouterProvider navigate={(to, options) => void navigate(to, options)} useHref={useHref}>
      <Outlet />
    </RouterProvider>
  );
}
