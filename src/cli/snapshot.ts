// The single-file binary starts from a V8 startup snapshot (scripts/sea.mjs, the SEA config's
// `useSnapshot`): Node runs the bundle once when the binary is built and keeps its heap, so a start
// of the binary skips loading the code, building commander's program, zod's manifest schema and
// the rest of the module evaluation (BENCHMARKS.md, P3).
// While the snapshot is built, the modules `validate` loads lazily are loaded, and the validate use
// case runs once on a manifest held here: that evaluates them (zod's manifest schema is built, and
// zod prepares its parsers on the first parse) so that the binary starts with all of it in its heap.
// Node keeps no compiled code in a snapshot (V8's kClear), so what runs still compiles on first use.
// runMain itself is not run here: its secret scope is an AsyncLocalStorage, and Node 20 and 22
// cannot snapshot a process in which one was used (their promise hooks are on). Nothing of the
// machine that builds the binary is read: the real process (streams, argv, env, cwd, signals) is
// read only in `main`, which the snapshot runs when the binary starts.
import { Readable } from 'node:stream';
import { startupSnapshot } from 'node:v8';
import { loadValidateModules } from './commands/validate.js';
// What `agentsync init` writes reaches every stage of validate: an environment with vars, tools, agents.
import { STARTER_MANIFEST } from '../core/starter-manifest.js';

/**
 * Called by the bin's entry in the binary's bundle. While Node builds the snapshot, `main` becomes
 * the function the binary starts with; anywhere else (the same bundle run by plain node) it runs now.
 */
export function buildStartupSnapshot(main: () => void): void {
  if (!startupSnapshot.isBuildingSnapshot()) {
    main();
    return;
  }
  startupSnapshot.setDeserializeMainFunction(main);
  // A failed warm-up fails the build (an unhandled rejection ends the snapshot's build), never a user's run.
  void warmUp();
}

async function warmUp(): Promise<void> {
  const [{ validateManifest }] = await loadValidateModules();
  const { valid, diagnostics } = await validateManifest({ file: '-', source: { cwd: '/', stdin: Readable.from([STARTER_MANIFEST]) }, env: {} });
  if (!valid) throw new Error(`the snapshot's warm-up manifest is not valid: ${JSON.stringify(diagnostics)}`);
}
