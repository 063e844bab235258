import { defineConfig } from 'vitest/config';
import { E2E_FILES } from './vitest.e2e.config.js';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The torture suite (npm run test:torture) and the installing end-to-end files (npm run test:e2e) run on their own.
    exclude: ['test/torture/**', ...E2E_FILES, 'node_modules/**'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // One worker process runs file after file instead of a fresh one per file: the suite spent more
    // CPU starting workers and importing the same modules again than running most files (core and
    // render: 35 → 16 s of CPU). Files leave no global state behind (env changes are restored, fake
    // timers reset, servers closed in afterAll), which the 10-run check keeps honest.
    isolate: false,
    // Most files wait on child processes, servers and timers, not on the CPU: the suite uses about
    // 1.5 of two cores with three at a time (98 s of CPU in 58-65 s), and four keep them busier
    // (the same CPU in 54-57 s). vitest's default is one per core minus one, which is one here. The
    // torture config keeps the default, because its timing loops want the machine to themselves.
    maxWorkers: 4,
  },
});
