import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/torture/**', 'node_modules/**'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Most files wait on child processes, servers and timers, not on the CPU: three at a time keep
    // two cores busy (vitest's default is one per core minus one, which is one here). The torture
    // config keeps the default, because its timing loops want the machine to themselves.
    maxWorkers: 3,
  },
});
