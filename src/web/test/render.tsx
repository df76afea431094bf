import { QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { createMemoryRouter } from 'react-router';
import { App } from '../app/app';
import { createQueryClient } from '../app/query-client';
import { routes } from '../app/router';
import { ToastRegion } from '../components/ui/toast';
import { ApiProvider, createWebApi } from '../lib/api';
import { createFakeFetch, type Handlers } from './fake-api';

/** Renders one component with the app's providers over a fake server. */
export function renderWithProviders(ui: ReactNode, handlers: Handlers, { csrfToken }: { csrfToken?: string } = {}) {
  const server = createFakeFetch(handlers);
  const api = createWebApi({ fetch: server.fetch });
  api.setCsrfToken(csrfToken);
  const queryClient = createQueryClient({ retry: false });
  const user = userEvent.setup();
  // A wrapper, so that `rerender` keeps the providers too.
  const wrapper = ({ children }: { children: ReactNode }) => (
    <ApiProvider api={api}>
      <QueryClientProvider client={queryClient}>
        {children}
        <ToastRegion />
      </QueryClientProvider>
    </ApiProvider>
  );
  const view = render(ui, { wrapper });
  return { ...view, server, api, queryClient, user };
}

/** Renders the whole app (routes, session, frame) at `path` over a fake server. */
export function renderApp(path: string, handlers: Handlers) {
  const server = createFakeFetch(handlers);
  const api = createWebApi({ fetch: server.fetch });
  const queryClient = createQueryClient({ retry: false });
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const user = userEvent.setup();
  const view = render(<App api={api} queryClient={queryClient} router={router} />);
  return { ...view, server, api, queryClient, router, user };
}
