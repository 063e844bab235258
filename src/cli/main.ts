#!/usr/bin/env node
import module from 'node:module';

// Start-up is mostly compiling library code (zod, yaml, commander). Node 22.1+ can cache compiled
// code between runs; Node 20 has no such API, so there this is a no-op.
(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();

// The CLI ships bundled; map stack traces back to src/ when someone asked to see them.
if (process.env.AGENTSYNC_DEBUG === '1') process.setSourceMapsEnabled(true);

const [{ buildProgram }, { runMain }] = await Promise.all([import('./program.js'), import('./run.js')]);
await runMain(buildProgram(), process.argv);
