import { defineConfig } from 'vitest/config';

// Two projects in one `npm test`: everything else, and the browser tests (test/browser), which
// drive one Chromium at a time in a single worker.
export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/**/*.test.ts'], exclude: ['test/browser/**'] } },
      {
        extends: true,
        test: { name: 'browser', include: ['test/browser/**/*.test.ts'], fileParallelism: false, maxWorkers: 1, testTimeout: 120_000 },
      },
    ],
  },
});
