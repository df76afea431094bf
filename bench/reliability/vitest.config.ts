import { defineConfig } from 'vitest/config';

/**
 * `npm run test:reliability`: the reliability suites against the built server (bench/.cache/build), one file
 * at a time (each starts its own servers; the crash suite kills them). `npm test` runs them last.
 */
export default defineConfig({
  test: {
    name: 'reliability',
    root: new URL('../..', import.meta.url).pathname,
    include: ['bench/reliability/**/*.test.ts'],
    environment: 'node',
    globalSetup: ['bench/reliability/global-setup.ts'],
    fileParallelism: false,
    testTimeout: 240_000,
    hookTimeout: 120_000,
    reporters: ['default'],
  },
});
