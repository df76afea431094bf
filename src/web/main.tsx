import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter } from 'react-router';
import { pageHref, splitPath } from '../shared/api/paths';
import { App } from './app/app';
import { paths } from './app/paths';
import { createQueryClient } from './app/query-client';
import { routes } from './app/router';
import { explorerLocationOf } from './app/routes/explorer-navigation';
import { authKeys, sessionQueryOptions, type Session } from './features/auth/api/session';
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
// Who is signed in is asked at once, while the first screen's lazily loaded route arrives (not after it); then, on
// a screen whose data is known from its URL alone, that data for someone signed in (app/first-screen-data.ts).
const session = queryClient.prefetchQuery(sessionQueryOptions(api, queryClient));
const { pathname } = window.location;
// The page editor's document goes out with the session check, not after it and two chunks (a fresh tab, HTTP/1.1:
// those wait behind the screen's code); the client takes the answer when it asks, once the session is known.
const at = explorerLocationOf(pathname);
if (at?.area === 'pages') early.start(pageHref(splitPath(at.path)));
if (pathname.startsWith(paths.assets) || pathname.startsWith(`${paths.pages}/`)) {
  const firstScreen = import('./app/first-screen-data');
  void session.then(async () => {
    if (!queryClient.getQueryData<Session>(authKeys.session())?.user) return;
    (await firstScreen).prefetchFirstScreen(window.location, api, queryClient);
  });
}

createRoot(root).render(
  <StrictMode>
    <App api={api} queryClient={queryClient} router={createBrowserRouter(routes)} />
  </StrictMode>,
);
