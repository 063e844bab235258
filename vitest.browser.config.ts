import { defineConfig } from 'vitest/config';

/**
 * The files that drive the emulator's dashboard in a real Chromium (playwright-core and the system's
 * /usr/bin/chromium): seconds of browser start-up and rendering each, which kept `npm test` over its
 * 60 s budget on a clean clone. `npm run test:browser` runs them, `.ci/run` after the torture suite,
 * and `npm test` leaves them out.
 */
export const BROWSER_FILES = ['test/emulator/dashboard-browser.test.ts', 'test/emulator/dashboard-builder-browser.test.ts'];

export default defineConfig({
  test: {
    include: BROWSER_FILES,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
