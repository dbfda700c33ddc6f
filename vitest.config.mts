import { defineConfig } from 'vitest/config';

// Two projects in one `npm test`: everything else, and the browser tests (test/browser), which
// drive one Chromium at a time in a single worker.
export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // HEARTH_TEST_DB=postgres: one throwaway PostgreSQL cluster and a migrated template for the run.
    globalSetup: ['test/global-postgres.ts'],
    // hearth processes the tests start run without the built-in SSH server unless a test asks
    // for it (as root it would take port 22); test/ssh turns it on, on a free port.
    env: { HEARTH__SERVER__START_SSH_SERVER: 'false', HEARTH__SERVER__SSH_LISTEN_PORT: '0' },
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/**/*.test.ts'], exclude: ['test/browser/**'] } },
      {
        extends: true,
        test: { name: 'browser', include: ['test/browser/**/*.test.ts'], fileParallelism: false, maxWorkers: 1, testTimeout: 120_000 },
      },
    ],
  },
});
