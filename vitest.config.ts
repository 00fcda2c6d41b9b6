import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Test files run in parallel; each one uses its own queue names and key prefix.
    pool: 'forks',
  },
});
