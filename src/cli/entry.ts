// The CLI proper. scripts/bundle.mjs bundles it, with zod, yaml and commander, into
// dist/cli/agentsync.cjs, which the `agentsync` bin (cli/main.ts) loads.
import { buildProgram } from './program.js';
import { runMain } from './run.js';

// The CLI ships bundled; map stack traces back to src/ when someone asked to see them.
if (process.env.AGENTSYNC_DEBUG === '1') process.setSourceMapsEnabled(true);

void runMain(buildProgram(), process.argv);
