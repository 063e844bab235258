// The single-file binary starts from a V8 startup snapshot (scripts/sea.mjs, the SEA config's
// `useSnapshot`): Node runs the bundle once when the binary is built and keeps its heap, so a start
// of the binary skips loading the code, building commander's program, zod's manifest schema and
// the rest of the module evaluation (BENCHMARKS.md, P3).
// While the snapshot is built, `validate` runs once as a command line, through the program the bin
// builds, on examples/minimal.yaml, compiled in and read from a stdin of its own: that loads and evaluates what
// it loads lazily (zod's manifest schema is built, and zod prepares its parsers on the first
// parse), and V8 keeps the bytecode of every function that ran, so the binary's first `validate`
// compiles almost nothing. runMain itself is not run here: its secret scope is an
// AsyncLocalStorage, and Node 20 and 22 cannot snapshot a process in which one was used (their
// promise hooks are on). Nothing of the machine that builds the binary is read: the real process
// (streams, argv, env, cwd, signals) is read only in `main`, which the snapshot runs when the
// binary starts.
import { Readable, Writable } from 'node:stream';
import { startupSnapshot } from 'node:v8';
import type { CliIo } from './cli-io.js';
import { buildProgram } from './program.js';

/**
 * examples/minimal.yaml, compiled in by scripts/sea.mjs: the manifest P3 measures, and one that
 * reaches every stage of `validate` (an environment, a tool, an agent). Not imported from
 * core/starter-manifest: that would keep this file in the npm bundle, which scripts/bundle.mjs
 * refuses.
 */
declare const __AGENTSYNC_WARM_UP_MANIFEST__: string;

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
  const printed: string[] = [];
  const output = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      printed.push(String(chunk));
      done();
    },
  });
  const argv = ['validate', '-f', '-'];
  const io: CliIo = { stdout: output, stderr: output, stdin: Readable.from([__AGENTSYNC_WARM_UP_MANIFEST__]), env: {}, cwd: '/', signal: new AbortController().signal };
  await buildProgram(io, argv).parseAsync(argv, { from: 'user' });
  if (printed.join('') !== '<stdin> is valid (environment prod).\n') throw new Error(`the snapshot's warm-up manifest is not valid: ${printed.join('')}`);
}
