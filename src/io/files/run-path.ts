// A run has a folder of its own (the CLI's `cwd`, which a test or an embedding program may set to
// anything). Node's file functions resolve relative paths against the process's folder, so a
// relative path is made absolute here, where it meets the file system, and only when the two
// folders differ: in the usual case (the bin, run in the user's folder) paths keep the form the
// user typed, and so does every message that names them.
import { isAbsolute, resolve } from 'node:path';

export function pathForRun(cwd: string | undefined, path: string): string {
  if (cwd === undefined || isAbsolute(path) || resolve(cwd) === process.cwd()) return path;
  return resolve(cwd, path);
}
