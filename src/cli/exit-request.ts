/** What run.ts prints for an ExitRequest as the run ends: the command says it, run.ts alone writes it. */
export interface LastWords {
  /** A line for stderr, already in its final form (see render/error-line.ts). */
  readonly stderr?: string;
  /** With --json, the `{"error"}` document stdout carries in place of the output. */
  readonly jsonError?: { readonly code: string; readonly message: string };
}

/**
 * Thrown by a command to end with an exit code other than 0 that no thrown error explains: a
 * verdict (validate found errors, plan --detailed-exitcode has changes), a refusal at the prompt,
 * or failures its output has already reported. run.ts turns it into the exit code and prints its
 * last words, so that no command prints an error line of its own.
 */
export class ExitRequest extends Error {
  constructor(
    readonly exitCode: number,
    readonly lastWords: LastWords = {},
  ) {
    super(`exit ${exitCode}`);
  }
}
