/* global module */
// The layering rules of docs/architecture.md, checked by `npm run lint` (issue 21):
// no import circles; core/ is pure (nothing from io/, render/, cli/ or app/); render/ never reaches
// for io/; nothing imports cli/ (it is the outermost layer); only app/apply.ts runs the executor. Type-only imports count too: a circle
// of types still ties two modules' designs together.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Modules that import each other, directly or through others, cannot be understood or changed apart.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'core-is-pure',
      severity: 'error',
      comment: 'core/ is pure: it imports nothing from io/, render/, cli/ or app/.',
      from: { path: '^src/core/' },
      to: { path: '^src/(io|render|cli|app)/' },
    },
    {
      name: 'render-has-no-io',
      severity: 'error',
      comment: 'render/ formats data; it never touches the world.',
      from: { path: '^src/render/' },
      to: { path: '^src/io/' },
    },
    {
      name: 'nothing-imports-cli',
      severity: 'error',
      comment: 'cli/ is the outermost layer: the library, io/ and render/ must not depend on it.',
      from: { path: '^src/', pathNot: '^src/cli/' },
      to: { path: '^src/cli/' },
    },
    {
      name: 'one-apply',
      severity: 'error',
      comment: 'app/apply.ts is the only code that runs an apply (the CLI, the library and each environment of a multi-environment run go through it): nothing else calls the executor.',
      from: { path: '^src/', pathNot: '^src/(app/apply|io/apply/)' },
      to: { path: '^src/io/apply/executor\\.ts$' },
    },
    {
      name: 'cli-and-library-use-app',
      severity: 'error',
      comment: 'The CLI and the library reach the server reader, refresh and the state copy through app/ use cases, never by wiring them again themselves (the executor: see one-apply).',
      from: { path: '^src/(cli/|library/|index\\.ts$)' },
      to: { path: '^src/(io/api/read-server|io/state/migrate|core/refresh)\\.ts$' },
    },
    {
      name: 'emulator-shares-only-core',
      severity: 'error',
      comment: 'The emulator is a separate program: it shares core/ (wire types, field facts) and nothing else.',
      from: { path: '^src/emulator/' },
      to: { path: '^src/(io|render|cli|app)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    includeOnly: '^src/',
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
