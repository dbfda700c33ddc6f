import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // hearth processes the tests start run without the built-in SSH server unless a test asks
    // for it (as root it would take port 22); test/ssh turns it on, on a free port.
    env: { HEARTH__SERVER__START_SSH_SERVER: 'false', HEARTH__SERVER__SSH_LISTEN_PORT: '0' },
  },
});
