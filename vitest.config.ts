import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Tests spawn real processes and servers; two cores are shared by everything.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    env: { RIG_HOME: '/nonexistent-rig-home-set-RIG_HOME-in-the-test' },
  },
});
