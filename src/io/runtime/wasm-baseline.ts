// undici parses HTTP with llhttp, a WebAssembly module. V8 compiles it at once with its baseline
// compiler (Liftoff), then recompiles the busy functions with its optimising one in background
// threads, and Node 20 and 22 wait for those threads before the process may exit. A command that
// read the server spent 0.1–0.2 s of CPU, and as long again of wall time, on code it would never run
// (`plan` on a small manifest, 6 runs each: Node 20 0.60 → 0.40 s CPU, Node 22 0.45 → 0.33 s; on
// Node 24 the flag gained nothing, so it is left alone there). A CLI parses a few kilobytes of JSON
// answers, which baseline code does as fast as the wire delivers them.
// Only the CLI sets the flag, when a command opens its first connection (cli/api-connect.ts), before
// undici compiles llhttp; the library (`import … from 'agentsync'`) never touches the flags of its
// host's V8, and a command that never reads the server does not pay for loading node:v8.
import { setFlagsFromString } from 'node:v8';
import { V8_FLAGS_CHANGING } from './v8-flags-event.js';

export function keepWasmOnBaselineCompiler(): void {
  if (Number(process.versions.node.split('.')[0]) >= 24) return;
  try {
    // The bin's code cache is taken now, under the flags every start has (io/runtime/v8-flags-event.ts).
    (process as NodeJS.EventEmitter).emit(V8_FLAGS_CHANGING);
    setFlagsFromString('--liftoff-only');
  } catch {
    // A V8 without the flag: the command runs as it would have.
  }
}
