import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter } from 'react-router';
import { pageHref, splitPath } from '../shared/api/paths';
import { App } from './app/app';
import { paths } from './app/paths';
import { createQueryClient } from './app/query-client';
import { routes } from './app/router';
import { explorerLocationOf } from './app/routes/explorer-navigation';
import { hasSessionHint, sessionQueryOptions } from './features/auth/api/session';
import { createWebApi } from './lib/api';
import { earlyGets } from './lib/early-gets';
import { initTheme } from './lib/theme';
import './styles/tokens.css';
import './styles/base.css';
import './components/ui/ui.css';
import './app/layout/app-frame.css';

// Before the first render, so the page never flashes in the wrong theme.
initTheme();

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element.');

const early = earlyGets();
const api = createWebApi({ fetch: early.fetch });
const queryClient = createQueryClient();
// Who is signed in is asked at once, while the first screen's lazily loaded route arrives (not after it); on a
// screen whose data is known from its URL alone, that data too (app/first-screen-data.ts). With the sign-in hint
// cookie a session most likely holds, so the data is asked for beside /auth/me rather than after its answer (a
// round trip and the response schemas' load earlier); should the session be gone, that answer is a 401 that
// changes nothing (the screen never mounts before a sign-in, which asks again).
void queryClient.prefetchQuery(sessionQueryOptions(api, queryClient));
const { pathname } = window.location;
// The page editor's document goes out with the session check, not after it and two chunks (a fresh tab, HTTP/1.1:
// those wait behind the screen's code); the client takes the answer when it asks (lib/early-gets.ts).
const at = explorerLocationOf(pathname);
if (at?.area === 'pages' && hasSessionHint()) early.start(pageHref(splitPath(at.path)));
if (hasSessionHint() && (pathname.startsWith(paths.assets) || pathname.startsWith(`${paths.pages}/`))) {
  void import('./app/first-screen-data').then((m) => m.prefetchFirstScreen(window.location, api, queryClient));
}

createRoot(root).render(
  <StrictMode>
    <App api={api} queryClient={queryClient} router={createBrowserRouter(routes)} />
  </StrictMode>,
);
