import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { precompressDir } from './scripts/precompress';
import { screenChunkOf } from './scripts/screen-chunks';

/** Where `npm run dev` finds the API server (tsx watch src/server/main.ts, PORT 8080 by default). */
const apiTarget = process.env.FOLIO_API_URL ?? `http://127.0.0.1:${process.env.PORT ?? 8080}`;
// Keep the browser's Host and Origin as they are: the server's sign-in checks that they match.
const proxy = { target: apiTarget, changeOrigin: false };

/** After a build, `.br` and `.gz` beside each text file: the server sends them to browsers that accept them. */
function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'folio-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    closeBundle() {
      precompressDir(outDir);
    },
  };
}

const ARIA =
  /node_modules[\\/](react-aria|react-aria-components|react-stately|@react-aria|@react-stately|@react-types|@internationalized)[\\/]/;

export default defineConfig({
  plugins: [react(), precompress()],
  publicDir: 'public',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // dist/.vite/manifest.json maps entry sources to their hashed files (for tooling and server-side checks).
    manifest: true,
    sourcemap: true,
    target: 'es2022',
    // The page editor's libraries come as one chunk on purpose (~710 kB, ~200 kB gzip: scripts/screen-chunks.ts).
    chunkSizeWarningLimit: 800,
    rolldownOptions: {
      output: {
        // Libraries change less often than the app: separate chunks stay cached across deploys. `entriesAware`
        // keeps library code used only by lazily loaded screens (the users screen's dialogs and selects, the
        // explorer's tree, drag and drop, virtualiser) out of the chunks every page loads. The first screen's
        // libraries (`$initial`) come first, one chunk each (the first screen loads all of them: split by the lazy
        // screens sharing them they were only more files); then what the page editor loads on opening comes in a
        // few larger chunks (scripts/screen-chunks.ts) rather than ~60 small ones; the rest per set of entries.
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/ },
            { name: 'aria', test: ARIA, tags: ['$initial'] },
            { name: 'vendor', test: /node_modules[\\/]/, tags: ['$initial'] },
            {
              name: (id, ctx) => screenChunkOf(id, ctx, path.resolve(import.meta.dirname, 'src')),
              includeDependenciesRecursively: false,
            },
            { name: 'aria', test: ARIA, entriesAware: true },
            { name: 'vendor', test: /node_modules[\\/]/, entriesAware: true },
          ],
        },
      },
    },
  },
  server: {
    host: '127.0.0.1',
    port: 5173,
    strictPort: true,
    proxy: { '/cms': proxy, '/healthz': proxy, '/docs': proxy },
  },
  preview: {
    host: '127.0.0.1',
    proxy: { '/cms': proxy, '/healthz': proxy, '/docs': proxy },
  },
});
