/* global module */
// The layering of docs/architecture.md, checked by `npm run lint`. Every layer claim that document
// makes is one rule here, stated as the code really is. Type-only imports count too: a circle of
// types still ties two modules' designs together. npm packages are left out of the graph; Node's
// own modules stay in it (as `fs`, `fs/promises`, …), so a rule can say a layer touches none.

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
      comment: 'core/ is pure: it imports nothing outside core/, neither another layer nor a node: module (its only packages are zod and yaml).',
      from: { path: '^src/core/' },
      to: { pathNot: '^src/core/' },
    },
    {
      name: 'io-stands-on-core',
      severity: 'error',
      comment: 'io/ touches the world for the layers above it and imports only core/: not app/, render/, cli/, library/ or the emulator.',
      from: { path: '^src/io/' },
      to: { path: '^src/(app|render|cli|library|emulator)/|^src/index\\.ts$' },
    },
    {
      name: 'render-has-no-io',
      severity: 'error',
      comment: 'render/ formats data: it never reaches io/, cli/, library/ or the emulator, and no node: module.',
      from: { path: '^src/render/' },
      to: { path: '^src/(io|cli|library|emulator)/|^src/index\\.ts$' },
    },
    {
      name: 'render-no-node',
      severity: 'error',
      comment: 'render/ formats data: no node: module (the streams it writes to are handed to it).',
      from: { path: '^src/render/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'render-reads-app-types-only',
      severity: 'error',
      comment: "render/ may name a use case's result type, never call a use case.",
      from: { path: '^src/render/' },
      to: { path: '^src/app/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'app-below-cli-and-library',
      severity: 'error',
      comment: 'app/ holds the use cases that cli/ and the library both call: it imports neither of them, nor the emulator.',
      from: { path: '^src/app/' },
      to: { path: '^src/(cli|library|emulator)/|^src/index\\.ts$' },
    },
    {
      name: 'app-prints-nothing',
      severity: 'error',
      comment: "app/ prints nothing: of render/ it uses only the plan's JSON form (render/plan-json.ts), which is also the saved plan's format that app/saved-plan.ts checks, and the exported manifest's YAML (render/export-text.ts), which is the file app/export.ts writes.",
      from: { path: '^src/app/' },
      to: { path: '^src/render/', pathNot: '^src/render/(plan-json|export-text)\\.ts$' },
    },
    {
      name: 'app-no-node',
      severity: 'error',
      comment: 'app/ reaches the world only through io/: no node: module.',
      from: { path: '^src/app/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'nothing-imports-cli',
      severity: 'error',
      comment: 'cli/ is the outermost layer: nothing else in src/ depends on it.',
      from: { path: '^src/', pathNot: '^src/cli/' },
      to: { path: '^src/cli/' },
    },
    {
      name: 'library-only-behind-index',
      severity: 'error',
      comment: 'library/ is the programmatic API behind src/index.ts, and only src/index.ts imports it.',
      from: { path: '^src/', pathNot: '^src/(library/|index\\.ts$)' },
      to: { path: '^src/library/' },
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
      comment: 'The emulator is a separate program: of src/ it imports only core/ (wire types, field facts).',
      from: { path: '^src/emulator/' },
      to: { path: '^src/(io|render|cli|app|library)/|^src/index\\.ts$' },
    },
    {
      name: 'emulator-has-facts-of-its-own',
      severity: 'error',
      comment:
        "The emulator holds its own facts about how a server stores records, written from the public reference: of core/ it imports wire types alone (type-only) and the URL glob matcher the reference's crawler rules share. A client fact it borrowed would move the server double with the client, and a round trip could never catch it.",
      from: { path: '^src/emulator/' },
      to: { path: '^src/core/', pathNot: '^src/core/url-glob\\.ts$', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'emulator-not-from-kinds',
      severity: 'error',
      comment: "The client's resource kinds (core/kinds/) are the client's beliefs about the server; the emulator names none of them, not even a type.",
      from: { path: '^src/emulator/' },
      to: { path: '^src/core/kinds/' },
    },
    {
      name: 'emulator-started-only-by-its-command',
      severity: 'error',
      comment: 'Only `agentsync emulator` (cli/commands/emulator.ts) loads the emulator; the library and every other command never do.',
      from: { path: '^src/', pathNot: '^src/(emulator/|cli/commands/emulator\\.ts$)' },
      to: { path: '^src/emulator/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: 'node_modules' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
