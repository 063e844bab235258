import { defineConfig } from 'vitest/config';

/**
 * The end-to-end files that install things: the README quickstart walked in a clean clone (its own
 * `npm ci`), the packed tarball installed globally and into a project, and the single executable.
 * Minutes of npm and disk, not of agentsync: `npm run test:e2e` runs them, `npm test` leaves them out.
 */
export const E2E_FILES = ['test/docs/readme-quickstart.test.ts', 'test/package/install.test.ts', 'test/package/sea.test.ts'];

export default defineConfig({
  test: {
    include: E2E_FILES,
    testTimeout: 600_000,
    hookTimeout: 600_000,
    pool: 'forks',
    // Much of it waits on npm and the disk, so the three files overlap, as they did inside npm test.
    maxWorkers: 3,
  },
});
