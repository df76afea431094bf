import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'server',
          environment: 'node',
          include: ['src/server/**/*.test.ts', 'src/shared/**/*.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        plugins: [react()],
        test: {
          name: 'web',
          environment: 'jsdom',
          include: ['src/web/**/*.test.{ts,tsx}'],
          exclude: ['src/web/**/*.server.test.{ts,tsx}'],
          // jsdom + user-event tests take 1–3 s on an idle machine; on a loaded 2-core one they passed 5 s.
          testTimeout: 30_000,
          setupFiles: ['src/web/test/setup.ts'],
        },
      },
      {
        // Browser-side code against the real server (started on a free port by the global setup).
        plugins: [react()],
        test: {
          name: 'web-server',
          environment: 'jsdom',
          include: ['src/web/**/*.server.test.{ts,tsx}'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          setupFiles: ['src/web/test/setup.ts'],
          globalSetup: ['src/server/test/web-server.setup.ts'],
        },
      },
    ],
  },
});
