/** Thrown by a command to end with an exit code other than 0 without an error message (plan --detailed-exitcode). */
export class ExitRequest extends Error {
  constructor(readonly exitCode: number) {
    super(`exit ${exitCode}`);
  }
}
