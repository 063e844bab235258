// What scripts/build.mjs makes, in one list that the build and its test (test/package/build-if-stale.test.ts) share.

/** What the tests, the bench and the package read; one missing means dist/ is not a whole build. */
export const BUILD_OUTPUTS = [
  'dist/cli/main.cjs',
  'dist/cli/agentsync.cjs',
  'dist/cli/vendor/undici.cjs',
  'dist/cli/vendor/pg.cjs',
  'dist/index.js',
  'dist/types/index.d.ts',
  'dist/emulator/index.js',
  'dist/io/state/index.js',
];
