#!/usr/bin/env node
import { buildProgram } from './program.js';
import { runMain } from './run.js';

// The CLI ships bundled; map stack traces back to src/ when someone asked to see them.
if (process.env.AGENTSYNC_DEBUG === '1') process.setSourceMapsEnabled(true);

await runMain(buildProgram(), process.argv);
