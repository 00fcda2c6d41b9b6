import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Test files run in parallel; each one uses its own queue names and key prefix.
    pool: 'forks',
    // Most test files wait on Redis, child processes, loopback servers and timers rather than
    // compute, so as many files as there are cores keep them busy (the default, one fewer, runs a
    // single file at a time on two cores).
    maxWorkers: availableParallelism(),
  },
});
