import { defineConfig } from 'vitest/config';

// Three projects that mirror test/: pure unit tests, engine tests against real SQLite files
// (and later a real Docker engine), and end-to-end tests that drive Chromium against a real
// `cuelab serve`. `npm test` builds first; engine and e2e tests use the built output.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'engine',
          include: ['test/engine/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
