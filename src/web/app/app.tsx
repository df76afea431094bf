import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { RouterProvider } from 'react-router';
import { ToastRegion } from '../components/ui/toast';
import { ApiProvider, type WebApi } from '../lib/api';

type DataRouter = Parameters<typeof RouterProvider>[0]['router'];

/** The whole app: API client, query cache, router, and the toast region. Tests pass a memory router and fake fetch. */
export function App({ api, queryClient, router }: { api: WebApi; queryClient: QueryClient; router: DataRouter }) {
  return (
    <ApiProvider api={api}>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
        <ToastRegion />
      </QueryClientProvider>
    </ApiProvider>
  );
}
