// Reads --var-file and combines it with --var (core/var-overrides.ts) into one set of overrides.
import { readFile } from 'node:fs/promises';
import { parseVarFile, parseVarFlags, type VarOverrides } from '../../core/var-overrides.js';
import { fileError } from '../files/file-errors.js';
import { pathForRun } from '../files/run-path.js';

export interface VarOptions {
  var?: string[];
  varFile?: string;
}

/** undefined when neither flag was given, so nothing downstream changes. */
/** `cwd`: the folder a relative --var-file is in (default: the process's). */
export async function readVarOverrides(options: VarOptions, cwd?: string): Promise<VarOverrides | undefined> {
  if (options.varFile === undefined && (options.var ?? []).length === 0) return undefined;
  let fromFile: VarOverrides = {};
  if (options.varFile !== undefined) {
    const text = await readFile(pathForRun(cwd, options.varFile), 'utf8').catch((err: unknown) => Promise.reject(fileError(err, options.varFile ?? '', 'read')));
    fromFile = parseVarFile(options.varFile, text);
  }
  return { ...fromFile, ...parseVarFlags(options.var ?? []) };
}
