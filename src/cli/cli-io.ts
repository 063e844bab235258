// Everything a CLI run needs from the world it runs in, handed in by whoever starts it: the bin
// (cli/entry.ts) builds it from the real process, a test or an embedding program from anything
// else. Nothing under cli/, app/ or render/ reads `process`: two runs in one process are two
// values of this type, and neither sees the other's streams, environment, folder or secrets.
import { pathForRun } from '../io/files/run-path.js';
import type { ManifestSource } from '../io/manifest/manifest-file.js';

/** A stream the run prints to: a terminal, a pipe, a file, or a test's buffer. */
export interface OutputStream extends NodeJS.WritableStream {
  readonly isTTY?: boolean;
  /** The terminal's width, when it is one. */
  readonly columns?: number;
}

export interface InputStream extends NodeJS.ReadableStream {
  readonly isTTY?: boolean;
}

export type StopSignal = 'SIGINT' | 'SIGTERM';

export interface CliIo {
  readonly stdout: OutputStream;
  readonly stderr: OutputStream;
  readonly stdin: InputStream;
  /** Where `${NAME}`, the API keys, AGENTSYNC_* and colour settings are read. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Relative paths on the command line are relative to this folder. */
  readonly cwd: string;
  /** Aborted at the first SIGINT or SIGTERM; its reason is the signal's name. */
  readonly signal: AbortSignal;
  /**
   * Until the returned function is called, a stop signal aborts `signal` instead of ending the
   * process at once (the default, as for any command with nothing to finish). A second signal
   * always ends the process; `lastWords` is printed first. Left out where there is no process
   * to end (a test aborts its own controller).
   */
  readonly trapStops?: (lastWords?: string) => () => void;
}

/** Where the file system finds a path given on the command line, for this run's folder. */
export function pathIn(io: Pick<CliIo, 'cwd'>, path: string): string {
  return pathForRun(io.cwd, path);
}

export function isDebug(io: Pick<CliIo, 'env'>): boolean {
  return io.env.AGENTSYNC_DEBUG === '1';
}

/** Where a command's manifest is read: the run's folder, and its stdin only if the manifest is `-f -`. */
export function manifestSource(io: Pick<CliIo, 'cwd' | 'stdin'>): ManifestSource {
  return {
    cwd: io.cwd,
    // A getter: the bin's stdin is made on first use (cli/entry.ts), and only `-f -` uses it.
    get stdin() {
      return io.stdin;
    },
  };
}
